// The TIA as ALE's Stella 2.4 core models it (the "old" TIA, not the cycle-exact one of later
// Stellas): registers change at CPU writes after a per-register delay, and the picture is drawn
// lazily, span by span, up to the colour clock of each access. Collisions come out of the same
// drawing, so the state must be drawn even when nobody looks at the pixels.
//
// Stella keeps pointers into large precomputed mask tables; here each object keeps what such a
// pointer captured (position and shape at the time it was set) and the mask is computed on the
// fly, which is the same function of (hpos, captured position, shape) and fits a GPU thread.
#pragma once
#include "types.h"

namespace cule {

// The TIA's registers by the names Stella gives them (TIAConstants.hxx, after the Stella
// Programmer's Guide). A write decodes six address bits, a read four, so the read registers
// share their numbers with the first write registers.
enum : u8 { TIA_WRITE_MASK = 0x3F, TIA_READ_MASK = 0x0F };
enum TiaWriteRegister : u8 {
    VSYNC = 0x00,    // vertical sync set-clear (D1)
    VBLANK = 0x01,   // vertical blank set-clear (D1); D7 grounds the paddle capacitors
    WSYNC = 0x02,    // strobe: halt the CPU until the end of the line
    RSYNC = 0x03,    // strobe: reset the horizontal sync counter (no effect in Stella)
    NUSIZ0 = 0x04,   // number and size of player 0 and missile 0 (D5-0)
    NUSIZ1 = 0x05,   // number and size of player 1 and missile 1 (D5-0)
    COLUP0 = 0x06,   // colour and luminance of player 0 and missile 0 (D7-1)
    COLUP1 = 0x07,   // colour and luminance of player 1 and missile 1 (D7-1)
    COLUPF = 0x08,   // colour and luminance of the playfield and ball (D7-1)
    COLUBK = 0x09,   // colour and luminance of the background (D7-1)
    CTRLPF = 0x0A,   // playfield reflection (D0), score (D1), priority (D2), ball size (D5-4)
    REFP0 = 0x0B,    // reflect player 0 (D3)
    REFP1 = 0x0C,    // reflect player 1 (D3)
    PF0 = 0x0D,      // playfield, first four cells (D7-4)
    PF1 = 0x0E,      // playfield, next eight cells (D7-0)
    PF2 = 0x0F,      // playfield, last eight cells (D7-0)
    RESP0 = 0x10,    // strobe: player 0 starts at the beam
    RESP1 = 0x11,    // strobe: player 1 starts at the beam
    RESM0 = 0x12,    // strobe: missile 0 starts at the beam
    RESM1 = 0x13,    // strobe: missile 1 starts at the beam
    RESBL = 0x14,    // strobe: the ball starts at the beam
    AUDC0 = 0x15,    // audio control 0 (sound is not emulated)
    AUDC1 = 0x16,    // audio control 1
    AUDF0 = 0x17,    // audio frequency 0
    AUDF1 = 0x18,    // audio frequency 1
    AUDV0 = 0x19,    // audio volume 0
    AUDV1 = 0x1A,    // audio volume 1
    GRP0 = 0x1B,     // graphics of player 0 (D7-0)
    GRP1 = 0x1C,     // graphics of player 1 (D7-0)
    ENAM0 = 0x1D,    // enable missile 0 (D1)
    ENAM1 = 0x1E,    // enable missile 1 (D1)
    ENABL = 0x1F,    // enable the ball (D1)
    HMP0 = 0x20,     // horizontal motion of player 0 (D7-4)
    HMP1 = 0x21,     // horizontal motion of player 1 (D7-4)
    HMM0 = 0x22,     // horizontal motion of missile 0 (D7-4)
    HMM1 = 0x23,     // horizontal motion of missile 1 (D7-4)
    HMBL = 0x24,     // horizontal motion of the ball (D7-4)
    VDELP0 = 0x25,   // vertical delay of player 0 (D0)
    VDELP1 = 0x26,   // vertical delay of player 1 (D0)
    VDELBL = 0x27,   // vertical delay of the ball (D0)
    RESMP0 = 0x28,   // lock missile 0 to player 0 (D1)
    RESMP1 = 0x29,   // lock missile 1 to player 1 (D1)
    HMOVE = 0x2A,    // strobe: apply the horizontal motion registers
    HMCLR = 0x2B,    // strobe: clear the horizontal motion registers
    CXCLR = 0x2C,    // strobe: clear the collision latches
};
enum TiaReadRegister : u8 {
    CXM0P = 0x00,    // collisions: D7 missile 0 and player 1, D6 missile 0 and player 0
    CXM1P = 0x01,    // D7 missile 1 and player 0, D6 missile 1 and player 1
    CXP0FB = 0x02,   // D7 player 0 and playfield, D6 player 0 and ball
    CXP1FB = 0x03,   // D7 player 1 and playfield, D6 player 1 and ball
    CXM0FB = 0x04,   // D7 missile 0 and playfield, D6 missile 0 and ball
    CXM1FB = 0x05,   // D7 missile 1 and playfield, D6 missile 1 and ball
    CXBLPF = 0x06,   // D7 ball and playfield; D6 unused
    CXPPMM = 0x07,   // D7 player 0 and player 1, D6 missile 0 and missile 1
    INPT0 = 0x08,    // paddle capacitors (D7): left port's two paddles, then the right port's
    INPT1 = 0x09,
    INPT2 = 0x0A,
    INPT3 = 0x0B,
    INPT4 = 0x0C,    // left joystick's fire button (D7, 0 when pressed)
    INPT5 = 0x0D,    // right joystick's fire button
};

enum : u8 {
    P0_BIT = 0x01, M0_BIT = 0x02, P1_BIT = 0x04, M1_BIT = 0x08,
    BL_BIT = 0x10, PF_BIT = 0x20, SCORE_BIT = 0x40, PRIORITY_BIT = 0x80,
};

enum : i32 {
    HBLANK = 68,
    CLOCKS_PER_LINE = 228,
    SCREEN_WIDTH = 160,
    MAX_SCREEN_HEIGHT = 256,    // the tallest display ALE's properties give (Combat, PAL)
    NTSC_HEIGHT = 210,          // Stella's default Display.Height property
    PAL_HEIGHT = 250,           // what a PAL game whose properties say 210 shows instead
};

// How ALE shows a game (Stella's Display.YStart, Display.Height and display format, and
// Emulation.HmoveBlanks): `height` rows from scanline `ystart`. A PAL console lets a frame run
// to 342 scanlines instead of 290 before a TIA write ends it, and loses colour: after a frame of
// an odd number of scanlines every colour gets bit 0 set (odd palette entries), else cleared.
struct Display {
    u16 height;
    u8 ystart;
    u8 pal;
    u8 hmove_blanks;
};

// Pixels in one frame buffer of a display.
CULE_HD i32 display_pixels(const Display& d) { return (i32)d.height * SCREEN_WIDTH; }

// The scanline past which a TIA write ends the frame.
CULE_HD i32 max_scanlines(bool pal) { return pal ? 342 : 290; }

// What one of Stella's mask pointers captured: the object's position and shape when it was set.
struct ObjectMask {
    i16 pos;
    u8 shape;   // players: NUSIZ mode | SKIP_FIRST; missiles: number | size << 3 | HIDDEN; ball: size
    u8 padding[1];  // explicit: states move and compare as bytes
};
enum : u8 { SKIP_FIRST = 0x08, HIDDEN = 0x80 };

// Tia::color's slots, in Stella's order, and the slot each colour register writes.
enum : u8 { BK_COLOR = 0, PF_COLOR = 1, P0_COLOR = 2, P1_COLOR = 3 };
CULE_CONST const u8 COLOR_SLOT[4] = {P0_COLOR, P1_COLOR, PF_COLOR, BK_COLOR};   // COLUP0, COLUP1, COLUPF, COLUBK

struct Tia {
    // Colour clocks, relative to the frame's CPU cycle counter times three.
    i32 clock_frame_start, clock_start_display, clock_stop_display;
    i32 clock_last_update, clocks_to_end_of_line;
    i32 vsync_finish_clock, last_hmove_clock;
    i32 clock_deferred_update;   // the last write drawing was not brought up to (tia_poke)
    i32 dump_disabled_cycle;     // CPU cycles
    i32 scanlines_last_frame;
    i32 frame_pos;               // next pixel the drawing writes (Stella's frame pointer)
    u32 pf;                      // PF2:PF1:PF0 as bits 19..0
    u16 collision;
    u16 height;                  // rows shown (Display::height)
    i16 posp0, posp1, posm0, posm1, posbl;
    ObjectMask mp0, mp1, mm0, mm1, mbl;
    u8 color[4];                 // by *_COLOR slot
    u8 vsync, vblank, nusiz0, nusiz1, ctrlpf, prio_score, pf_reflect;
    u8 refp0, refp1, grp0, grp1, dgrp0, dgrp1, cur_grp0, cur_grp1;
    u8 enam0, enam1, enabl, denabl, vdelp0, vdelp1, vdelbl, resmp0, resmp1;
    u8 hmp0, hmp1, hmm0, hmm1, hmbl;
    u8 enabled;                  // *_BIT of the objects that may show
    u8 dump_enabled, hmove_blank, allow_hmove_blank, m0_ark, m0_ark_counter;
    u8 ystart, pal;              // Display::ystart, Display::pal
    u8 front;                    // which of the two frame buffers is being drawn
    u8 partial_frame, frame_greyed;
    u8 padding[2];  // explicit: states move and compare as bytes
};

// Pixels in one frame buffer.
CULE_HD i32 frame_pixels(const Tia& t) { return (i32)t.height * SCREEN_WIDTH; }

// A colour register's value as the TIA keeps it: bit 0 is PAL colour loss.
CULE_HD u8 colour_with_loss(const Tia& t, u8 value) {
    return (u8)((value & 0xFE) | (t.pal && (t.scanlines_last_frame & 1)));
}

// Paddle and fire inputs as the TIA reads them.
struct TiaInputs {
    i32 resistance[4];   // INPT0..3; 0: minimum (reads charged), PADDLE_NONE: no paddle
    u32 charge_cycles[4];
    u8 inpt4, inpt5;     // 0x80 when the button is up
    u8 padding[2];  // explicit: states move and compare as bytes
};
enum : i32 { PADDLE_NONE = 0x7FFFFFFF };

// Cycles a paddle capacitor needs to charge, with Stella's constants and rounding.
CULE_HD u32 paddle_charge_cycles(i32 resistance) {
    double t = (1.6 * resistance * 0.01E-6);
    return (u32)(t * 1.19E6);
}

CULE_HD u8 reverse_bits(u8 b) {
    b = (u8)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
    b = (u8)((b & 0xCC) >> 2 | (b & 0x33) << 2);
    return (u8)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

// ---- object masks ---------------------------------------------------------------------------

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

// The PF bit shown at hpos: 20 cells of 4 pixels per half, the right half mirrored if reflected.
CULE_HD u32 playfield_mask(i32 hpos, u8 reflect) {
    i32 cell = (hpos >= 80 ? hpos - 80 : hpos) >> 2;
    if (reflect && hpos >= 80) cell = 19 - cell;
    if (cell < 4) return 1u << cell;                  // PF0, bits 4..7 of the register
    if (cell < 12) return 0x800u >> (cell - 4);       // PF1, drawn from its bit 7
    return 0x1000u << (cell - 12);                    // PF2, drawn from its bit 0
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
    t.mp0 = player_object(t.posp0, t.nusiz0, 0);
    t.mp1 = player_object(t.posp1, t.nusiz1, 0);
    t.mm0 = t.m0_ark ? cosmic_ark_missile(t.posm0, t.nusiz0, t.m0_ark_counter) : missile_object(t.posm0, t.nusiz0);
    t.mm1 = missile_object(t.posm1, t.nusiz1);
    t.mbl = ball_object(t.posbl, t.ctrlpf);
}

// ---- drawing --------------------------------------------------------------------------------

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

// ---- scanline bitmaps ------------------------------------------------------------------------

// The pixels an object covers on a line, as bitmaps: bit x%32 of word x/32 is pixel x. The
// mask functions above are the definition; these give the same set a 32-pixel word at a time,
// copy by copy, so that a span is drawn a word at a time and only its words are built.

// `pattern` (bit k: pixel start+k) as seen in word w. A copy starting near the right edge
// wraps round onto pixels 0..31, word 0: the TIA's wrap-around. (Copy starts past the edge are
// taken % SCREEN_WIDTH here, not by wrap_position, which costs cule_step_logged two registers.)
CULE_HD u32 pattern_word(u32 pattern, i32 start, i32 w) {
    auto shifted = [](u32 p, i32 d) { return d >= 32 || d <= -32 ? 0u : d >= 0 ? p << d : p >> -d; };
    u32 bits = shifted(pattern, start - 32 * w);
    if (w == 0) bits |= shifted(pattern, start - SCREEN_WIDTH);
    return bits;
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

CULE_HD u32 copies_word(Copies c, i32 w) {
    u32 bits = c.first ? pattern_word(c.pattern, c.pos, w) : 0;
    for (i32 k = 0; k < 3; ++k)
        if (c.more & (1u << k)) bits |= pattern_word(c.pattern, (c.pos + (16 << k)) % SCREEN_WIDTH, w);
    return bits;
}

CULE_HD u32 player_word(ObjectMask m, u8 grp, i32 w) { return copies_word(player_copies(m, grp), w); }
CULE_HD u32 missile_word(ObjectMask m, i32 w) { return copies_word(missile_copies(m), w); }
CULE_HD u32 ball_word(ObjectMask m, i32 w) { return copies_word(ball_copies(m), w); }

// The low 8 bits of v, each widened to 4 pixels.
CULE_HD u32 widen_to_nibbles(u32 v) {
    v &= 0xFF;
    v = (v | v << 12) & 0x000F000Fu;
    v = (v | v << 6) & 0x03030303u;
    v = (v | v << 3) & 0x11111111u;
    return v * 0xF;
}

CULE_HD u32 reverse_bits32(u32 v) {
    return (u32)reverse_bits((u8)v) << 24 | (u32)reverse_bits((u8)(v >> 8)) << 16 |
           (u32)reverse_bits((u8)(v >> 16)) << 8 | reverse_bits((u8)(v >> 24));
}

// The playfield's 20 cells of a half line in screen order: PF0 bits 4..7, PF1 bits 7..0, PF2
// bits 0..7 (see playfield_mask).
CULE_HD u32 playfield_cells(u32 pf) {
    return (pf & 0x0000F) | (u32)reverse_bits((u8)(pf >> 4)) << 4 | (pf & 0xFF000);
}

// The playfield in word w: 20 cells of 4 pixels per half, the right half mirrored if reflected.
CULE_INLINE u32 playfield_word(u32 pf, u8 reflect, i32 w) {
    u32 cells = playfield_cells(pf);
    u32 right = reflect ? reverse_bits32(cells) >> 12 : cells;
    switch (w) {
        case 0: return widen_to_nibbles(cells);
        case 1: return widen_to_nibbles(cells >> 8);
        case 2: return widen_to_nibbles(cells >> 16) | widen_to_nibbles(right) << 16;
        case 3: return widen_to_nibbles(right >> 4);
        default: return widen_to_nibbles(right >> 12);
    }
}

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

// The bits of word `w` that lie in pixels [from, to).
CULE_HD u32 span_bits(i32 w, i32 from, i32 to) {
    i32 lo = from - 32 * w, hi = to - 32 * w;
    if (lo < 0) lo = 0;
    if (hi > 32) hi = 32;
    if (hi <= lo) return 0;
    u32 upper = hi == 32 ? 0xFFFFFFFFu : (1u << hi) - 1;
    return upper & ~((1u << lo) - 1);
}

// 0xFF in byte k for each bit k < 8 of `bits`: eight pixels of a bitmap as a byte mask (byte k
// is pixel k in memory: x86 and NVIDIA GPUs are little-endian).
CULE_HD u64 byte_mask(u32 bits) {
    u64 x = ((u64)(bits & 0xFF) * 0x0101010101010101ull) & 0x8040201008040201ull;
    return (((x + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull) * 0xFF;
}

CULE_HD u64 byte_broadcast(u8 v) { return v * 0x0101010101010101ull; }

// ---- collisions alone -------------------------------------------------------------------------

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

// The low 16 bits of v, each widened to 4 pixels.
CULE_HD u64 widen_to_nibbles64(u64 v) {
    v &= 0xFFFF;
    v = (v | v << 24) & 0x000000FF000000FFull;
    v = (v | v << 12) & 0x000F000F000F000Full;
    v = (v | v << 6) & 0x0303030303030303ull;
    v = (v | v << 3) & 0x1111111111111111ull;
    return v * 0xF;
}

// The playfield's pixels in the window from pixel h.
CULE_HD u64 playfield_window(u32 pf, u8 reflect, i32 h) {
    u32 left = playfield_cells(pf), right = left;
    if (reflect)   // PF2 bits 7..0, PF1 bits 0..7, PF0 bits 7..4
        right = reverse_bits((u8)(pf >> 12)) | (pf >> 4 & 0xFF) << 8 | (u32)reverse_bits((u8)(pf << 4)) << 16;
    u64 cells = ((u64)right << 20 | left) >> (h >> 2);   // bit c: the cell of pixel h & ~3 + 4c
    u64 bits = widen_to_nibbles64(cells) >> (h & 3);
    if ((h & 3) && (cells >> 16 & 1)) bits |= ~0ull << (64 - (h & 3));
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

// Draws n pixels from hpos on the current line and latches their collisions.
template <bool DRAW>
CULE_HD void draw_span(Tia& t, u8* fb, i32 hpos, i32 n) {
    i32 pos = t.frame_pos;
    t.frame_pos += n;
    if (DRAW) CULE_TRACE_EVENT(SPAN, (t.vblank & 0x02) ? trace::SPAN_BLANK : (t.enabled & 0x3F) ? trace::SPAN_OBJECTS
                                                                                 : trace::SPAN_BACKGROUND, n, pos);
    if (t.vblank & 0x02) {
        if (DRAW) fill(t, fb, pos, n, 0);
        return;
    }
    const u32 objects = t.enabled & 0x3F;
    if (DRAW && !objects) {   // the background alone: most spans of many games (Pong: 70%)
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
    u32 e0 = t.enabled | t.prio_score;
    // The playfield-only loop uses score colours even under priority, unlike the general rule.
    bool score_only_pf = (e0 & 0x3F) == PF_BIT && (e0 & SCORE_BIT);
    // Which colour register each pixel shows is decided for 32 pixels at once, as three bitmaps
    // (Tia::color slots 1..3; slot 0, the background, where none is set). Score colours also apply
    // under priority when the playfield is the only object (Stella's playfield-only loop).
    const bool priority = (t.prio_score & PRIORITY_BIT) && !score_only_pf;
    const bool score = (t.prio_score & SCORE_BIT) && !priority;
    const u64 c0 = byte_broadcast(t.color[BK_COLOR]), d1 = byte_broadcast(t.color[PF_COLOR]) ^ c0,
              d2 = byte_broadcast(t.color[P0_COLOR]) ^ c0, d3 = byte_broadcast(t.color[P1_COLOR]) ^ c0;
    u8* line = fb + pos - hpos;   // the line's first pixel: lines start 8-byte aligned
    // The five words of the line, unrolled, so that each word's bitmaps are built with constant
    // shifts; only the words of the span are built.
    const i32 first_word = hpos >> 5, last_word = (hpos + n - 1) >> 5;
    CULE_UNROLL
    for (i32 w = 0; w < 5; ++w) {
        if (w < first_word || w > last_word) continue;
        u32 in_span = span_bits(w, hpos, hpos + n);
        u32 wp0 = (e0 & P0_BIT) ? player_word(t.mp0, t.cur_grp0, w) & in_span : 0;
        u32 wp1 = (e0 & P1_BIT) ? player_word(t.mp1, t.cur_grp1, w) & in_span : 0;
        u32 wm0 = (e0 & M0_BIT) ? missile_word(t.mm0, w) & in_span : 0;
        u32 wm1 = (e0 & M1_BIT) ? missile_word(t.mm1, w) & in_span : 0;
        u32 wbl = (e0 & BL_BIT) ? ball_word(t.mbl, w) & in_span : 0;
        u32 wpf = (e0 & PF_BIT) ? playfield_word(t.pf, t.pf_reflect, w) & in_span : 0;
        if (wp0 | wm0 | wp1 | wm1 | wbl) t.collision |= word_collisions(wp0, wm0, wp1, wm1, wbl, wpf);
        i32 from = 32 * w > hpos ? 32 * w : hpos, to = 32 * w + 32 < hpos + n ? 32 * w + 32 : hpos + n;
        if (pos + (to - hpos) > frame_pixels(t)) to = frame_pixels(t) - pos + hpos;   // rows past the screen
        if (to <= from) continue;
        u32 shown = span_bits(w, from, to), left = span_bits(w, 0, 80);
        // Stella's rule: P0/M0 over P1/M1 over PF/BL over the background; under priority PF/BL
        // first; in score mode the playfield takes P0's colour on the left, P1's on the right.
        u32 p = wp0 | wm0, q = wp1 | wm1, c1, c2, c3;
        if (priority) {
            c1 = wbl | wpf;
            c2 = p & ~c1;
            c3 = q & ~p & ~c1;
        } else if (score) {
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
        auto whole = [&](u32 c) { return c == 0 || c == shown; };
        if (whole(c1) && whole(c2) && whole(c3)) {   // one colour: background, a wall, a wide object
            fill_bytes(line + from, to - from, t.color[c1 ? PF_COLOR : c2 ? P0_COLOR : c3 ? P1_COLOR : BK_COLOR]);
            continue;
        }
        // Eight pixels at a time, each bitmap byte widened to a byte mask; the pixels of a group
        // outside [from, to) keep what they hold.
        for (i32 x = from & ~7; x < to; x += 8) {
            i32 s = x & 31;
            u64 px = c0 ^ (byte_mask(c1 >> s) & d1) ^ (byte_mask(c2 >> s) & d2) ^ (byte_mask(c3 >> s) & d3);
            u64 keep = byte_mask(shown >> s);
            if (~keep) px = (px & keep) | (load_word(line + x) & ~keep);
            store_word(line + x, px);
        }
    }
    i32 end = hpos + n, last_step = end & ~3;
    if (DRAW && (end & 3) && last_step >= hpos) {
        u32 step = four_pixel_step_masks(e0);
        if (step && ((step & 0x80000000u) || masks_empty(t, step, last_step))) {
            u8 c = four_pixel_step_colour(t, e0, last_step);
            fill(t, fb, pos + n, last_step + 4 - end, c);
        }
    }
}

// End of a scanline: the player masks lose their RESPx state, the playfield latches its
// reflection, and the Cosmic Ark missile trick moves missile 0.
CULE_HD void end_of_line(Tia& t) {
    t.pf_reflect = t.ctrlpf & 1;
    t.mp0 = player_object(t.posp0, t.nusiz0, 0);
    t.mp1 = player_object(t.posp1, t.nusiz1, 0);
    if (t.m0_ark) {
        t.m0_ark_counter = (t.m0_ark_counter + 1) & 3;
        // Byte k of the constant: the step for counter k (18, 33, 0, 17 pixels left). Packed, not
        // a CULE_CONST table: the table costs cule_step_logged two registers (108 -> 110, sm_90).
        t.posm0 = wrap_position(t.posm0 - (i32)((0x11002112u >> (8 * t.m0_ark_counter)) & 0xFF));
        t.mm0 = cosmic_ark_missile(t.posm0, t.nusiz0, t.m0_ark_counter);
    }
}

// Draws everything up to colour clock `clock` (relative to the frame's cycle counter x3).
template <bool DRAW>
CULE_NOINLINE void tia_update_to(Tia& t, u8* fb, i32 clock) {
    if (clock < t.clock_start_display || t.clock_last_update >= t.clock_stop_display ||
        t.clock_last_update >= clock)
        return;
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

// ---- reset and frames -----------------------------------------------------------------------

CULE_HD void tia_reset(Tia& t, u8* fb_front, u8* fb_back, u32 cycles, const Display& d) {
    u8 partial = t.partial_frame, front = t.front, greyed = t.frame_greyed;
    u8* bytes = (u8*)&t;
    for (u32 i = 0; i < sizeof(Tia); ++i) bytes[i] = 0;
    t.partial_frame = partial;   // survives a reset, like the frame buffers' roles
    t.front = front;
    t.frame_greyed = greyed;
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

// ---- CPU access ---------------------------------------------------------------------------

// The collision latch (bit of Tia::collision) each collision register reads in D7; D6 reads
// the latch after it (CXBLPF has none in D6).
CULE_CONST const u8 COLLISION_D7_LATCH[8] = {0, 2, 4, 6, 8, 10, 12, 13};

template <bool DRAW>
CULE_HD u8 tia_peek(Tia& t, u8* fb, const TiaInputs& in, u16 addr, u32 cycles, u8 data_bus) {
    tia_update_to<DRAW>(t, fb, (i32)(cycles * 3));
    u8 noise = data_bus & 0x3F;
    u32 reg = addr & TIA_READ_MASK;
    if (reg <= CXPPMM) {   // collision latches: two per register, one for CXBLPF
        u32 b = COLLISION_D7_LATCH[reg];
        u8 v = (t.collision >> b & 1) ? 0x80 : 0;
        if (reg != CXBLPF && (t.collision >> (b + 1) & 1)) v |= 0x40;
        return v | noise;
    }
    if (reg <= INPT3) {   // paddle capacitors, grounded while VBLANK bit 7 dumps them
        i32 r = in.resistance[reg - INPT0];
        if (r == 0) return 0x80 | noise;
        if (r == PADDLE_NONE || t.dump_enabled) return noise;
        return cycles > (u32)t.dump_disabled_cycle + in.charge_cycles[reg - INPT0] ? (0x80 | noise) : noise;
    }
    if (reg == INPT4) return in.inpt4 | noise;
    if (reg == INPT5) return in.inpt5 | noise;
    return noise;
}

// Stella's HMOVE motion: for HMOVE at CPU cycle x of the line, an object with HMxx = hm moves by
// 8 - min(pulses, limit) pixels if the HMOVE extends HBLANK (early), else -max(0, pulses - limit),
// with pulses = hm ^ 8. Both forms and the limits per cycle summarise Stella's measured table.
CULE_CONST const u8 HMOVE_LIMIT[76] = {
    15, 15, 15, 15, 14, 13, 13, 12, 11, 10, 10, 9, 8, 7, 7, 6, 5, 4, 4, 3, 2,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    14, 13, 12, 12, 11, 10, 9, 9, 8, 7, 6, 6, 5, 4, 3, 3, 2, 1, 0, 0, 15};
CULE_HD bool hmove_is_early(i32 x) { return x <= 20 || x == 75; }
CULE_HD i32 hmove_motion(i32 x, u8 hm) {
    i32 pulses = hm ^ 8, l = HMOVE_LIMIT[x];
    if (hmove_is_early(x)) return 8 - (pulses < l ? pulses : l);
    return pulses > l ? l - pulses : 0;
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

// The write registers in [first, last], as bits of a set indexed by register.
CULE_HD constexpr u64 write_registers(u32 first, u32 last) { return ((2ull << (last - first)) - 1) << first; }

// A playfield write takes effect at the first 4-clock playfield cell boundary at least 2 colour
// clocks after it; by the write's CPU cycle within the line, mod 4 (Stella's table).
CULE_CONST const u8 PLAYFIELD_WRITE_DELAY[4] = {4, 5, 2, 3};

// CPU write to the TIA. Returns true when it ends the frame.
template <bool DRAW>
CULE_HD bool tia_poke(Tia& t, u8* fb, u16 addr, u8 value, u32& cycles, bool last_access_was_read) {
    addr &= TIA_WRITE_MASK;
    i32 clock = (i32)(cycles * 3);
    // Stella's poke delays: the picture is drawn this many colour clocks past the write before
    // the write takes effect.
    i32 delay = 0;
    switch (addr) {
        case VBLANK: case REFP0: case REFP1: case GRP0: case GRP1: delay = 1; break;
        case NUSIZ0: case NUSIZ1: case RESM0: case RESM1: delay = 8; break;
        case PF0: case PF1: case PF2: delay = PLAYFIELD_WRITE_DELAY[(clocks_into_line(t, clock) / 3) & 3]; break;
        default: break;
    }
    bool end_frame = (i32)(((u32)clock - (u32)t.clock_frame_start) / CLOCKS_PER_LINE) > max_scanlines(t.pal);
    // Stella draws up to every write. A write that cannot change the picture (WSYNC, RSYNC,
    // audio, motion values, HMCLR, unused addresses) leaves that to the next drawing: the pixels
    // come out the same, as the only trace of where a span ended (the four-pixel step's overrun)
    // is covered by the span after it. Only the frame's last span shows, so a write ending the
    // frame draws, and a frame cut by the instruction cap catches up in console_frame.
    constexpr u64 NOT_DRAWN = write_registers(WSYNC, RSYNC) | write_registers(AUDC0, AUDV1) |
                              write_registers(HMP0, HMBL) | write_registers(HMCLR, HMCLR) |
                              write_registers(CXCLR + 1, TIA_WRITE_MASK);
    if ((NOT_DRAWN >> addr & 1) && !end_frame) t.clock_deferred_update = clock;
    else tia_update_to<DRAW>(t, fb, clock + delay);

    i32 hpos = clocks_into_line(t, clock);
    switch (addr) {
        case VSYNC:
            t.vsync = value;
            if (value & 0x02) {
                t.vsync_finish_clock = clock + CLOCKS_PER_LINE;
            } else if (clock >= t.vsync_finish_clock) {
                t.vsync_finish_clock = 0x7FFFFFFF;
                end_frame = true;
            }
            break;
        case VBLANK:  // bit 7 grounds the paddle capacitors
            if (!(t.vblank & 0x80) && (value & 0x80)) t.dump_enabled = 1;
            if ((t.vblank & 0x80) && !(value & 0x80)) {
                t.dump_enabled = 0;
                t.dump_disabled_cycle = (i32)cycles;
            }
            t.vblank = value;
            break;
        case WSYNC:   // the 6507 halts only in a read cycle: not on the second write of a read-modify-write
            if (last_access_was_read) {
                u32 to_end = 76 - ((cycles - (u32)(t.clock_frame_start / 3)) % 76);
                if (to_end < 76) cycles += to_end;
            }
            break;
        case NUSIZ0:
            t.nusiz0 = value;
            t.mp0 = player_object(t.posp0, value, 0);
            t.mm0 = missile_object(t.posm0, value);
            break;
        case NUSIZ1:
            t.nusiz1 = value;
            t.mp1 = player_object(t.posp1, value, 0);
            t.mm1 = missile_object(t.posm1, value);
            break;
        case COLUP0: case COLUP1: case COLUPF: case COLUBK:
            t.color[COLOR_SLOT[addr - COLUP0]] = colour_with_loss(t, value);
            break;
        case CTRLPF:
            t.ctrlpf = value;
            t.prio_score = (value & 0x06) << 5;
            // The reflection changes at once while the beam has not reached the playfield's right
            // half, else from the next line (end_of_line). HBLANK + 79 is Stella's bound, `68 + 79`
            // colour clocks into the line: pixel 79, one short of the right half's first pixel.
            if (hpos < HBLANK + 79) t.pf_reflect = value & 1;
            t.mbl = ball_object(t.posbl, value);
            break;
        case REFP0:
            if (((value & 0x08) != 0) != (t.refp0 != 0)) {
                t.refp0 = (value & 0x08) != 0;
                t.cur_grp0 = reverse_bits(t.cur_grp0);
            }
            break;
        case REFP1:
            if (((value & 0x08) != 0) != (t.refp1 != 0)) {
                t.refp1 = (value & 0x08) != 0;
                t.cur_grp1 = reverse_bits(t.cur_grp1);
            }
            break;
        case PF0: case PF1: case PF2:
            if (addr == PF0) t.pf = (t.pf & 0x000FFFF0) | ((value >> 4) & 0x0F);
            else if (addr == PF1) t.pf = (t.pf & 0x000FF00F) | ((u32)value << 4);
            else t.pf = (t.pf & 0x00000FFF) | ((u32)value << 12);
            t.enabled = t.pf ? (t.enabled | PF_BIT) : (t.enabled & ~PF_BIT);
            break;
        case RESP0: case RESP1: {
            i16& pos = addr == RESP0 ? t.posp0 : t.posp1;
            ObjectMask& mask = addr == RESP0 ? t.mp0 : t.mp1;
            u8 nusiz = addr == RESP0 ? t.nusiz0 : t.nusiz1;
            i16 newx = reset_position(hpos, 5);
            i32 when = player_reset_when(nusiz & 7, pos, newx);
            if (when == 1) tia_update_to<DRAW>(t, fb, clock + 11);
            pos = newx;
            mask = player_object(newx, nusiz, when == -1 ? 0 : SKIP_FIRST);
            break;
        }
        // RESM0, RESM1 and RESBL soon after an HMOVE: on the chip the HMOVE's extra motion clocks
        // go on for up to 20 CPU cycles and also move an object reset meanwhile, while this TIA
        // moves objects at the HMOVE. Stella sets by hand the positions that the games named
        // below need; ALE's TIA keeps these cases, so cule does too.
        case RESM0:
            t.posm0 = reset_position(hpos, 4);
            if (clocks_since(t.last_hmove_clock, clock) == 20 * 3 && hpos == 69) t.posm0 = 8;   // Dolphin
            t.mm0 = missile_object(t.posm0, t.nusiz0);
            break;
        case RESM1:
            t.posm1 = reset_position(hpos, 4);
            if (clocks_since(t.last_hmove_clock, clock) == 3 * 3 && hpos == 18) t.posm1 = 3;   // Pitfall II
            t.mm1 = missile_object(t.posm1, t.nusiz1);
            break;
        case RESBL: {
            i32 since_hmove = clocks_since(t.last_hmove_clock, clock);
            t.posbl = reset_position(hpos, 4);
            if (since_hmove == 18 * 3 && (hpos == 60 || hpos == 69)) t.posbl = 10;   // Escape from the Mindmaster
            else if (since_hmove == 3 * 3 && hpos == 18) t.posbl = 3;   // Decathlon
            else if (since_hmove == 7 * 3 && hpos == 30) t.posbl = 6;   // Robot Tank (ALE's and cule's Robotank)
            else if (since_hmove == 6 * 3 && hpos == 27) t.posbl = 5;   // Hole Hunter
            t.mbl = ball_object(t.posbl, t.ctrlpf);
            break;
        }
        case GRP0:  // also moves GRP1 into its delay register
            t.grp0 = value;
            t.dgrp1 = t.grp1;
            update_player_graphics(t);
            break;
        case GRP1:  // also moves GRP0 and ENABL into their delay registers
            t.grp1 = value;
            t.dgrp0 = t.grp0;
            t.denabl = t.enabl;
            update_player_graphics(t);
            update_ball_enable(t);
            break;
        case ENAM0: t.enam0 = value & 0x02; update_missile_enables(t); break;
        case ENAM1: t.enam1 = value & 0x02; update_missile_enables(t); break;
        case ENABL: t.enabl = value & 0x02; update_ball_enable(t); break;
        case HMP0: t.hmp0 = value >> 4; break;
        case HMP1: t.hmp1 = value >> 4; break;
        case HMM0:  // HMM0 7 -> 6 right after an HMOVE starts Cosmic Ark's star field (end_of_line)
            if (clocks_since(t.last_hmove_clock, clock) == 21 * 3 && t.hmm0 == 7 && (value >> 4) == 6) {
                t.m0_ark = 1;
                t.m0_ark_counter = 0;
            }
            t.hmm0 = value >> 4;
            break;
        case HMM1: t.hmm1 = value >> 4; break;
        case HMBL: t.hmbl = value >> 4; break;
        case VDELP0: t.vdelp0 = value & 1; update_player_graphics(t); break;
        case VDELP1: t.vdelp1 = value & 1; update_player_graphics(t); break;
        case VDELBL: t.vdelbl = value & 1; update_ball_enable(t); break;
        case RESMP0: case RESMP1: {  // releasing centres the missile on its player
            bool p0 = addr == RESMP0;
            u8& resmp = p0 ? t.resmp0 : t.resmp1;
            if (resmp && !(value & 0x02)) {
                u8 nusiz = p0 ? t.nusiz0 : t.nusiz1;
                i16& m = p0 ? t.posm0 : t.posm1;
                m = wrap_position((p0 ? t.posp0 : t.posp1) + player_width(nusiz & 7) / 2);
                (p0 ? t.mm0 : t.mm1) = missile_object(m, nusiz);
            }
            resmp = value & 0x02;
            update_missile_enables(t);
            break;
        }
        case HMOVE: {
            i32 x = hpos / 3;
            if (t.allow_hmove_blank && hmove_is_early(x)) t.hmove_blank = 1;
            t.posp0 = wrap_position(t.posp0 + hmove_motion(x, t.hmp0));
            t.posp1 = wrap_position(t.posp1 + hmove_motion(x, t.hmp1));
            t.posm0 = wrap_position(t.posm0 + hmove_motion(x, t.hmm0));
            t.posm1 = wrap_position(t.posm1 + hmove_motion(x, t.hmm1));
            t.posbl = wrap_position(t.posbl + hmove_motion(x, t.hmbl));
            t.m0_ark = 0;   // an HMOVE ends the Cosmic Ark trick
            tia_rebuild_masks(t);
            t.last_hmove_clock = clock;
            break;
        }
        case HMCLR: t.hmp0 = t.hmp1 = t.hmm0 = t.hmm1 = t.hmbl = 0; break;
        case CXCLR: t.collision = 0; break;
        default: break;   // RSYNC, audio and unused addresses
    }
    return end_frame;
}

}  // namespace cule
