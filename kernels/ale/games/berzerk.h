// Berzerk: BCD score at $DD-$DF, lives are $DA + 1 ($FF: game over).
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Berzerk {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xDF, 0xDE, 0xDD));
        u8 lives = ram[0x5A];
        g.terminal = lives == 0xFF;
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
