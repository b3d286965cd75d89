// Koolaid: BCD score at $80-$81 (highest first), in hundreds; the game ends when $D1 is $80.
// ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Koolaid : GameSettings {
    static constexpr const char* md5 = "534e23210dd1993c828d944c6ac4d9fb";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0x81, 0x80));
        g.terminal = ram[0x51] == 0x80;
    }
};

}  // namespace cule
