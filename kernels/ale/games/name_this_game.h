// NameThisGame: BCD score at $C4-$C6; lives are the low three bits of $C7, the game ends
// at 0.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct NameThisGame {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xC6, 0xC5, 0xC4));
        g.lives = ram[0x47] & 0x7;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
