// Zaxxon: BCD score at $E8-$E9, x100; lives in the low three bits of $EA, the game ends
// at 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Zaxxon : GameSettings {
    static constexpr const char* md5 = "eea0da9b987d661264cce69a7c13c3bd";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 8, 16, 24);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x82, 10);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xE9, 0xE8));
        g.lives = ram[0x6A] & 0x7;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
