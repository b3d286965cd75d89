// Players, missiles and the ball: the pixels each covers on a line (one at a time, the
// definition, and as copies of a pattern, which tia_collisions.h places a window of pixels at a
// time), and how the registers move them.
#pragma once
#include "atari/tia_state.h"

namespace cule {

// ---- pixel by pixel ------------------------------------------------------------------------

// Copies drawn by NUSIZ modes 0..7 besides the first: bit 0 at +16, bit 1 at +32, bit 2 at +64.
CULE_HD u32 nusiz_copies(u32 mode) { return (0x06043210u >> (mode * 4)) & 0x7; }

// A position moved off either edge of the line, back onto it (the TIA's wrap-around).
CULE_HD i16 wrap_position(i32 p) {
    if (p >= SCREEN_WIDTH) p -= SCREEN_WIDTH;
    else if (p < 0) p += SCREEN_WIDTH;
    return (i16)p;
}

// A player's width in pixels: NUSIZ modes 5 and 7 stretch it two and four times.
CULE_HD i32 player_width(u32 mode) { return mode == 5 ? 16 : mode == 7 ? 32 : 8; }

CULE_HD i32 distance_from(i32 pos, i32 hpos) {
    i32 d = hpos - pos;
    return d < 0 ? d + SCREEN_WIDTH : d;
}

// The graphics bit (0x80 >> k) a player shows at hpos, or 0.
CULE_HD u8 player_mask(ObjectMask m, i32 hpos) {
    i32 d = distance_from(m.pos, hpos);
    u32 mode = m.shape & 7;
    bool first = !(m.shape & SKIP_FIRST);
    if (mode == 5) return (first && d > 0 && d <= 16) ? (u8)(0x80 >> ((d - 1) >> 1)) : 0;
    if (mode == 7) return (first && d > 0 && d <= 32) ? (u8)(0x80 >> ((d - 1) >> 2)) : 0;
    if (d < 8) return first ? (u8)(0x80 >> d) : 0;
    u32 copies = nusiz_copies(mode);
    if ((copies & 1) && d >= 16 && d < 24) return (u8)(0x80 >> (d - 16));
    if ((copies & 2) && d >= 32 && d < 40) return (u8)(0x80 >> (d - 32));
    if ((copies & 4) && d >= 64 && d < 72) return (u8)(0x80 >> (d - 64));
    return 0;
}

CULE_HD bool missile_mask(ObjectMask m, i32 hpos) {
    if (m.shape & HIDDEN) return false;
    i32 d = distance_from(m.pos, hpos);
    i32 width = 1 << ((m.shape >> 3) & 3);
    if (d < width) return true;
    u32 copies = nusiz_copies(m.shape & 7);
    return ((copies & 1) && d >= 16 && d < 16 + width) || ((copies & 2) && d >= 32 && d < 32 + width) ||
           ((copies & 4) && d >= 64 && d < 64 + width);
}

CULE_HD bool ball_mask(ObjectMask m, i32 hpos) {
    return distance_from(m.pos, hpos) < (1 << (m.shape & 3));
}

CULE_HD ObjectMask player_object(i16 pos, u8 nusiz, u8 skip_first) {
    ObjectMask m = {pos, (u8)((nusiz & 7) | skip_first)};
    return m;
}
CULE_HD ObjectMask missile_object(i16 pos, u8 nusiz) {
    ObjectMask m = {pos, (u8)((nusiz & 7) | ((nusiz & 0x30) >> 1))};
    return m;
}
CULE_HD ObjectMask ball_object(i16 pos, u8 ctrlpf) {
    ObjectMask m = {pos, (u8)((ctrlpf & 0x30) >> 4)};
    return m;
}

// A mask's fields, its padding left zero: g++ builds a whole mask's four bytes in a register to
// store them (v5, HMOVE's and each line's masks: Seaquest 5.7K, Pong 2.3K host instructions a
// frame more).
CULE_HD void set_mask(ObjectMask& to, ObjectMask m) {
    to.pos = m.pos;
    to.shape = m.shape;
}

// Missile 0 while the Cosmic Ark trick runs (Stella's rule): one size up, at least two pixels
// wide, on the lines where the counter is 1; hidden where it is 2.
CULE_HD ObjectMask cosmic_ark_missile(i16 pos, u8 nusiz, u8 counter) {
    ObjectMask m = missile_object(pos, nusiz);
    if (counter == 1) m.shape |= 1 << 3;
    else if (counter == 2) m.shape |= HIDDEN;
    return m;
}

// Every object's mask from its position and size, as a line starts: the players show their first
// copy again, missile 0 follows the Cosmic Ark trick while it runs. For the writes that move
// objects all at once (HMOVE) and for states that do not keep masks (an ale-py state).
CULE_HD void tia_rebuild_masks(Tia& t) {
    set_mask(t.mp0, player_object(t.posp0, t.nusiz0, 0));
    set_mask(t.mp1, player_object(t.posp1, t.nusiz1, 0));
    set_mask(t.mm0, t.m0_ark ? cosmic_ark_missile(t.posm0, t.nusiz0, t.m0_ark_counter) : missile_object(t.posm0, t.nusiz0));
    set_mask(t.mm1, missile_object(t.posm1, t.nusiz1));
    set_mask(t.mbl, ball_object(t.posbl, t.ctrlpf));
}

// An object on a line as copies of one pattern (bit k: pixel start+k): the first at `pos`
// unless skipped, others 16, 32 or 64 pixels on (bits 0..2 of `more`), wrapping round the line.
struct Copies {
    u32 pattern;
    i32 pos;
    u32 more;
    bool first;
};

// Graphics in pixel order (bit k: pixel k), each bit `scale` pixels wide.
CULE_HD u32 stretched_graphics(u8 grp, i32 scale) {
    u8 g = reverse_bits(grp);
    u32 one = (1u << scale) - 1, out = 0;
    for (i32 b = 0; b < 8; ++b)
        if (g & (1u << b)) out |= one << (b * scale);
    return out;
}

CULE_HD Copies player_copies(ObjectMask m, u8 grp) {
    u32 mode = m.shape & 7;
    bool first = !(m.shape & SKIP_FIRST);
    if (mode == 5 || mode == 7)   // double and quad width: one copy, one pixel late
        return {stretched_graphics(grp, mode == 5 ? 2 : 4), (m.pos + 1) % SCREEN_WIDTH, 0, first};
    return {reverse_bits(grp), m.pos, nusiz_copies(mode), first};
}

CULE_HD Copies missile_copies(ObjectMask m) {
    u32 pattern = (m.shape & HIDDEN) ? 0 : (1u << (1 << ((m.shape >> 3) & 3))) - 1;
    return {pattern, m.pos, nusiz_copies(m.shape & 7), true};
}

CULE_HD Copies ball_copies(ObjectMask m) { return {(1u << (1 << (m.shape & 3))) - 1, m.pos, 0, true}; }

// ---- motion, graphics and enables ----------------------------------------------------------

// Stella's HMOVE motion: for HMOVE at CPU cycle x of the line, an object with HMxx = hm moves by
// 8 - min(pulses, limit) pixels if the HMOVE extends HBLANK (early), else -max(0, pulses - limit),
// with pulses = hm ^ 8. Both forms and the limits per cycle summarise Stella's measured table.
CULE_CONST const u8 HMOVE_LIMIT[76] = {
    15, 15, 15, 15, 14, 13, 13, 12, 11, 10, 10, 9, 8, 7, 7, 6, 5, 4, 4, 3, 2,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    14, 13, 12, 12, 11, 10, 9, 9, 8, 7, 6, 6, 5, 4, 3, 3, 2, 1, 0, 0, 15};
CULE_HD constexpr bool hmove_is_early(i32 x) { return x <= 20 || x == 75; }
CULE_HD constexpr i32 hmove_motion_of(i32 x, u32 hm, i32 limit) {
    const i32 pulses = (i32)(hm ^ 8);
    if (hmove_is_early(x)) return 8 - (pulses < limit ? pulses : limit);
    return pulses > limit ? limit - pulses : 0;
}
// The host looks an HMOVE's motions up in a row of a 1.2 KB table (v5 Seaquest, an HMOVE a line:
// 6K host instructions a frame fewer than the arithmetic); a GPU warp's lanes would read the
// table at as many addresses.
#ifndef __CUDA_ARCH__
struct HmoveMotionTable {
    i8 of[76][16];
    constexpr HmoveMotionTable() : of() {
        for (i32 x = 0; x < 76; ++x)
            for (u32 hm = 0; hm < 16; ++hm) of[x][hm] = (i8)hmove_motion_of(x, hm, HMOVE_LIMIT[x]);
    }
};
inline constexpr HmoveMotionTable HMOVE_MOTION_TABLE;
#endif
// Whether an HMOVE that moves nothing skips its sums and, where they stand, the masks (hmove):
// the host's alone (v5 Seaquest, by callgrind: 5.8K and 4.9K host instructions a frame fewer); a
// GPU warp's lanes would part there, which no model has weighed, so the kernels keep one path.
#ifdef __CUDA_ARCH__
constexpr bool STILL_HMOVES_SKIPPED = false;
#else
constexpr bool STILL_HMOVES_SKIPPED = true;
#endif
// The motions of an HMOVE at CPU cycle x, by HMxx value.
struct HmoveMotions {
#ifdef __CUDA_ARCH__
    i32 x, limit;
    CULE_HD i32 operator()(u8 hm) const { return hmove_motion_of(x, hm, limit); }
#else
    const i8* of;
    i32 operator()(u8 hm) const { return of[hm & 15]; }
#endif
};
CULE_HD HmoveMotions hmove_motions(i32 x) {
#ifdef __CUDA_ARCH__
    return {x, HMOVE_LIMIT[x]};
#else
    return {HMOVE_MOTION_TABLE.of[x]};
#endif
}

CULE_HD void update_player_graphics(Tia& t) {
    u8 g0 = t.vdelp0 ? t.dgrp0 : t.grp0, g1 = t.vdelp1 ? t.dgrp1 : t.grp1;
    t.cur_grp0 = t.refp0 ? reverse_bits(g0) : g0;
    t.cur_grp1 = t.refp1 ? reverse_bits(g1) : g1;
    t.enabled = (t.enabled & ~(P0_BIT | P1_BIT)) | (t.cur_grp0 ? P0_BIT : 0) | (t.cur_grp1 ? P1_BIT : 0);
}
CULE_HD void update_ball_enable(Tia& t) {
    bool on = t.vdelbl ? t.denabl : t.enabl;
    t.enabled = on ? (t.enabled | BL_BIT) : (t.enabled & ~BL_BIT);
}
CULE_HD void update_missile_enables(Tia& t) {
    t.enabled = (t.enabled & ~(M0_BIT | M1_BIT)) | (t.enam0 && !t.resmp0 ? M0_BIT : 0) |
                (t.enam1 && !t.resmp1 ? M1_BIT : 0);
}

// Where RESxx at colour clock hpos of the line puts an object: `late` pixels after the beam
// (players 5, missiles and the ball 4), or, written during HBLANK, 2 pixels short of that past
// the left edge (Stella's 3 and 2).
CULE_HD i16 reset_position(i32 hpos, i32 late) {
    return hpos < HBLANK ? (i16)(late - 2) : wrap_position(hpos - HBLANK + late);
}

// RESPx: where in the old copies the new position falls decides whether the copy being drawn
// finishes first (+1), the first copy of the line is suppressed (0, +1) or shown (-1).
CULE_HD i32 player_reset_when(u32 mode, i32 oldx, i32 newx) {
    u32 copies = nusiz_copies(mode);
    i32 width = player_width(mode);
    i32 when = 0;
    for (i32 n = newx; n < 160 + 72 + 5; n += 160) {
        i32 d = n - oldx, v = 0;
        for (i32 k = 0; k < 4; ++k) {
            if (k > 0 && !(copies & (1u << (k - 1)))) continue;
            i32 c = k == 0 ? 0 : (8 << k);
            if (d >= c && d < c + 4) v = -1;
            if (d >= c + 4 && d < c + 4 + width) v = 1;
        }
        if (v) when = v;
    }
    return when;
}

}  // namespace cule
