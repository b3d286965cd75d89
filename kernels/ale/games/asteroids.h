// Asteroids: BCD score at $BD-$BE (x10), wrapping at 100,000; lives in the high nibble of $BC.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Asteroids : GameSettings {
    static constexpr const char* md5 = "ccbd36746ed4525821a8083b0d6d2c2c";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr bool hmove_blanks = false;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, UPFIRE,
        RIGHTFIRE, LEFTFIRE, DOWNFIRE, UPRIGHTFIRE, UPLEFTFIRE);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 128);
    static constexpr List difficulties = list(0, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 10 * decimal_score(ram, 0xBE, 0xBD);
        g.reward = score - g.score;
        if (g.reward < 0) g.reward += 100000;   // the counter wrapped
        g.score = score;
        i32 lives = ram[0x3C] >> 4;
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
