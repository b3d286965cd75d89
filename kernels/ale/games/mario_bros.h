// MarioBros: BCD score at $89-$8A (highest first), in hundreds; lives in $87, the game ends
// at none.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct MarioBros : GameSettings {
    static constexpr const char* md5 = "e908611d99890733be31733a979c62d8";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 2, 4, 6);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 5);
    // FIRE starts the game only after 10 frames, held for 7 (the game debounces it).
    static constexpr Runs starting_actions = starts(run(NOOP, 10), run(FIRE, 7));
    static constexpr const char* ale_saved = "reward score lives terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0x8A, 0x89));
        g.lives = ram[0x07];
        g.terminal = g.lives == 0;
    }
};

}  // namespace cule
