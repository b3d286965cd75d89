// Tutankham: BCD score at $9A, $9C (highest first); lives in the low two bits of $9E; the
// game ends with none left unless $81 is $84.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Tutankham : GameSettings {
    static constexpr const char* md5 = "085322bae40d904f53bdcc56df0593fc";
    static constexpr CartScheme scheme = CART_E0;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 4, 8, 12);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xAB, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9C, 0x9A));
        u8 lives = ram[0x1E];
        g.terminal = lives == 0 && ram[0x01] != 0x84;
        g.lives = g.terminal ? 0 : lives & 0x3;
    }
};

}  // namespace cule
