// The TIA as ALE's Stella 2.4 core models it (the "old" TIA, not the cycle-exact one of later
// Stellas): registers change at CPU writes after a per-register delay, and the picture is drawn
// lazily, span by span, up to the colour clock of each access. Collisions come out of the same
// drawing, so the state must be drawn even when nobody looks at the pixels.
//
// Stella keeps pointers into large precomputed mask tables; here each object keeps what such a
// pointer captured (position and shape at the time it was set) and the mask is computed on the
// fly, which is the same function of (hpos, captured position, shape) and fits a GPU thread.
//
// Its parts, each in a header of its own, in the order each needs the one before:
//   tia_state.h       the registers' names, the display, the chip's state
//   tia_objects.h     players, missiles and the ball: their pixels and their motion
//   tia_playfield.h   the playfield's pixels
//   tia_collisions.h  the collision latches
//   tia_draw.h        spans, lines and frames as the beam moves
//   tia_registers.h   the CPU's reads and writes
//   tia_sound.h       the sound generator, as ALE's sound observation runs it
#pragma once
#include "atari/tia_state.h"
#include "atari/tia_objects.h"
#include "atari/tia_playfield.h"
#include "atari/tia_collisions.h"
#include "atari/tia_draw.h"
#include "atari/tia_registers.h"
#include "atari/tia_sound.h"
