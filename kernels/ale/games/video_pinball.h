// VideoPinball: BCD score at $B0, $B2, $B4 (lowest first); bit 0 of $AF ends the game;
// lives are 4 plus an extra ball (bit 0 of $A8) minus the balls played (low three bits of $99).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct VideoPinball : GameSettings {
    static constexpr const char* md5 = "107cc025334211e6d29da0b6be46aec7";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE,
        LEFTFIRE);
    static constexpr List modes = list(0, 2);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xC1, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xB0, 0xB2, 0xB4));
        g.terminal = (ram[0x2F] & 0x1) != 0;
        g.lives = g.terminal ? 0 : 4 + (ram[0x28] & 0x1) - (ram[0x19] & 0x7);
    }
};

}  // namespace cule
