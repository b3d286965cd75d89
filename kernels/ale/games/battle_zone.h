// BattleZone: score digits in $9D (high nibble) and $9E (x1000; a digit 10 is a blank),
// lives in the low nibble of $BA.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct BattleZone : GameSettings {
    static constexpr const char* md5 = "41f252a66c6301f1e8ab3612c19bc5d4";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr bool hmove_blanks = false;
    static constexpr List modes = list(1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xA1, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 ones = ram[0x1D] >> 4, tens = ram[0x1E] & 0x0F, hundreds = ram[0x1E] >> 4;
        if (ones == 10) ones = 0;
        if (tens == 10) tens = 0;
        if (hundreds == 10) hundreds = 0;
        g.set_score(1000 * (ones + 10 * tens + 100 * hundreds));
        i32 lives = ram[0x3A] & 0x0F;
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
