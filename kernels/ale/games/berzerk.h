// Berzerk: BCD score at $DD-$DF, lives are $DA + 1 ($FF: game over).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Berzerk : GameSettings {
    static constexpr const char* md5 = "136f75c4dd02c29283752b7e5799f978";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2).after_noops(20);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xDF, 0xDE, 0xDD));
        u8 lives = ram[0x5A];
        g.terminal = lives == 0xFF;
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
