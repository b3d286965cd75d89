// Frames shrunk whole on the CPU: the bytes of env/resize.h's area_pixel (OpenCV's INTER_AREA)
// computed row by row instead of byte by byte. Source rows are read once, through the palette
// (max-pooled where asked) into floats, and summed along x for every output column, a block of
// rows at a time in the lanes of a vector (SHRINK_ROWS); each output row then adds up the row
// sums it covers, weighted. Per output byte these are area_pixel's float operations in
// area_pixel's order, so the bytes are area_pixel's (tests/test_observe.py).
#pragma once
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "env/observe.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if defined(__x86_64__)
#include <cstdlib>
#include <immintrin.h>
#endif

namespace cule::bindings {

// Source rows are summed along x a block of rows at a time, one per vector lane: their pixels lie
// column-major (pixel x of row r at x * rows + r), so a tap of every row is one vector load and
// one multiply by the column's weight. Each lane still adds its row's products in area_pixel's
// order, and vector float operations round as scalar ones do. SSE's blocks are 4 rows, AVX2's 8
// (v5 Pong, callgrind: the row sums 13K host instructions an emulated frame, where 4 rows took 27K).
enum : i32 { SHRINK_ROWS = 4, SHRINK_ROWS_AVX2 = 8 };

// An AreaAxis's weights laid out for whole rows. A column's weights fall on consecutive source
// pixels from `start`; every column takes `taps` of them, tap by tap, those past its own with
// weight 0 (added at the end of a sum of non-negative products, 0.0f leaves it unchanged).
struct RowWeights {
    i32 width = 0, taps = 0;
    std::vector<i32> start;    // [column]
    std::vector<float> alpha;  // [tap][column]
    std::vector<float> lanes;  // [column][tap][SHRINK_ROWS]: alpha once for each row of a block

