// Blackjack: the player's chips in BCD at $89 (ones, tens) and $86 (hundreds); out of chips the
// game shows "bbb" ($86 $0B, $89 $BB), a score of 0. The game ends then or at 1,000 chips. ALE
// narrows the paddles' range a little, so that every bet and every play can be chosen.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Blackjack : GameSettings {
    static constexpr const char* md5 = "0a981c03204ac2b278ba392674682560";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr Controller left = PADDLES, right = JOYSTICK;
    static constexpr i32 paddle_max = 795000;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, DOWN);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        bool bust = ram[0x06] == 0x0B && ram[0x09] == 0xBB;
        i32 chips = bust ? 0 : decimal_score(ram, 0x89, 0x86);
        g.set_score(chips);
        g.terminal = bust || chips >= 1000;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
