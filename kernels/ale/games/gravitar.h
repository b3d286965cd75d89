// Gravitar: BCD score at $87-$89; $81 is the screen (0: start, 1: game over); lives are
// $84 plus one, 6 on the start screen.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Gravitar {
    CULE_HD static void reset(GameState& g) { g.lives = 6; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x89, 0x88, 0x87));
        u8 screen = ram[0x01];
        g.terminal = screen == 0x01;
        g.lives = g.terminal ? 0 : screen == 0 ? 6 : ram[0x04] + 1;
    }
};

}  // namespace cule
