// Shrinking frames as OpenCV's resize with INTER_AREA does it (what ale-py's AtariVectorEnv and
// EnvPool use), for scales that are not whole numbers (210x160 to 84x84): every output pixel is
// the area-weighted mean of the source pixels its cell covers. The weights, the float sums in
// their order and the final rounding are OpenCV's, so the bytes come out equal. Float multiply
// and add must stay separate operations: the host build and NVRTC turn off their contraction
// into fused multiply-adds (-ffp-contract=off, --fmad=false).
#pragma once
#include "types.h"

namespace cule {

struct AreaWeight {
    i32 source, target;   // element offsets along the axis (pixel x channels)
    float alpha;
};

CULE_HD i32 floor_to_int(double x) { i32 i = (i32)x; return i - (i > x); }
CULE_HD i32 ceil_to_int(double x) { i32 i = (i32)x; return i + (i < x); }

// The weights for `source_size` pixels shrunk to `target_size`, `channels` elements per pixel:
// for each target pixel, the partly covered source pixel on its left, the fully covered ones,
// the partly covered one on its right. Returns how many; `out` needs 2 * source_size entries.
CULE_HD i32 area_weights(i32 source_size, i32 target_size, i32 channels, AreaWeight* out) {
    double scale = 1.0 / ((double)target_size / source_size);   // as OpenCV derives it
    i32 k = 0;
    for (i32 t = 0; t < target_size; ++t) {
        double from = t * scale, to = from + scale;
        double cell = scale < source_size - from ? scale : source_size - from;
        i32 first = ceil_to_int(from), last = floor_to_int(to);
        if (last > source_size - 1) last = source_size - 1;
        if (first > last) first = last;
        if (first - from > 1e-3) out[k++] = {(first - 1) * channels, t * channels, (float)((first - from) / cell)};
        for (i32 s = first; s < last; ++s) out[k++] = {s * channels, t * channels, (float)(1.0 / cell)};
        if (to - last > 1e-3) {
            double part = to - last < 1.0 ? to - last : 1.0;
            out[k++] = {last * channels, t * channels, (float)((part < cell ? part : cell) / cell)};
        }
    }
    return k;
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

// Shrinks `src` (rows of `src_row` elements) into `dst` (`dst_height` rows of `dst_row`
// elements) with the weights of area_weights along x (with channels) and y (without). `row`
// and `sum` are scratch space of dst_row floats each.
CULE_HD void area_resize(const u8* src, i32 src_row, u8* dst, i32 dst_row, const AreaWeight* xs, i32 nx,
                         const AreaWeight* ys, i32 ny, i32 channels, float* row, float* sum) {
    for (i32 d = 0; d < dst_row; ++d) sum[d] = 0.0f;
    i32 current = ys[0].target;
    for (i32 j = 0; j < ny; ++j) {
        const u8* s = src + (i64)ys[j].source * src_row;
        for (i32 d = 0; d < dst_row; ++d) row[d] = 0.0f;
        for (i32 k = 0; k < nx; ++k)
            for (i32 c = 0; c < channels; ++c) row[xs[k].target + c] += s[xs[k].source + c] * xs[k].alpha;
        float beta = ys[j].alpha;
        if (ys[j].target != current) {   // the previous output row is complete
            u8* out = dst + (i64)current * dst_row;
            for (i32 d = 0; d < dst_row; ++d) {
                out[d] = round_to_u8(sum[d]);
                sum[d] = beta * row[d];
            }
            current = ys[j].target;
        } else {
            for (i32 d = 0; d < dst_row; ++d) sum[d] += beta * row[d];
        }
    }
    u8* out = dst + (i64)current * dst_row;
    for (i32 d = 0; d < dst_row; ++d) out[d] = round_to_u8(sum[d]);
}

}  // namespace cule
