// Zaxxon: BCD score at $E8-$E9, x100; lives in the low three bits of $EA, the game ends
// at 0.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Zaxxon {
    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xE9, 0xE8));
        g.lives = ram[0x6A] & 0x7;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
