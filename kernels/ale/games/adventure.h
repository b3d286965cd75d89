// Adventure (a PAL image): one reward, on the frame the chalice ($B9 = $12) is in the yellow
// castle, which ends the game, as does being eaten ($E0 = 2). ALE reports one life throughout.
// Its mode selection draws from ALE's environment RNG (cule/reset.py).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Adventure : GameSettings {
    static constexpr const char* md5 = "4b27f5397c442d25f0c418ccdacf1926";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr Controller right = NO_CONTROLLER;   // Stella still wires a joystick there
    static constexpr List modes = list(0, 1, 2);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr const char* ale_saved = "reward terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        bool chalice_home = ram[0x39] == 0x12;   // $B9
        if (chalice_home) g.reward = 1;
        g.terminal = chalice_home || ram[0x60] == 2;   // $E0
        g.lives = 1;
    }
};

}  // namespace cule
