// Venture: BCD score at $C7-$C8, x100; lives are the low three bits of $C6 plus one; the
// game ends with none left when $CD is $FF and bit 7 of $BF is set.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Venture : GameSettings {
    static constexpr const char* md5 = "3e899eba0ca8cd2972da1ae5479b4f0d";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 1, 2, 3);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xC8, 0xC7));
        u8 lives = ram[0x46];
        g.terminal = lives == 0 && ram[0x4D] == 0xFF && (ram[0x3F] & 0x80);
        g.lives = g.terminal ? 0 : (lives & 0x7) + 1;
    }
};

}  // namespace cule
