// Drawing as the beam moves: spans of a line up to each access, the line's end, the frame's
// start and end.
#pragma once
#include "atari/tia_collisions.h"

namespace cule {

// ---- spans and lines -----------------------------------------------------------------------

// Stella draws the common object combinations with special loops that step four pixels at a
// time from aligned positions while the objects' masks are empty. Within a span they give the
// same pixels as the general rule, but a four-pixel step may run past the span's end; those
// pixels stay written unless a later span of the frame covers them. This tells, for the
// combination e, which objects' masks the four-pixel step tests (bit 31: it always steps).
CULE_HD u32 four_pixel_step_masks(u32 e) {
    u32 objects = e & 0x3F, score = e & SCORE_BIT;
    switch (objects) {
        case PF_BIT: return 0x80000000u;
        case P0_BIT: case P1_BIT: case M0_BIT: case M1_BIT: case BL_BIT:
        case P0_BIT | P1_BIT: case M0_BIT | M1_BIT:
        case BL_BIT | M0_BIT: case BL_BIT | M1_BIT: case BL_BIT | P1_BIT:
            return objects;
        case PF_BIT | P0_BIT: return score ? 0 : P0_BIT;
        case PF_BIT | P1_BIT: return score ? 0 : P1_BIT;
        case PF_BIT | BL_BIT: return score ? 0 : BL_BIT;
        default: return 0;
    }
}

CULE_HD bool masks_empty(const Tia& t, u32 objects, i32 hpos) {
    for (i32 x = hpos; x < hpos + 4; ++x) {
        if ((objects & P0_BIT) && player_mask(t.mp0, x)) return false;
        if ((objects & P1_BIT) && player_mask(t.mp1, x)) return false;
        if ((objects & M0_BIT) && missile_mask(t.mm0, x)) return false;
        if ((objects & M1_BIT) && missile_mask(t.mm1, x)) return false;
        if ((objects & BL_BIT) && ball_mask(t.mbl, x)) return false;
    }
    return true;
}

CULE_HD void fill(const Tia& t, u8* fb, i32 pos, i32 n, u8 value) {
    if (pos + n > frame_pixels(t)) n = frame_pixels(t) - pos;   // rows past the screen are never shown
    fill_bytes(fb + pos, n, value);
}

// The colour of a pixel drawn by a four-pixel step (playfield or background).
CULE_HD u8 four_pixel_step_colour(const Tia& t, u32 e, i32 hpos) {
    if (!(e & PF_BIT) || !(t.pf & playfield_mask(hpos, t.pf_reflect))) return t.color[BK_COLOR];
    if ((e & 0x3F) == PF_BIT && (e & SCORE_BIT)) return t.color[hpos < 80 ? P0_COLOR : P1_COLOR];
    return t.color[PF_COLOR];
}

// 0xFF in byte k for each bit k < 8 of `bits`: eight pixels of a bitmap as a byte mask (byte k
// is pixel k in memory: x86 and NVIDIA GPUs are little-endian). The host looks them up, 2 KB
// (v5 Pong: 9K fewer instructions a frame than the arithmetic); a GPU warp's lanes would read a
// table at as many addresses.
CULE_HD constexpr u64 byte_mask_of(u32 bits) {
    const u64 x = ((u64)(bits & 0xFF) * 0x0101010101010101ull) & 0x8040201008040201ull;
    return (((x + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull) * 0xFF;
}
#ifndef __CUDA_ARCH__
struct ByteMasks {
    u64 of[256];
    constexpr ByteMasks() : of() {
        for (u32 b = 0; b < 256; ++b) of[b] = byte_mask_of(b);
    }
};
inline constexpr ByteMasks BYTE_MASKS;
#endif
CULE_HD u64 byte_mask(u32 bits) {
#ifdef __CUDA_ARCH__
    return byte_mask_of(bits);
#else
    return BYTE_MASKS.of[bits & 0xFF];
#endif
}

CULE_HD u64 byte_broadcast(u8 v) { return v * 0x0101010101010101ull; }

// Windows without players or missiles drawn by a loop of their own on the host, one byte mask a group
// where the general loop takes three (v5, callgrind, 8 envs, 2-core AMD EPYC, 2026-12-07: Ms.
// Pac-Man 462.1K host instructions a frame to 448.9K, Q*bert 585.7K to 574.7K, Pong and Space
// Invaders 0.4K more, Breakout as before; the choice inside the one loop cost Breakout 3.6K, one
// template for both loops 6.4K). The GPU keeps one loop: a warp's lanes would part at the choice,
// which no model has weighed.
#ifdef __CUDA_ARCH__
constexpr bool PLAYERLESS_WINDOWS_APART = false;
#else
constexpr bool PLAYERLESS_WINDOWS_APART = true;
#endif

// A drawn span's window of pixels: 64 on the host; 32 on a GPU, whose registers are 32 bits wide
// (NVRTC, sm_90, Pong's module: cule_render takes 62 registers with 64-pixel windows, 56 with 32).
#ifdef __CUDA_ARCH__
using DrawWindow = u32;
#else
using DrawWindow = u64;
#endif
constexpr i32 DRAW_WINDOW_PIXELS = 8 * sizeof(DrawWindow);

// The bits of the window from pixel h that lie in pixels [from, to).
template <class W>
CULE_HD W window_bits(i32 h, i32 from, i32 to) {
    constexpr i32 PIXELS = 8 * sizeof(W);
    i32 lo = from - h, hi = to - h;
    if (lo < 0) lo = 0;
    if (hi > PIXELS) hi = PIXELS;
    if (hi <= lo) return 0;
    const W upper = hi == PIXELS ? ~(W)0 : ((W)1 << hi) - 1;
    return upper & ~(((W)1 << lo) - 1);
}

// draw_span's pixels where objects show: from frame position `pos`, n pixels from hpos. Each
// object's pixels are built a window at a time, each copy placed once (tia_collisions.h's windows,
// as the frames not drawn latch their collisions), and which colour register each pixel shows is
// decided for the window at once, as three bitmaps (Tia::color slots 1..3; slot 0, the background,
// where none is set), then written 8 pixels at a time.
CULE_HOST_NOINLINE void draw_objects(Tia& t, u8* fb, i32 pos, i32 hpos, i32 n) {
    u32 e0 = t.enabled | t.prio_score;
    // The playfield-only loop uses score colours even under priority, unlike the general rule.
    bool score_only_pf = (e0 & 0x3F) == PF_BIT && (e0 & SCORE_BIT);
    // Score colours also apply under priority when the playfield is the only object (Stella's
    // playfield-only loop).
    const bool priority = (t.prio_score & PRIORITY_BIT) && !score_only_pf;
    const bool score = (t.prio_score & SCORE_BIT) && !priority;
    u8* line = fb + pos - hpos;   // the line's first pixel: lines start 8-byte aligned
    const i32 end = hpos + n;
    // rows past the screen are never shown
    const i32 shown_end = pos + n > frame_pixels(t) ? frame_pixels(t) - pos + hpos : end;
    using W = DrawWindow;
    for (i32 h = hpos & ~7; h < end; h += DRAW_WINDOW_PIXELS) {   // windows from 8-pixel groups of the line
        const W in = window_bits<W>(h, hpos, end);
        const W wp0 = (e0 & P0_BIT) ? copies_window<W>(player_copies(t.mp0, t.cur_grp0), h) & in : 0;
        const W wp1 = (e0 & P1_BIT) ? copies_window<W>(player_copies(t.mp1, t.cur_grp1), h) & in : 0;
        const W wm0 = (e0 & M0_BIT) ? copies_window<W>(missile_copies(t.mm0), h) & in : 0;
        const W wm1 = (e0 & M1_BIT) ? copies_window<W>(missile_copies(t.mm1), h) & in : 0;
        const W wbl = (e0 & BL_BIT) ? copies_window<W>(ball_copies(t.mbl), h) & in : 0;
        const W wpf = (e0 & PF_BIT) ? playfield_window<W>(t.pf, t.pf_reflect, h) & in : 0;
        if (covered_twice(wp0, wm0, wp1, wm1, wbl, wpf)) t.collision |= word_collisions(wp0, wm0, wp1, wm1, wbl, wpf);
        // The span's pixels but rows past the screen (most spans have none).
        const W shown = shown_end == end ? in : window_bits<W>(h, hpos, shown_end);
        if (!shown) continue;
        // Stella's rule: P0/M0 over P1/M1 over PF/BL over the background; under priority PF/BL
        // first; in score mode the playfield takes P0's colour on the left, P1's on the right.
        const W p = wp0 | wm0, q = wp1 | wm1;
        W c1, c2, c3;
        if (priority) {
            c1 = wbl | wpf;
            c2 = p & ~c1;
            c3 = q & ~p & ~c1;
        } else if (score) {
            const W left = window_bits<W>(h, 0, 80);
            c2 = p | (wpf & left);
            c3 = (q | (wpf & ~left)) & ~c2;
            c1 = wbl & ~wpf & ~(p | q);
        } else {
            c2 = p;
            c3 = q & ~p;
            c1 = (wbl | wpf) & ~(p | q);
        }
        c1 &= shown;
        c2 &= shown;
        c3 &= shown;
        auto whole = [&](W c) { return c == 0 || c == shown; };
        if (whole(c1) && whole(c2) && whole(c3)) {   // one colour: background, a wall, a wide object
            const i32 from = h > hpos ? h : hpos, window_end = h + DRAW_WINDOW_PIXELS;
            const i32 to = window_end < shown_end ? window_end : shown_end;
            fill_bytes(line + from, to - from, t.color[c1 ? PF_COLOR : c2 ? P0_COLOR : c3 ? P1_COLOR : BK_COLOR]);
            continue;
        }
        // Eight pixels at a time, each bitmap byte widened to a byte mask; the pixels of a group
        // outside the span keep what they hold.
        const u64 c0 = byte_broadcast(t.color[BK_COLOR]), d1 = byte_broadcast(t.color[PF_COLOR]) ^ c0,
                  d2 = byte_broadcast(t.color[P0_COLOR]) ^ c0, d3 = byte_broadcast(t.color[P1_COLOR]) ^ c0;
        if (PLAYERLESS_WINDOWS_APART && !(c2 | c3)) {   // no player nor missile: a maze, a wall, bricks
            for (i32 g = 0; g < DRAW_WINDOW_PIXELS && h + g < shown_end; g += 8) {
                const u64 keep = byte_mask((u32)(shown >> g));
                if (!keep) continue;
                u64 px = c0 ^ (byte_mask((u32)(c1 >> g)) & d1);
                if (~keep) px = (px & keep) | (load_word(line + h + g) & ~keep);
                store_word(line + h + g, px);
            }
            continue;
        }
        for (i32 g = 0; g < DRAW_WINDOW_PIXELS && h + g < shown_end; g += 8) {
            const u64 keep = byte_mask((u32)(shown >> g));
            if (!keep) continue;
            u64 px = c0 ^ (byte_mask((u32)(c1 >> g)) & d1) ^ (byte_mask((u32)(c2 >> g)) & d2) ^
                     (byte_mask((u32)(c3 >> g)) & d3);
            if (~keep) px = (px & keep) | (load_word(line + h + g) & ~keep);
            store_word(line + h + g, px);
        }
    }
    const i32 last_step = end & ~3;
    if ((end & 3) && last_step >= hpos) {
        u32 step = four_pixel_step_masks(e0);
        if (step && ((step & 0x80000000u) || masks_empty(t, step, last_step))) {
            u8 c = four_pixel_step_colour(t, e0, last_step);
            fill(t, fb, pos + n, last_step + 4 - end, c);
        }
    }
}

// Draws n pixels from hpos on the current line and latches their collisions. The blank and the
// background alone, most spans (Pong's: 70%), inline where the line is drawn; spans with objects in
// a call (draw_objects).
template <bool DRAW>
CULE_INLINE void draw_span(Tia& t, u8* fb, i32 hpos, i32 n) {
    i32 pos = t.frame_pos;
    t.frame_pos += n;
    if (DRAW) CULE_TRACE_EVENT(SPAN, (t.vblank & 0x02) ? trace::SPAN_BLANK : (t.enabled & 0x3F) ? trace::SPAN_OBJECTS
                                                                                 : trace::SPAN_BACKGROUND, n, pos);
    if (t.vblank & 0x02) {
        if (DRAW) fill(t, fb, pos, n, 0);
        return;
    }
    const u32 objects = t.enabled & 0x3F;
    if (DRAW && !objects) {   // the background alone
        fill(t, fb, pos, n, t.color[BK_COLOR]);
        return;
    }
    if (!DRAW) {   // only collisions to latch: none without two objects, nor where every pair
                   // that could collide already has
        if (!(objects & (objects - 1))) return;
        // The latches that involve each object (see word_collisions), dropped for those absent.
        auto absent = [&](u32 bit, u32 latches) { return (t.enabled & bit) ? 0u : latches; };
        u16 possible = 0x7FFF & ~(absent(P0_BIT, 0x2036) | absent(M0_BIT, 0x4303) | absent(P1_BIT, 0x20C9) |
                                  absent(M1_BIT, 0x4C0C) | absent(BL_BIT, 0x1AA0) | absent(PF_BIT, 0x1550));
        if ((t.collision & possible) != possible) latch_span_collisions(t, hpos, n);
        return;
    }
    draw_objects(t, fb, pos, hpos, n);
}

// End of a scanline: the player masks lose their RESPx state, the playfield latches its
// reflection, and the Cosmic Ark missile trick moves missile 0.
CULE_HD void end_of_line(Tia& t) {
    t.pf_reflect = t.ctrlpf & 1;
    set_mask(t.mp0, player_object(t.posp0, t.nusiz0, 0));
    set_mask(t.mp1, player_object(t.posp1, t.nusiz1, 0));
    if (t.m0_ark) {
        t.m0_ark_counter = (t.m0_ark_counter + 1) & 3;
        // Byte k of the constant: the step for counter k (18, 33, 0, 17 pixels left). Packed, not
        // a CULE_CONST table: the table costs cule_step_logged two registers (108 -> 110, sm_90).
        t.posm0 = wrap_position(t.posm0 - (i32)((0x11002112u >> (8 * t.m0_ark_counter)) & 0xFF));
        t.mm0 = cosmic_ark_missile(t.posm0, t.nusiz0, t.m0_ark_counter);
    }
}

// tia_update_to's drawing, where the display has begun and is not drawn up to `clock` yet.
template <bool DRAW>
CULE_INLINE void draw_lines(Tia& t, u8* fb, i32 clock) {
    if (clock > t.clock_stop_display) clock = t.clock_stop_display;
    do {
        i32 n, from = CLOCKS_PER_LINE - t.clocks_to_end_of_line;
        if (clock > t.clock_last_update + t.clocks_to_end_of_line) {
            n = t.clocks_to_end_of_line;
            t.clocks_to_end_of_line = CLOCKS_PER_LINE;
            t.clock_last_update += n;
        } else {
            n = clock - t.clock_last_update;
            t.clocks_to_end_of_line -= n;
            t.clock_last_update = clock;
        }
        if (from < HBLANK) {
            i32 skip = HBLANK - from < n ? HBLANK - from : n;
            from += skip;
            n -= skip;
        }
        i32 line_pos = t.frame_pos;
        if (n) draw_span<DRAW>(t, fb, from - HBLANK, n);
        // HMOVE blanks the line's first 8 pixels; Stella clears from the span's start to clock
        // 76 even when the span ends in HBLANK, and later spans redraw what lies beyond.
        if (t.hmove_blank && from < HBLANK + 8) {
            if (DRAW) {
                CULE_TRACE_EVENT(SPAN, trace::SPAN_HMOVE_BLANK, HBLANK + 8 - from, line_pos);
                fill(t, fb, line_pos, HBLANK + 8 - from, 0);
            }
            if (n + from >= HBLANK + 8) t.hmove_blank = 0;
        }
        if (t.clocks_to_end_of_line == CLOCKS_PER_LINE) end_of_line(t);
    } while (t.clock_last_update < clock);
}

template <bool DRAW>
CULE_NOINLINE void tia_draw_lines(Tia& t, u8* fb, i32 clock) {
    draw_lines<DRAW>(t, fb, clock);
}

// Draws everything up to colour clock `clock` (relative to the frame's cycle counter x3). Most
// writes find nothing to draw (outside the display, or drawn up to already): the test is inlined
// at each call, the drawing a call, but where the caller is itself the call (INLINE: the host's
// bus_poke_drawn, which then saves its registers once; v5 Seaquest, about 770 drawing writes a
// frame: 8K host instructions a frame fewer).
template <bool DRAW, bool INLINE = false>
CULE_INLINE void tia_update_to(Tia& t, u8* fb, i32 clock) {
    if (clock >= t.clock_start_display && t.clock_last_update < t.clock_stop_display && t.clock_last_update < clock) {
        if (INLINE) draw_lines<DRAW>(t, fb, clock);
        else tia_draw_lines<DRAW>(t, fb, clock);
    }
}

// Draws up to the last write whose drawing tia_poke deferred: a frame cut short shows the
// pixels Stella had drawn when it stopped.
template <bool DRAW>
CULE_HD void tia_draw_deferred(Tia& t, u8* fb) {
    tia_update_to<DRAW>(t, fb, t.clock_deferred_update);
}

// Colour clocks from `stamp` to `clock`, wrapping around as the stamps do (tia_rebase_cycles).
CULE_HD i32 clocks_since(i32 stamp, i32 clock) { return (i32)((u32)clock - (u32)stamp); }

CULE_HD i32 clocks_into_line(const Tia& t, i32 clock) {
    return (i32)(((u32)clock - (u32)t.clock_frame_start) % CLOCKS_PER_LINE);   // never negative
}

// ---- reset and frames ----------------------------------------------------------------------

CULE_HD void tia_reset(Tia& t, u8* fb_front, u8* fb_back, u32 cycles, const Display& d) {
    u8 partial = t.partial_frame, front = t.front, greyed = t.frame_greyed, written = t.audio_written;
    u8 audio[AUDIO_REGISTERS];
    for (i32 r = 0; r < AUDIO_REGISTERS; ++r) audio[r] = t.audio[r];
    u8* bytes = (u8*)&t;
    for (u32 i = 0; i < sizeof(Tia); ++i) bytes[i] = 0;
    t.partial_frame = partial;   // survives a reset, like the frame buffers' roles
    t.front = front;
    t.frame_greyed = greyed;
    for (i32 r = 0; r < AUDIO_REGISTERS; ++r) t.audio[r] = audio[r];   // ALE's sound keeps its queue
    t.audio_written = written;
    t.allow_hmove_blank = d.hmove_blanks;
    t.ystart = d.ystart;
    t.height = d.height;
    t.pal = d.pal;
    for (i32 i = 0; i < frame_pixels(t); ++i) fb_front[i] = fb_back[i] = 0;
    t.clock_frame_start = (i32)(cycles * 3);
    t.clock_start_display = t.clock_frame_start + CLOCKS_PER_LINE * t.ystart;
    t.clock_stop_display = t.clock_start_display + CLOCKS_PER_LINE * t.height;
    t.clock_last_update = t.clock_frame_start;
    t.clocks_to_end_of_line = CLOCKS_PER_LINE;
    t.vsync_finish_clock = 0x7FFFFFFF;
}

// The frame's cycle counter restarts at 0: shift every stamp by the same amount.
// Stamps wrap around (u32), as Stella's do in practice: one not renewed for 2^31 clocks (a game
// that never writes HMOVE or VSYNC) must not overflow an i32.
CULE_HD void tia_rebase_cycles(Tia& t, u32 cycles) {
    const u32 clocks = cycles * 3;
    auto rebase = [](i32& stamp, u32 by) { stamp = (i32)((u32)stamp - by); };
    rebase(t.dump_disabled_cycle, cycles);
    rebase(t.clock_frame_start, clocks);
    rebase(t.clock_start_display, clocks);
    rebase(t.clock_stop_display, clocks);
    rebase(t.clock_last_update, clocks);
    rebase(t.vsync_finish_clock, clocks);
    rebase(t.last_hmove_clock, clocks);
    rebase(t.clock_deferred_update, clocks);
}

// A new frame starts at the beginning of the line in which the last one ended. Returns the
// colour clocks already into that line; the caller rebases the cycle counter to 0 first.
CULE_HD u32 tia_clocks_into_frame_line(const Tia& t, u32 cycles) {
    return (cycles * 3 - (u32)t.clock_frame_start) % CLOCKS_PER_LINE;
}

CULE_HD void tia_start_frame(Tia& t, u32 clocks_into_line) {
    t.front ^= 1;
    t.clock_frame_start = -(i32)clocks_into_line;
    t.clock_start_display = t.clock_frame_start + CLOCKS_PER_LINE * t.ystart;
    t.clock_stop_display = t.clock_start_display + CLOCKS_PER_LINE * t.height;
    t.clock_last_update = t.clock_start_display;
    t.clock_deferred_update = t.clock_frame_start;   // within the frame, as defer_drawing compares
    t.clocks_to_end_of_line = CLOCKS_PER_LINE;
    t.frame_pos = 0;
    t.frame_greyed = 0;
    for (u8& c : t.color) c = colour_with_loss(t, c);
}

CULE_HD i32 tia_scanline(const Tia& t, u32 cycles) {
    return (i32)((cycles * 3 - (u32)t.clock_frame_start) / CLOCKS_PER_LINE);
}

// A frame cut short by the instruction cap: the rows not reached yet are dimmed.
CULE_HD void tia_grey_out(const Tia& t, u8* fb, u32 cycles) {
    i32 line = tia_scanline(t, cycles);
    if (line < t.ystart) line = t.ystart;
    for (i32 row = line - t.ystart; row < t.height; ++row)
        for (i32 x = 0; x < SCREEN_WIDTH; ++x) fb[row * SCREEN_WIDTH + x] = (fb[row * SCREEN_WIDTH + x] & 0x0F) >> 1;
}

}  // namespace cule
