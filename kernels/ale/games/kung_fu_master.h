// KungFuMaster: BCD score at $98-$9A; lives are the low three bits of $9D plus one,
// which reads $FF when the game is over.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct KungFuMaster {
    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9A, 0x99, 0x98));
        g.terminal = ram[0x1D] == 0xFF;
        g.lives = g.terminal ? 0 : (ram[0x1D] & 0x7) + 1;
    }
};

}  // namespace cule
