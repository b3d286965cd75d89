// Centipede: BCD score at $F4-$F6, never a negative reward; lives in
// bits 4-6 of $ED plus one; bit 6 of $A6 ends the game.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Centipede : GameSettings {
    static constexpr const char* md5 = "91c2098e88a6b13f977af8c003e0bca5";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(22, 86);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xA7, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xF6, 0xF5, 0xF4));
        if (g.reward < 0) g.reward = 0;
        g.terminal = (ram[0x26] & 0x40) != 0;
        g.lives = g.terminal ? 0 : ((ram[0x6D] >> 4) & 0x7) + 1;
    }
};

}  // namespace cule
