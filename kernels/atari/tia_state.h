// The TIA's registers by name, the display a game is shown on, and the chip's state.
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
    AUDC0 = 0x15,    // audio control 0 (tia_sound.h)
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
// The audio registers, AUDC0 .. AUDV1, two channels of three: as Tia::audio and TiaSound::audio
// keep them.
enum : i32 { AUDIO_CHANNELS = 2, AUDIO_REGISTERS = AUDV1 - AUDC0 + 1 };
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
    i32 clock_deferred_update;   // drawing owed up to by deferred writes (defer_drawing)
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
    // The audio registers as last written, and which were written since the sound generator last
    // took them (bit r: audio[r]); a reset leaves both, as ALE's queue of audio writes.
    u8 audio[AUDIO_REGISTERS];
    u8 audio_written;
    u8 padding[3];  // explicit: states move and compare as bytes
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

}  // namespace cule
