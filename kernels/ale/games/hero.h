// Hero: BCD score at $B7-$B9; lives at $B3, the game ends at 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Hero : GameSettings {
    static constexpr const char* md5 = "fca4a5be1251927027f2c24774a02160";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 1, 2, 3, 4);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xB9, 0xB8, 0xB7));
        g.lives = ram[0x33];
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
