// King Kong (a PAL image): BCD score in RAM $83 (low) and $82 (high); lives in $EE, and the game
// ends when they reach 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct KingKong : GameSettings {
    static constexpr const char* md5 = "0dd4c69b5f9a7ae96a7a08329496779a";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN);
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEC, 2).times(2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x83, 0x82));
        g.lives = ram[0x6E];   // $EE
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
