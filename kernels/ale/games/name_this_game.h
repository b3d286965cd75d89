// NameThisGame: BCD score at $C4-$C6; lives are the low three bits of $C7, the game ends
// at 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct NameThisGame : GameSettings {
    static constexpr const char* md5 = "36306070f0c90a72461551a7a4f3a209";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(8, 24, 40);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDE, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xC6, 0xC5, 0xC4));
        g.lives = ram[0x47] & 0x7;
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
