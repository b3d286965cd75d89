// Frostbite: BCD score at $C8-$CA; lives are the low nibble of $CC plus one; the game
// ends with none left once bit 7 of $F1 is set.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Frostbite : GameSettings {
    static constexpr const char* md5 = "4ca73eb959299471788f0b685c3ba0b5";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 2);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xCA, 0xC9, 0xC8));
        i32 lives = ram[0x4C] & 0x0F;
        g.terminal = lives == 0 && (ram[0x71] & 0x80);
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
