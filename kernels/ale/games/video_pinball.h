// VideoPinball: BCD score at $B0, $B2, $B4 (lowest first); bit 0 of $AF ends the game;
// lives are 4 plus an extra ball (bit 0 of $A8) minus the balls played (low three bits of $99).
#pragma once
#include "ale/game_state.h"

namespace cule {

struct VideoPinball {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xB0, 0xB2, 0xB4));
        g.terminal = (ram[0x2F] & 0x1) != 0;
        g.lives = g.terminal ? 0 : 4 + (ram[0x28] & 0x1) - (ram[0x19] & 0x7);
    }
};

}  // namespace cule
