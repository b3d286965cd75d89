// Gopher: BCD score at $B0-$B2; the low three bits of $B4 are the carrots left, which are
// the lives; the game ends with none.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Gopher {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xB2, 0xB1, 0xB0));
        u8 carrots = ram[0x34] & 0x7;
        g.terminal = carrots == 0;
        g.lives = (carrots & 1) + ((carrots >> 1) & 1) + (carrots >> 2);
    }
};

}  // namespace cule