    RowWeights() = default;
    RowWeights(const AreaAxis& xs, i32 width);
};

inline RowWeights::RowWeights(const AreaAxis& xs, i32 width) : width(width), start(width) {
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
    lanes.resize((size_t)width * taps * SHRINK_ROWS);
    for (i32 t = 0; t < width; ++t)
        for (i32 k = 0; k < taps; ++k)
            for (i32 r = 0; r < SHRINK_ROWS; ++r) lanes[((size_t)t * taps + k) * SHRINK_ROWS + r] = alpha[(size_t)k * width + t];
}

// area_pixel's inner loop for every column of SHRINK_ROWS rows: `values` their pixels column-major
// (and `taps` columns of 0s past the end); row r's sums go to sums + r * stride. TAPS is
// xs.taps where a loop of constant length helps.
template <i32 TAPS>
void row_sums(const float* __restrict values, const RowWeights& xs, float* __restrict sums, size_t stride) {
    const i32 width = xs.width, taps = TAPS ? TAPS : xs.taps;
    const float* __restrict alpha = xs.alpha.data();
    i32 t = 0;
#if defined(__SSE2__)
    static_assert(SHRINK_ROWS == 4, "one SSE vector of rows");
    const float* __restrict weights = xs.lanes.data();   // a column's taps, each in every lane
    for (; t + 4 <= width; t += 4) {   // four columns, turned into four rows of four sums
        __m128 sum[4];
        for (i32 j = 0; j < 4; ++j, weights += taps * SHRINK_ROWS) {
            const float* v = values + xs.start[t + j] * SHRINK_ROWS;
            sum[j] = _mm_setzero_ps();
            for (i32 k = 0; k < taps; ++k)
                sum[j] = _mm_add_ps(sum[j], _mm_mul_ps(_mm_loadu_ps(v + k * SHRINK_ROWS), _mm_loadu_ps(weights + k * SHRINK_ROWS)));
        }
        _MM_TRANSPOSE4_PS(sum[0], sum[1], sum[2], sum[3]);
        for (i32 r = 0; r < 4; ++r) _mm_storeu_ps(sums + r * stride + t, sum[r]);
    }
#endif
    for (; t < width; ++t) {
        const float* v = values + xs.start[t] * SHRINK_ROWS;
        float sum[SHRINK_ROWS] = {};
        for (i32 k = 0; k < taps; ++k)
            for (i32 r = 0; r < SHRINK_ROWS; ++r) sum[r] += v[k * SHRINK_ROWS + r] * alpha[k * width + t];
        for (i32 r = 0; r < SHRINK_ROWS; ++r) sums[r * stride + t] = sum[r];
    }
}

#if defined(__x86_64__)
// Eight vectors transposed: lane j of r[i] becomes lane i of r[j].
__attribute__((target("avx2"))) inline void transpose8(__m256* r) {
    __m256 t[8], u[8];
    for (i32 i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (i32 i = 0; i < 2; ++i)
        for (i32 h = 0; h < 2; ++h) {
            u[4 * i + 2 * h] = _mm256_shuffle_ps(t[4 * i + h], t[4 * i + h + 2], _MM_SHUFFLE(1, 0, 1, 0));
            u[4 * i + 2 * h + 1] = _mm256_shuffle_ps(t[4 * i + h], t[4 * i + h + 2], _MM_SHUFFLE(3, 2, 3, 2));
        }
    for (i32 i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
    }
}

// A column's sums of every row of a block: `v` its first tap's pixels, `alpha` its first weight
// (the next tap's `width` on).
__attribute__((target("avx2"), always_inline)) inline __m256 column_sums_avx2(const float* v, const float* alpha,
                                                                              i32 width, i32 taps) {
    __m256 sum = _mm256_setzero_ps();
    for (i32 k = 0; k < taps; ++k) {
        const __m256 tap = _mm256_loadu_ps(v + k * SHRINK_ROWS_AVX2);
        sum = _mm256_add_ps(sum, _mm256_mul_ps(tap, _mm256_broadcast_ss(alpha + k * width)));
    }
    return sum;
}

// row_sums with AVX2: SHRINK_ROWS_AVX2 rows, a tap of each a load, its weight a broadcast.
template <i32 TAPS>
__attribute__((target("avx2"))) void row_sums_avx2(const float* __restrict values, const RowWeights& xs,
                                                   float* __restrict sums, size_t stride) {
    constexpr i32 R = SHRINK_ROWS_AVX2;
    const i32 width = xs.width, taps = TAPS ? TAPS : xs.taps;
    const float* __restrict alpha = xs.alpha.data();
    i32 t = 0;
    for (; t + 8 <= width; t += 8) {   // eight columns, turned into eight rows of eight sums
        __m256 sum[8];
        for (i32 j = 0; j < 8; ++j) sum[j] = column_sums_avx2(values + xs.start[t + j] * R, alpha + t + j, width, taps);
        transpose8(sum);
        for (i32 r = 0; r < R; ++r) _mm256_storeu_ps(sums + r * stride + t, sum[r]);
    }
    for (; t < width; ++t) {
        float rows[R];
        _mm256_storeu_ps(rows, column_sums_avx2(values + xs.start[t] * R, alpha + t, width, taps));
        for (i32 r = 0; r < R; ++r) sums[r * stride + t] = rows[r];
    }
}
#endif

// The row sums of a block of ROWS rows: SHRINK_ROWS, or SHRINK_ROWS_AVX2 in AVX2's build.
template <i32 ROWS>
void block_row_sums(const float* values, const RowWeights& xs, float* sums, size_t stride) {
#if defined(__x86_64__)
    if constexpr (ROWS == SHRINK_ROWS_AVX2) {
        switch (xs.taps) {
            case 2: return row_sums_avx2<2>(values, xs, sums, stride);
            case 3: return row_sums_avx2<3>(values, xs, sums, stride);
            case 4: return row_sums_avx2<4>(values, xs, sums, stride);
            default: return row_sums_avx2<0>(values, xs, sums, stride);
        }
    } else
#endif
    {
        static_assert(ROWS == SHRINK_ROWS, "blocks of SSE's rows or AVX2's");
        switch (xs.taps) {   // 3 for 160 to 84 columns
            case 2: return row_sums<2>(values, xs, sums, stride);
            case 3: return row_sums<3>(values, xs, sums, stride);
            case 4: return row_sums<4>(values, xs, sums, stride);
            default: return row_sums<0>(values, xs, sums, stride);
        }
    }
}

// n bytes to floats.
inline void to_floats(const u8* __restrict bytes, i32 n, float* __restrict floats) {
    i32 i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i*)(bytes + i));
        const __m128i low = _mm_unpacklo_epi8(b, zero), high = _mm_unpackhi_epi8(b, zero);
        _mm_storeu_ps(floats + i, _mm_cvtepi32_ps(_mm_unpacklo_epi16(low, zero)));
        _mm_storeu_ps(floats + i + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(low, zero)));
        _mm_storeu_ps(floats + i + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(high, zero)));
        _mm_storeu_ps(floats + i + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(high, zero)));
    }
