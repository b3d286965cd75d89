// Kaboom: BCD score at $A3-$A5 (highest first); the game ends when the buckets ($A1) are
// all lost, or at the highest score, 999,999.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Kaboom : GameSettings {
    static constexpr const char* md5 = "5428cdfada281c569c74c7308c7f2c26";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr Controller left = PADDLES, right = JOYSTICK;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT);
    static constexpr List starting_actions = list(FIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xA5, 0xA4, 0xA3));
        g.terminal = ram[0x21] == 0 || g.score == 999999;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
