// UpNDown: BCD score at $80-$82; lives are the low nibble of $86 plus one; the game ends
// with none left once the death timer $94 passes $40.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct UpNDown : GameSettings {
    static constexpr const char* md5 = "a499d720e7ee35c62424de882a3351b6";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u8 ystart = 30;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, DOWN, UPFIRE, DOWNFIRE);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr List starting_actions = list(FIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x82, 0x81, 0x80));
        i32 lives = ram[0x06] & 0x0F;
        g.terminal = ram[0x14] > 0x40 && lives == 0;
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