#endif
    for (; i < n; ++i) floats[i] = bytes[i];
}

// round_to_u8 of n floats. SSE's conversion rounds half to even as lrintf does (the default
// rounding mode), and its two saturating packs clamp to 0..255.
inline void round_to_bytes(const float* __restrict sums, i32 n, u8* __restrict bytes) {
    i32 i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        __m128i q[4];
        for (i32 j = 0; j < 4; ++j) q[j] = _mm_cvtps_epi32(_mm_loadu_ps(sums + i + 4 * j));
        const __m128i words = _mm_packs_epi32(q[0], q[1]), words2 = _mm_packs_epi32(q[2], q[3]);
        _mm_storeu_si128((__m128i*)(bytes + i), _mm_packus_epi16(words, words2));
    }
#endif
    for (; i < n; ++i) bytes[i] = round_to_u8(sums[i]);
}

// The brighter grey of every pair of pixel values (a << 8 | b): frames max-pooled in grey, as
// AtariVectorEnv's default, take one look-up per pixel instead of two and a comparison. Three bytes
// past the last pair: AVX2's gathers read four bytes a look-up (brighter_grey_values_avx2).
inline const u8* brighter_greys(bool pal) {
    struct Table {
        u8 grey[(1 << 16) + 3];
        explicit Table(bool pal) {
            for (i32 a = 0; a < 256; ++a)
                for (i32 b = 0; b < 256; ++b)
                    grey[a << 8 | b] = std::max(palette_channel((u8)a, pal, true, 0), palette_channel((u8)b, pal, true, 0));
        }
    };
    static const Table ntsc(false), pal_table(true);
    return (pal ? pal_table : ntsc).grey;
}

// Whether this CPU runs shrink_frame's AVX2 build: asked at run time, as the module is built for
// any x86-64; CULE_NO_AVX2 in the environment declines it (tests/test_observe.py). AVX2 adds no
// FMA and the float operations stay those of the source, in its order: the same bytes either way.
inline bool use_avx2() {
#if defined(__x86_64__)
    static const bool avx2 = __builtin_cpu_supports("avx2") && !std::getenv("CULE_NO_AVX2");
    return avx2;
#else
    return false;
#endif
}

// The look-ups of a block's pixel pairs (`pairs`: row r's from r x SCREEN_WIDTH) into `lanes`,
// column-major (see SHRINK_ROWS), one at a time.
inline void brighter_grey_lanes(const u16* pairs, const u8* table, u8* lanes) {
    for (i32 x = 0; x < SCREEN_WIDTH; ++x)
        for (i32 r = 0; r < SHRINK_ROWS; ++r) lanes[x * SHRINK_ROWS + r] = table[pairs[r * SCREEN_WIDTH + x]];
}

