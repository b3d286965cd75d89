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

// A frame not drawn needs only the collision latches. A span is then taken 64 pixels at a time,
// a window: bit i of an object's word is pixel h + i, and each copy is placed once, where
// drawing builds each 32-pixel word copy by copy. This halves the instructions collisions cost
// in Space Invaders' undrawn frames (docs/results.md).

// The pixels of c in the window from pixel h: copy offsets taken round the line, so that a copy
// past the right edge wraps onto pixels 0 and on. Bits past the line's end are the caller's to
// clear.
CULE_HD u64 copies_window(Copies c, i32 h) {
    i32 d0 = c.pos - h;
    if (d0 < 0) d0 += SCREEN_WIDTH;
    u64 bits = 0;
    for (i32 k = 0; k < 4; ++k) {
        if (!(k == 0 ? c.first : (c.more >> (k - 1)) & 1)) continue;
        i32 d = k == 0 ? d0 : d0 + (8 << k);
        if (d >= SCREEN_WIDTH) d -= SCREEN_WIDTH;
        if (d < 64) bits |= (u64)c.pattern << d;
        if (d > SCREEN_WIDTH - 32) bits |= (u64)(c.pattern >> (SCREEN_WIDTH - d));
    }
    return bits;
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
        u64 narrow = wp0 | wm0 | wp1 | wm1 | wbl;
        if (!narrow) continue;   // the playfield collides with nothing here
        u64 wpf = (e & PF_BIT) ? playfield_window(t.pf, t.pf_reflect, h) & in : 0;
        // Pixels two objects cover: none on most spans.
        u64 twice = (wp0 & (wm0 | wp1 | wm1 | wbl)) | (wm0 & (wp1 | wm1 | wbl)) | (wp1 & (wm1 | wbl)) |
                    (wm1 & wbl) | (narrow & wpf);
        if (twice) t.collision |= word_collisions(wp0, wm0, wp1, wm1, wbl, wpf);
    }
}

}  // namespace cule
