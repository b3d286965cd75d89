// YarsRevenge: BCD score at $E0-$E2; lives in the high nibble of $9E, the game ends at 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct YarsRevenge : GameSettings {
    static constexpr const char* md5 = "c5930d0e8cdae3e037349bfa08e871be";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 32, 64, 96);
    static constexpr List difficulties = list(0, 1);
    static constexpr List starting_actions = list(FIRE);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xE3, 1).after_select(2);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xE2, 0xE1, 0xE0));
        g.lives = ram[0x1E] >> 4;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