#if defined(__x86_64__)
// Whether two rows of a frame hold the same pixels: inline, where std::memcmp
// took 2.9K host instructions a frame more on v5 Pong (callgrind, 2026-12-07).
__attribute__((target("avx2"))) inline bool same_row_avx2(const u8* a, const u8* b) {
    static_assert(SCREEN_WIDTH % 32 == 0, "whole vectors a row");
    __m256i differ = _mm256_setzero_si256();
    for (i32 x = 0; x < SCREEN_WIDTH; x += 32)
        differ = _mm256_or_si256(differ, _mm256_xor_si256(_mm256_loadu_si256((const __m256i*)(a + x)),
                                                          _mm256_loadu_si256((const __m256i*)(b + x))));
    return _mm256_testz_si256(differ, differ);
}

// A block of SHRINK_ROWS_AVX2 rows of the frames at `frame` and `previous` (`rows` of them the
// frame's, the rest its last again) max-pooled in grey straight into `values` (see SHRINK_ROWS):
// eight columns of a row a gather, the eight rows' floats then turned column by column. With
// `held`, the frame's rows also row by row there (shrink_frame's `held`). `last`: the greys of the
// row above the block (the last block's last row, a row of floats) where `above`, and this block's
// last row's after. v5 Pong, callgrind: 4K host instructions an emulated frame fewer than from
// pairs and lanes of bytes.
__attribute__((target("avx2"))) inline void brighter_grey_values_avx2(const u8* frame, const u8* previous, i32 rows,
                                                                      const u8* table, float* values, u8* held,
                                                                      float* last, bool above) {
    static_assert(SHRINK_ROWS_AVX2 == 8 && SCREEN_WIDTH % 8 == 0, "8 rows, 8 columns a gather");
    const __m256i low = _mm256_set1_epi32(0xFF);
    // byte 0 of each word to the first 4 bytes of its half, then both halves' to the first 8
    const __m256i first_bytes = _mm256_set1_epi32(0x0C080400), halves = _mm256_set_epi32(0, 0, 0, 0, 0, 0, 4, 0);
    // A row that repeats the row above on both frames (94% of Pong's rows; the rows past the
    // frame's repeat its last) takes its greys again, as full_frame copies such lines: gathers
    // are the look-ups' slow part (v5 Pong, perf, 2-core AMD EPYC, 2026-12-07: this function took
    // 9.9% of a step's time for 5.7% of its host instructions, and 5.7% of the time after).
    auto repeats = [&](i32 r) {
        const i32 above_r = (r - 1) * SCREEN_WIDTH, at = r * SCREEN_WIDTH;
        return r >= rows || ((r > 0 || above) && same_row_avx2(frame + above_r, frame + at) &&
                             same_row_avx2(previous + above_r, previous + at));
    };
    u32 repeated = 0;
    for (i32 r = 0; r < SHRINK_ROWS_AVX2; ++r) repeated |= (u32)repeats(r) << r;
    for (i32 x = 0; x < SCREEN_WIDTH; x += 8) {
        __m256 grey[SHRINK_ROWS_AVX2];
        // unrolled, so that grey[] stays in registers (kept a loop: v5 Pong 41K host instructions
        // a frame here, not 23K)
#pragma GCC unroll 8
        for (i32 r = 0; r < SHRINK_ROWS_AVX2; ++r) {
            const i32 row = (r < rows ? r : rows - 1) * SCREEN_WIDTH + x;
            if (repeated >> r & 1) {
                grey[r] = r ? grey[r - 1] : _mm256_loadu_ps(last + x);
                if (held && r < rows) store_word(held + row, load_word(held + row - SCREEN_WIDTH));
                continue;
            }
            const __m256i f = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(frame + row))),
                          p = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(previous + row)));
            const __m256i index = _mm256_or_si256(_mm256_slli_epi32(f, 8), p);   // a pair: brighter_greys
            const __m256i g = _mm256_and_si256(_mm256_i32gather_epi32((const int*)table, index, 1), low);
            if (held && r < rows) {
                const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(g, first_bytes), halves);
                _mm_storel_epi64((__m128i*)(held + row), _mm256_castsi256_si128(bytes));
            }
            grey[r] = _mm256_cvtepi32_ps(g);
        }
        _mm256_storeu_ps(last + x, grey[SHRINK_ROWS_AVX2 - 1]);
        transpose8(grey);   // grey[j]: column x + j's rows
        for (i32 j = 0; j < 8; ++j) _mm256_storeu_ps(values + (x + j) * SHRINK_ROWS_AVX2, grey[j]);
    }
}
#endif

