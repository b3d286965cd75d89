// Observations: an environment's current frame through the palette (RGB or grey), max-pooled
// with the frame before where asked, shrunk with OpenCV's INTER_AREA weights. observe_element
// computes one output byte: the GPU runs one thread each. The CPU computes full-size and
// area-shrunk frames a frame at a time, to the same bytes (bindings/vec_env.h's full_frame,
// bindings/frame_shrink.h), and whole scales byte by byte.
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

// Channel c of pixel (y, x) of the observation of machine m, whose frame buffers are `screen`.
CULE_HD u8 observe_element(const Machine& m, const u8* screen, bool pool, const ObserveConfig& o, i32 y, i32 x,
                           i32 c) {
    const Tia& t = m.console.tia;
    const u8* frame = console_screen(m.console, screen);
    const u8* previous = console_previous_screen(m.console, screen);
    auto source = [&](i32 sy, i32 sx) {
        return observed_channel(frame, previous, pool, t.pal, o.grey, sy * SCREEN_WIDTH + sx, c);
    };
    if (o.height == t.height && o.width == SCREEN_WIDTH) return source(y, x);
    if (o.ys->block && o.xs->block) return block_pixel(source, o.ys->block, y, o.xs->block, x);
    return area_pixel(source, *o.ys, y, *o.xs, x);
}

}  // namespace cule
