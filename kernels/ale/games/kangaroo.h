// Kangaroo: BCD score at $A7-$A8 (x100); lives are the low three bits of $AD plus one,
// which reads $FF when the game is over.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Kangaroo {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xA8, 0xA7));
        g.terminal = ram[0x2D] == 0xFF;
        g.lives = g.terminal ? 0 : (ram[0x2D] & 0x7) + 1;
    }
};

}  // namespace cule