// One thread's buffers for shrink_frame.
struct ShrinkScratch {
    std::vector<u16> pairs;       // a block's source rows' pixels and the pooled frame's, paired
    std::vector<u8> lanes;        // one channel of the rows, column-major (see SHRINK_ROWS)
    std::vector<float> values, rows, sums;   // the lanes as floats; every source row's sums along x,
                                             // channel-major; an output row's
    std::vector<float> last_row;             // the last block's last row (brighter_grey_values_avx2)
};

// The observation of one frame (`previous` for pooling) shrunk to `height` x `width` along the
// weights `ys` (rows) and `xs` (columns, as RowWeights), `channels` bytes per pixel; where `held`
// is given, the frame before shrinking into it too (source_height x SCREEN_WIDTH x channels).
// AVX2: built for it (shrink_frame_avx2), its vector loops 8 floats wide (v5 Pong, callgrind: 17K
// host instructions an emulated frame fewer).
template <bool GREY, bool POOL, bool AVX2>
inline __attribute__((always_inline)) void shrink_frame_built(const u8* frame, const u8* previous, bool pal,
                                                              i32 source_height, const AreaAxis& ys, i32 height,
                                                              const RowWeights& xs, ShrinkScratch& s, u8* dst,
                                                              u8* held) {
    constexpr i32 channels = GREY ? 1 : 3, R = AVX2 ? SHRINK_ROWS_AVX2 : SHRINK_ROWS;
    const i32 width = xs.width, line = width * channels;
    s.pairs.resize(R * SCREEN_WIDTH);
    s.lanes.resize(R * SCREEN_WIDTH);
    s.values.assign(R * (SCREEN_WIDTH + xs.taps), 0.0f);   // taps past the row's end read 0, weighted 0
    // Whole blocks of rows: the last block's rows past the frame's are sums of its last row again.
    const i32 blocks = (source_height + R - 1) / R;
    s.rows.resize((size_t)blocks * R * line);
    s.sums.resize(line);
    s.last_row.resize(SCREEN_WIDTH);
    const u8* brighter_grey = brighter_greys(pal);
    u16* __restrict pairs = s.pairs.data();
    u8* __restrict lanes = s.lanes.data();
    float* __restrict values = s.values.data();
    for (i32 y0 = 0; y0 < source_height; y0 += R) {
        auto source = [&](const u8* f, i32 r) { return f + std::min(y0 + r, source_height - 1) * SCREEN_WIDTH; };
        for (i32 c = 0; c < channels; ++c) {
            // The rows' channel through the palette, max-pooled where asked, into the lanes; as
            // floats into the values.
#if defined(__x86_64__)
            if constexpr (GREY && POOL && AVX2) {
                brighter_grey_values_avx2(frame + y0 * SCREEN_WIDTH, previous + y0 * SCREEN_WIDTH,
                                          std::min(R, source_height - y0), brighter_grey, values,
                                          held ? held + (size_t)y0 * SCREEN_WIDTH : nullptr, s.last_row.data(), y0 > 0);
            } else
#endif
            {
                if (GREY && POOL) {   // the pairs first (a vector loop), then the look-ups
                    for (i32 r = 0; r < R; ++r) {
                        const u8 *f = source(frame, r), *p = source(previous, r);
                        for (i32 x = 0; x < SCREEN_WIDTH; ++x) pairs[r * SCREEN_WIDTH + x] = (u16)(f[x] << 8 | p[x]);
                    }
                    brighter_grey_lanes(pairs, brighter_grey, lanes);
                } else {
                    for (i32 r = 0; r < R; ++r) {
                        const u8 *f = source(frame, r), *p = source(previous, r);
                        for (i32 x = 0; x < SCREEN_WIDTH; ++x) {
                            u8 v = palette_channel(f[x], pal, GREY, c);
                            if (POOL) v = std::max(v, palette_channel(p[x], pal, GREY, c));
                            lanes[x * R + r] = v;
                        }
                    }
                }
                if (held)   // the rows of this block that the frame has
                    for (i32 r = 0; r < R && y0 + r < source_height; ++r) {
                        u8* row = held + (size_t)(y0 + r) * SCREEN_WIDTH * channels + c;
                        for (i32 x = 0; x < SCREEN_WIDTH; ++x) row[x * channels] = lanes[x * R + r];
                    }
                to_floats(lanes, R * SCREEN_WIDTH, values);
            }
            block_row_sums<R>(values, xs, s.rows.data() + (size_t)y0 * line + c * width, line);
        }
    }
    float* __restrict sums = s.sums.data();
    for (i32 ty = 0; ty < height; ++ty, dst += line) {   // area_pixel's outer loop
        for (i32 o = 0; o < line; ++o) sums[o] = 0.0f;
        for (i32 j = ys.first[ty]; j < ys.first[ty + 1]; ++j) {
            const float a = ys.w[j].alpha;
            const float* __restrict r = s.rows.data() + (size_t)ys.w[j].source * line;
            for (i32 o = 0; o < line; ++o) sums[o] += a * r[o];
        }
        if (GREY) round_to_bytes(sums, width, dst);
        else
            for (i32 t = 0; t < width; ++t)
                for (i32 c = 0; c < channels; ++c) dst[t * channels + c] = round_to_u8(sums[c * width + t]);
    }
}

