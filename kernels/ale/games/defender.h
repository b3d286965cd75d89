// Defender: score digits in the low nibbles of $9C-$A1 (lowest first; $A is a blank), lives at $C2.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Defender : GameSettings {
    static constexpr const char* md5 = "0f643c34e40e3f1daafd9c524d3ffe64";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(1, 2, 3, 4, 5, 6, 7, 8, 9, 16);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x9B, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(nibble_digits(ram, 0x9C, 6));
        i32 lives = ram[0x42];
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
