// Atlantis: BCD score at $A1-$A3 (x100), lives at $F1 ($FF: game over, which scores nothing).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Atlantis : GameSettings {
    static constexpr const char* md5 = "9ad36e699ef6f45d9eb6c4cf90475c9f";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x8D, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 6; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 100 * decimal_score(ram, 0xA2, 0xA3, 0xA1);
        i32 lives = ram[0x71];
        g.terminal = lives == 0xFF;
        if (!g.terminal) g.set_score(score);   // the last frame's score change is dropped
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
