// BankHeist: BCD score at $D8-$DA, lives at $D5; the game ends when the death timer
// $CE reaches 1 with no lives left.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct BankHeist : GameSettings {
    static constexpr const char* md5 = "00ce0bdd43aed84a983bef38fe7f5ee3";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 4, 8, 12, 16, 20, 24, 28);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xDA, 0xD9, 0xD8));
        i32 lives = ram[0x55];
        g.terminal = ram[0x4E] == 0x01 && lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
