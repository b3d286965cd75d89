// LostLuggage: BCD score at $94-$96 (highest first); lives in $CA. The game ends with none
// left once $C8 is $0A and $A5 and $A9 are 0. ALE refuses every FIRE action.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct LostLuggage : GameSettings {
    static constexpr const char* md5 = "2d76c5d1aad506442b9e9fb67765e051";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr u32 legal_actions = minimal_actions;
    static constexpr List modes = list(0, 1);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x94, 2).times(3).plus(1);
    static constexpr List starting_actions = list(FIRE);   // played as it is: ALE does not refuse it here
    static constexpr const char* ale_saved = "reward score terminal? lives";

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x96, 0x95, 0x94));
        i32 lives = ram[0x4A];
        g.terminal = lives == 0 && ram[0x48] == 0x0A && ram[0x25] == 0 && ram[0x29] == 0;
        g.lives = lives;
    }
};

}  // namespace cule
