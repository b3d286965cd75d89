// Gravitar: BCD score at $87-$89; $81 is the screen (0: start, 1: game over); lives are
// $84 plus one, 6 on the start screen.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Gravitar : GameSettings {
    static constexpr const char* md5 = "8ac18076d01a6b63acf6e2cab4968940";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 1, 2, 3, 4);
    static constexpr List starting_actions = list(FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE,
        FIRE, FIRE, FIRE, FIRE, FIRE, FIRE);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 10);

    CULE_HD static void reset(GameState& g) { g.lives = 6; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x89, 0x88, 0x87));
        u8 screen = ram[0x01];
        g.terminal = screen == 0x01;
        g.lives = g.terminal ? 0 : screen == 0 ? 6 : ram[0x04] + 1;
    }
};

}  // namespace cule
