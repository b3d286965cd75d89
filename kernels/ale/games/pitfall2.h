// Pitfall2: BCD score at $C7-$C9, starting at 4,000. There are no lives (ALE says 1) and the
// game ends only at the highest score, 199,000.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Pitfall2 : GameSettings {
    static constexpr const char* md5 = "6d842c96d5a01967be9680080dd5be54";
    static constexpr CartScheme scheme = CART_DPC;
    static constexpr List starting_actions = list(UP);

    CULE_HD static void reset(GameState& g) { g.score = 4000; g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xC9, 0xC8, 0xC7));
        g.lives = 1;
        g.terminal = g.score == 199000;
    }
};

}  // namespace cule
