// Shrinking frames as OpenCV's resize with INTER_AREA does it (what ale-py's AtariVectorEnv and
// EnvPool use). OpenCV has two paths, and cule both:
// - scales that are not whole numbers (210x160 or 250x160 to 84x84): every output pixel is the
//   area-weighted mean of the source pixels its cell covers. The weights, the float sums in
//   their order and the final rounding are OpenCV's, so the bytes come out equal. Float
//   multiply and add must stay separate operations: the host build and NVRTC turn off their
//   contraction into fused multiply-adds (-ffp-contract=off, --fmad=false).
// - whole scales on both axes (210x160 to 105x80): the integer sum of each block, rounded as
//   OpenCV rounds it there.
#pragma once
#include "types.h"
#include "atari/tia.h"

namespace cule {

enum : i32 { AREA_MAX_SOURCE = MAX_SCREEN_HEIGHT };   // the longest axis shrunk: the frame's height

struct AreaWeight {
    i32 source;   // the source pixel along the axis
    float alpha;
};

// The weights of one axis: target pixel t takes the source pixels w[first[t]] .. w[first[t+1]-1].
// `block`: the source pixels per target pixel where the scale is a whole number, else 0.
struct AreaAxis {
    i32 first[AREA_MAX_SOURCE + 1];
    AreaWeight w[2 * AREA_MAX_SOURCE];
    i32 block;
};

CULE_HD i32 floor_to_int(double x) { i32 i = (i32)x; return i - (i > x); }
CULE_HD i32 ceil_to_int(double x) { i32 i = (i32)x; return i + (i < x); }

// The weights for `source_size` pixels shrunk to `target_size`: for each target pixel, the
// partly covered source pixel on its left, the fully covered ones, the partly covered one on
// its right.
CULE_HD void area_axis(i32 source_size, i32 target_size, AreaAxis& axis) {
    double scale = 1.0 / ((double)target_size / source_size);   // as OpenCV derives it
    const double dbl_epsilon = 2.220446049250313e-16;            // OpenCV's test for a whole scale
    i32 whole = (i32)(scale + 0.5);
    axis.block = (scale - whole < dbl_epsilon && whole - scale < dbl_epsilon) ? whole : 0;
    i32 k = 0;
    for (i32 t = 0; t < target_size; ++t) {
        axis.first[t] = k;
        double from = t * scale, to = from + scale;
        double cell = scale < source_size - from ? scale : source_size - from;
        i32 first = ceil_to_int(from), last = floor_to_int(to);
        if (last > source_size - 1) last = source_size - 1;
        if (first > last) first = last;
        if (first - from > 1e-3) axis.w[k++] = {first - 1, (float)((first - from) / cell)};
        for (i32 s = first; s < last; ++s) axis.w[k++] = {s, (float)(1.0 / cell)};
        if (to - last > 1e-3) {
            double part = to - last < 1.0 ? to - last : 1.0;
            axis.w[k++] = {last, (float)((part < cell ? part : cell) / cell)};
        }
    }
    axis.first[target_size] = k;
}

// OpenCV's saturate_cast<uchar>(float): round half to even, then clamp.
CULE_HD u8 round_to_u8(float v) {
#ifdef __CUDA_ARCH__
    i32 i = __float2int_rn(v);
#else
    i32 i = (i32)__builtin_lrintf(v);
#endif
    return (u8)(i < 0 ? 0 : i > 255 ? 255 : i);
}

// Output pixel (ty, tx) of one channel; source(y, x) gives that channel of a source pixel.
// OpenCV sums each source row's weighted pixels, then the rows weighted, in this order; each
// element is computed alone here (one GPU thread each), with the same float operations.
template <class Source>
CULE_HD u8 area_pixel(const Source& source, const AreaAxis& ys, i32 ty, const AreaAxis& xs, i32 tx) {
    float sum = 0.0f;
    for (i32 j = ys.first[ty]; j < ys.first[ty + 1]; ++j) {
        float row = 0.0f;
        for (i32 k = xs.first[tx]; k < xs.first[tx + 1]; ++k) row += source(ys.w[j].source, xs.w[k].source) * xs.w[k].alpha;
        sum += ys.w[j].alpha * row;
    }
    return round_to_u8(sum);
}

// Output pixel (ty, tx) where both scales are whole (by x bx source pixels per output pixel):
// OpenCV's integer block sum, rounded halves up for 2 x 2 blocks (its dedicated code), else
// multiplied by the float reciprocal of the block's area and rounded halves to even.
template <class Source>
CULE_HD u8 block_pixel(const Source& source, i32 by, i32 ty, i32 bx, i32 tx) {
    i32 sum = 0;
    for (i32 j = 0; j < by; ++j)
        for (i32 k = 0; k < bx; ++k) sum += source(ty * by + j, tx * bx + k);
    if (by == 2 && bx == 2) return (u8)((sum + 2) >> 2);
    return round_to_u8((float)sum * (1.0f / (float)(by * bx)));
}

}  // namespace cule
