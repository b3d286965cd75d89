// YarsRevenge: BCD score at $E0-$E2; lives in the high nibble of $9E, the game ends at 0.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct YarsRevenge {
    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xE2, 0xE1, 0xE0));
        g.lives = ram[0x1E] >> 4;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
