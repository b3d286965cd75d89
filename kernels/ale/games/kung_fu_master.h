// KungFuMaster: BCD score at $98-$9A; lives are the low three bits of $9D plus one,
// which reads $FF when the game is over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct KungFuMaster : GameSettings {
    static constexpr const char* md5 = "5b92a93b23523ff16e2789b820e2a4c5";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, DOWNRIGHT, DOWNLEFT, RIGHTFIRE,
        LEFTFIRE, DOWNFIRE, UPRIGHTFIRE, UPLEFTFIRE, DOWNRIGHTFIRE, DOWNLEFTFIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9A, 0x99, 0x98));
        g.terminal = ram[0x1D] == 0xFF;
        g.lives = g.terminal ? 0 : (ram[0x1D] & 0x7) + 1;
    }
};

}  // namespace cule
