// The collision latches: which pairs of objects covered one pixel.
#pragma once
#include "atari/tia_objects.h"
#include "atari/tia_playfield.h"

namespace cule {

// Collision latch bits for six object words (the pixels of a word they cover).
template <class Word>
CULE_HD u16 word_collisions(Word p0, Word m0, Word p1, Word m1, Word bl, Word pf) {
    u32 c = ((m0 & p1) ? 0x0001 : 0) | ((m0 & p0) ? 0x0002 : 0) | ((m1 & p0) ? 0x0004 : 0) |
            ((m1 & p1) ? 0x0008 : 0) | ((p0 & pf) ? 0x0010 : 0) | ((p0 & bl) ? 0x0020 : 0) |
            ((p1 & pf) ? 0x0040 : 0) | ((p1 & bl) ? 0x0080 : 0) | ((m0 & pf) ? 0x0100 : 0) |
            ((m0 & bl) ? 0x0200 : 0) | ((m1 & pf) ? 0x0400 : 0) | ((m1 & bl) ? 0x0800 : 0) |
            ((bl & pf) ? 0x1000 : 0) | ((p0 & p1) ? 0x2000 : 0) | ((m0 & m1) ? 0x4000 : 0);
    return (u16)c;
}

// ---- collisions alone ----------------------------------------------------------------------

// Objects are taken 64 pixels at a time, a window: bit i of an object's window is pixel h + i,
// and each copy is placed once. A frame not drawn latches its collisions from the windows alone;
// a drawn one also colours its pixels from them (draw_objects).

// The pixels of c in the window (W: 64 or 32 pixels) from pixel h: copy offsets taken round the
// line, so that a copy past the right edge wraps onto pixels 0 and on. Bits past the line's end
// are the caller's to clear.
template <class W = u64>
CULE_HD W copies_window(Copies c, i32 h) {
    constexpr i32 PIXELS = 8 * sizeof(W);
    i32 d0 = c.pos - h;
    if (d0 < 0) d0 += SCREEN_WIDTH;
    W bits = 0;
    for (i32 k = 0; k < 4; ++k) {
        if (!(k == 0 ? c.first : (c.more >> (k - 1)) & 1)) continue;
        i32 d = k == 0 ? d0 : d0 + (8 << k);
        if (d >= SCREEN_WIDTH) d -= SCREEN_WIDTH;
        if (d < PIXELS) bits |= (W)c.pattern << d;
        if (d > SCREEN_WIDTH - 32) bits |= (W)(c.pattern >> (SCREEN_WIDTH - d));
    }
    return bits;
}

// Whether any pixel of six object windows is covered by two of them: most windows have none, and
// then no latch (word_collisions).
template <class W>
CULE_HD bool covered_twice(W p0, W m0, W p1, W m1, W bl, W pf) {
    return ((p0 & (m0 | p1 | m1 | bl)) | (m0 & (p1 | m1 | bl)) | (p1 & (m1 | bl)) | (m1 & bl) |
            ((p0 | m0 | p1 | m1 | bl) & pf)) != 0;
}

// Latches the collisions of n pixels from hpos on the current line.
CULE_HD void latch_span_collisions(Tia& t, i32 hpos, i32 n) {
    const u32 e = t.enabled;
    for (i32 h = hpos; h < hpos + n; h += 64) {
        i32 len = hpos + n - h;
        u64 in = len >= 64 ? ~0ull : (1ull << len) - 1;
        u64 wp0 = (e & P0_BIT) ? copies_window(player_copies(t.mp0, t.cur_grp0), h) & in : 0;
        u64 wp1 = (e & P1_BIT) ? copies_window(player_copies(t.mp1, t.cur_grp1), h) & in : 0;
        u64 wm0 = (e & M0_BIT) ? copies_window(missile_copies(t.mm0), h) & in : 0;
        u64 wm1 = (e & M1_BIT) ? copies_window(missile_copies(t.mm1), h) & in : 0;
        u64 wbl = (e & BL_BIT) ? copies_window(ball_copies(t.mbl), h) & in : 0;
        if (!(wp0 | wm0 | wp1 | wm1 | wbl)) continue;   // the playfield collides with nothing here
        u64 wpf = (e & PF_BIT) ? playfield_window(t.pf, t.pf_reflect, h) & in : 0;
        if (covered_twice(wp0, wm0, wp1, wm1, wbl, wpf)) t.collision |= word_collisions(wp0, wm0, wp1, wm1, wbl, wpf);
    }
}

}  // namespace cule
