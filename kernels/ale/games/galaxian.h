// Galaxian: BCD score at $AE-$AC (lowest first), which wraps at 1,000,000 (ALE counts the
// wrap as the points gained); lives shown are $B9, ALE's lives one more. The game ends when
// bit 7 of $BF is set.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Galaxian : GameSettings {
    static constexpr const char* md5 = "211774f4c5739042618be8ff67351177";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(1, 2, 3, 4, 5, 6, 7, 8, 9);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xB3, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = decimal_score(ram, 0xAE, 0xAD, 0xAC);
        g.reward = score >= g.score ? score - g.score : 1000000 - g.score + score;
        g.score = score;
        g.terminal = (ram[0x3F] & 0x80) != 0;
        g.lives = g.terminal ? 0 : ram[0x39] + 1;
    }
};

}  // namespace cule
