// Bowling: BCD score at $A1 and $A6 (hundreds); the game ends after frame 10 ($A4 > $10).
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Bowling {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xA1, 0xA6));
        g.terminal = ram[0x24] > 0x10;
    }
};

}  // namespace cule