#if defined(__x86_64__)
template <bool GREY, bool POOL>
__attribute__((target("avx2"))) void shrink_frame_avx2(const u8* frame, const u8* previous, bool pal, i32 source_height,
                                                       const AreaAxis& ys, i32 height, const RowWeights& xs,
                                                       ShrinkScratch& s, u8* dst, u8* held) {
    shrink_frame_built<GREY, POOL, true>(frame, previous, pal, source_height, ys, height, xs, s, dst, held);
}
#endif

template <bool GREY, bool POOL>
void shrink_frame(const u8* frame, const u8* previous, bool pal, i32 source_height, const AreaAxis& ys, i32 height,
                  const RowWeights& xs, ShrinkScratch& s, u8* dst, u8* held) {
#if defined(__x86_64__)
    if (use_avx2()) return shrink_frame_avx2<GREY, POOL>(frame, previous, pal, source_height, ys, height, xs, s, dst, held);
#endif
    shrink_frame_built<GREY, POOL, false>(frame, previous, pal, source_height, ys, height, xs, s, dst, held);
}

// shrink_frame with its channels and pooling chosen at run time.
inline void shrink_frame(bool grey, bool pool, const u8* frame, const u8* previous, bool pal, i32 source_height,
                         const AreaAxis& ys, i32 height, const RowWeights& xs, ShrinkScratch& s, u8* dst,
                         u8* held = nullptr) {
    if (grey) pool ? shrink_frame<true, true>(frame, previous, pal, source_height, ys, height, xs, s, dst, held)
                   : shrink_frame<true, false>(frame, previous, pal, source_height, ys, height, xs, s, dst, held);
    else pool ? shrink_frame<false, true>(frame, previous, pal, source_height, ys, height, xs, s, dst, held)
              : shrink_frame<false, false>(frame, previous, pal, source_height, ys, height, xs, s, dst, held);
}

}  // namespace cule::bindings
