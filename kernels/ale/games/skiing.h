// Skiing: the score is the time taken, $E8 minutes and $E9-$EA centiseconds (BCD); each
// frame's reward is minus the time elapsed. $91 is $FF at the finish. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Skiing : GameSettings {
    static constexpr const char* md5 = "b76fbadc8ffb1f83e2ca08b6fb4d6c9f";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, RIGHT, LEFT);
    static constexpr u32 legal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List starting_actions = list(DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN,
        DOWN, DOWN, DOWN, DOWN, DOWN, DOWN);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 time = 6000 * ram[0x68] + decimal_score(ram, 0xEA, 0xE9);
        g.reward = g.score - time;
        g.score = time;
        g.terminal = ram[0x11] == 0xFF;
    }
};

}  // namespace cule
