// Observations: an environment's current frame through the palette (RGB or grey), max-pooled
// with the frame before where asked, shrunk with OpenCV's INTER_AREA weights. observe_element
// computes one output byte: the GPU runs one thread each. The CPU computes full-size and
// area-shrunk frames a frame at a time, to the same bytes (bindings/vec_env.h's full_frame,
// bindings/frame_shrink.h), and whole scales byte by byte.
//
// The step that ends an episode shows what AtariVectorEnv's does: its frameskip loop stops at the
// frame that ends the episode before it captures the screen, so the newest observation is the
// last step's pooled frame again, or, where the episode ended on the step's last frame under
// max-pooling, that frame max-pooled with the step's next-to-last (observe_end_element).
#pragma once
#include "types.h"
#include "ale/ale.h"
#include "env/palette.h"
#include "env/resize.h"

namespace cule {

struct ObserveConfig {
    i32 height, width;   // at most the frame's size; smaller sizes use the axes' weights
    u8 grey;             // 1 channel, else 3 (RGB)
    const AreaAxis* ys;  // rows: the frame's height to height
    const AreaAxis* xs;  // columns: 160 to width
};

CULE_HD i32 observe_channels(const ObserveConfig& o) { return o.grey ? 1 : 3; }

// Where an env's newest observation comes from (the GPU's stacks, one byte per env): its frame
// buffers; on the step that ends its episode, its newest observation before the step again, or
// (ended on the step's last frame, max-pooled) observe_end_element.
enum : u8 { FROM_FRAMES = 0, END_REPEATED = 1, END_POOLED = 2 };

// Pixel (y, x) of an observation whose source pixels (source_height x SCREEN_WIDTH) `source(sy,
// sx)` gives: the pixel itself at full size, else OpenCV's INTER_AREA (whole scales: block sums).
template <class Source>
CULE_HD u8 resized_element(const Source& source, const ObserveConfig& o, i32 source_height, i32 y, i32 x) {
    if (o.height == source_height && o.width == SCREEN_WIDTH) return source(y, x);
    if (o.ys->block && o.xs->block) return block_pixel(source, o.ys->block, y, o.xs->block, x);
    return area_pixel(source, *o.ys, y, *o.xs, x);
}

// Channel c of pixel (y, x) of the observation of machine m, whose frame buffers are `screen`.
CULE_HD u8 observe_element(const Machine& m, const u8* screen, bool pool, const ObserveConfig& o, i32 y, i32 x,
                           i32 c) {
    const Tia& t = m.console.tia;
    const u8* frame = console_screen(m.console, screen);
    const u8* previous = console_previous_screen(m.console, screen);
    auto source = [&](i32 sy, i32 sx) {
        return observed_channel(frame, previous, pool, t.pal, o.grey, sy * SCREEN_WIDTH + sx, c);
    };
    return resized_element(source, o, t.height, y, x);
}

// Channel c of pixel (y, x) of the observation of a step whose episode ended on its last frame,
// under max-pooling: `held`, the last step's pooled frame before shrinking (the game's height x
// SCREEN_WIDTH x channels), max-pooled with `next_to_last`, this step's frame before its last
// (palette indices).
CULE_HD u8 observe_end_element(const u8* held, const u8* next_to_last, bool pal, const ObserveConfig& o,
                               i32 source_height, i32 y, i32 x, i32 c) {
    const i32 channels = observe_channels(o);
    auto source = [&](i32 sy, i32 sx) {
        const i32 p = sy * SCREEN_WIDTH + sx;
        const u8 v = held[p * channels + c], w = palette_channel(next_to_last[p], pal, o.grey, c);
        return v > w ? v : w;
    };
    return resized_element(source, o, source_height, y, x);
}

}  // namespace cule
