// Frames shrunk whole on the CPU: the bytes of env/resize.h's area_pixel (OpenCV's INTER_AREA)
// computed row by row instead of byte by byte. Each source row is read once, through the palette
// (max-pooled where asked) into floats, and summed along x for every output column; each output
// row then adds up the row sums it covers, weighted. Per output byte these are area_pixel's float
// operations in area_pixel's order, so the bytes are area_pixel's (tests/test_observe.py).
#pragma once
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "env/observe.h"

namespace cule::bindings {

// An AreaAxis's weights laid out for whole rows. A column's weights fall on consecutive source
// pixels from `start`; every column takes `taps` of them, tap by tap, those past its own with
// weight 0 (added at the end of a sum of non-negative products, 0.0f leaves it unchanged).
struct RowWeights {
    i32 width = 0, taps = 0;
    std::vector<i32> start;    // [column]
    std::vector<float> alpha;  // [tap][column]

    RowWeights() = default;
    RowWeights(const AreaAxis& xs, i32 width) : width(width), start(width) {
        for (i32 t = 0; t < width; ++t) taps = std::max(taps, xs.first[t + 1] - xs.first[t]);
        alpha.assign((size_t)taps * width, 0.0f);
        for (i32 t = 0; t < width; ++t) {
            start[t] = xs.w[xs.first[t]].source;
            for (i32 k = 0; k < xs.first[t + 1] - xs.first[t]; ++k) {
                const AreaWeight& w = xs.w[xs.first[t] + k];
                if (w.source != start[t] + k) throw std::logic_error("area weights on source pixels not in a row");
                alpha[(size_t)k * width + t] = w.alpha;
            }
        }
    }
};

// area_pixel's inner loop for every column of a row: `values` the row's pixels (and `taps` 0s
// past its end), `sums` one per column. TAPS is xs.taps where a loop of constant length helps.
template <i32 TAPS>
void row_sums(const float* __restrict values, const RowWeights& xs, float* __restrict sums) {
    const i32 width = xs.width, taps = TAPS ? TAPS : xs.taps;
    const float* __restrict alpha = xs.alpha.data();
    for (i32 t = 0; t < width; ++t) {
        const float* v = values + xs.start[t];
        float sum = 0.0f;
        for (i32 k = 0; k < taps; ++k) sum += v[k] * alpha[k * width + t];
        sums[t] = sum;
    }
}

inline void row_sums(const float* values, const RowWeights& xs, float* sums) {
    switch (xs.taps) {   // 3 for 160 to 84 columns
        case 2: return row_sums<2>(values, xs, sums);
        case 3: return row_sums<3>(values, xs, sums);
        case 4: return row_sums<4>(values, xs, sums);
        default: return row_sums<0>(values, xs, sums);
    }
}

// The brighter grey of every pair of pixel values (a << 8 | b): frames max-pooled in grey, as
// AtariVectorEnv's default, take one look-up per pixel instead of two and a comparison.
inline const u8* brighter_greys(bool pal) {
    struct Table {
        u8 grey[1 << 16];
        explicit Table(bool pal) {
            for (i32 a = 0; a < 256; ++a)
                for (i32 b = 0; b < 256; ++b)
                    grey[a << 8 | b] = std::max(palette_channel((u8)a, pal, true, 0), palette_channel((u8)b, pal, true, 0));
        }
    };
    static const Table ntsc(false), pal_table(true);
    return (pal ? pal_table : ntsc).grey;
}

// One thread's buffers for shrink_frame.
struct ShrinkScratch {
    std::vector<u8> line, other;          // a source row's channel (and the pooled frame's)
    std::vector<u16> pairs;               // a source row's pixels and the pooled frame's, paired
    std::vector<float> values, rows, sums;   // the row as floats; every source row's sums along x,
                                             // channel-major; an output row's
};

// The observation of one frame (`previous` for pooling) shrunk to `height` x `width` along the
// weights `ys` (rows) and `xs` (columns, as RowWeights), `channels` bytes per pixel.
template <bool GREY, bool POOL>
void shrink_frame(const u8* frame, const u8* previous, bool pal, i32 source_height, const AreaAxis& ys,
                  i32 height, const RowWeights& xs, ShrinkScratch& s, u8* dst) {
    constexpr i32 channels = GREY ? 1 : 3;
    const i32 width = xs.width, line = width * channels;
    s.line.resize(SCREEN_WIDTH);
    s.pairs.resize(SCREEN_WIDTH);
    s.other.resize(SCREEN_WIDTH);
    s.values.assign(SCREEN_WIDTH + xs.taps, 0.0f);   // taps past the row's end read 0, weighted 0
    s.rows.resize((size_t)source_height * line);
    s.sums.resize(line);
    const u8* brighter_grey = brighter_greys(pal);
    u16* __restrict pairs = s.pairs.data();
    u8* __restrict pixels = s.line.data();
    u8* __restrict other = s.other.data();
    float* __restrict values = s.values.data();
    for (i32 y = 0; y < source_height; ++y)
        for (i32 c = 0; c < channels; ++c) {
            // The row's channel through the palette, max-pooled where asked.
            const u8 *f = frame + y * SCREEN_WIDTH, *p = previous + y * SCREEN_WIDTH;
            if (GREY && POOL) {   // the pairs first (a vector loop), then the look-ups
                for (i32 x = 0; x < SCREEN_WIDTH; ++x) pairs[x] = (u16)(f[x] << 8 | p[x]);
#pragma GCC unroll 8
                for (i32 x = 0; x < SCREEN_WIDTH; ++x) pixels[x] = brighter_grey[pairs[x]];
            } else {
                for (i32 x = 0; x < SCREEN_WIDTH; ++x) pixels[x] = palette_channel(f[x], pal, GREY, c);
                if (POOL) {
                    for (i32 x = 0; x < SCREEN_WIDTH; ++x) other[x] = palette_channel(p[x], pal, GREY, c);
                    for (i32 x = 0; x < SCREEN_WIDTH; ++x) pixels[x] = std::max(pixels[x], other[x]);
                }
            }
            for (i32 x = 0; x < SCREEN_WIDTH; ++x) values[x] = pixels[x];
            row_sums(values, xs, s.rows.data() + (size_t)y * line + c * width);
        }
    float* __restrict sums = s.sums.data();
    for (i32 ty = 0; ty < height; ++ty, dst += line) {   // area_pixel's outer loop
        for (i32 o = 0; o < line; ++o) sums[o] = 0.0f;
        for (i32 j = ys.first[ty]; j < ys.first[ty + 1]; ++j) {
            const float a = ys.w[j].alpha;
            const float* __restrict r = s.rows.data() + (size_t)ys.w[j].source * line;
            for (i32 o = 0; o < line; ++o) sums[o] += a * r[o];
        }
        for (i32 t = 0; t < width; ++t)
            for (i32 c = 0; c < channels; ++c) dst[t * channels + c] = round_to_u8(sums[c * width + t]);
    }
}

// shrink_frame with its channels and pooling chosen at run time.
inline void shrink_frame(bool grey, bool pool, const u8* frame, const u8* previous, bool pal, i32 source_height,
                         const AreaAxis& ys, i32 height, const RowWeights& xs, ShrinkScratch& s, u8* dst) {
    if (grey) pool ? shrink_frame<true, true>(frame, previous, pal, source_height, ys, height, xs, s, dst)
                   : shrink_frame<true, false>(frame, previous, pal, source_height, ys, height, xs, s, dst);
    else pool ? shrink_frame<false, true>(frame, previous, pal, source_height, ys, height, xs, s, dst)
              : shrink_frame<false, false>(frame, previous, pal, source_height, ys, height, xs, s, dst);
}

}  // namespace cule::bindings
