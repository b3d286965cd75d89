// SpaceInvaders: BCD score at $E6, $E8 (lowest first), wrapping at 10,000; lives at $C9;
// the game ends at 0 lives or when bit 7 of $98 is set.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct SpaceInvaders : GameSettings {
    static constexpr const char* md5 = "72ffbef6504b75e69ee1045af9075f66";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDC, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = decimal_score(ram, 0xE8, 0xE6);
        g.reward = score - g.score;
        if (g.reward < 0) g.reward += 10000;   // the counter wrapped
        g.score = score;
        i32 lives = ram[0x49];
        g.terminal = (ram[0x18] & 0x80) || lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
