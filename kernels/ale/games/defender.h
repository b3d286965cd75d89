// Defender: score digits in the low nibbles of $9C-$A1 (lowest first; $A is a blank), lives at $C2.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Defender {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(nibble_digits(ram, 0x9C, 6));
        i32 lives = ram[0x42];
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
