// CrazyClimber: score digits at $82-$85 (x100), never a negative reward; lives at $AA.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct CrazyClimber : GameSettings {
    static constexpr const char* md5 = "55ef7b65066428367844342ed59f956c";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = ram[0x02] + 10 * ram[0x03] + 100 * ram[0x04] + 1000 * ram[0x05];
        g.set_score(100 * score);
        if (g.reward < 0) g.reward = 0;
        i32 lives = ram[0x2A];
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
