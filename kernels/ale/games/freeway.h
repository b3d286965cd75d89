// Freeway: BCD score at $E7; each frame's reward is clamped to 0..1. The game ends when
// $96 is 1 (the clock ran out). ALE reports no lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Freeway {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x67]));
        g.reward = g.reward < 0 ? 0 : g.reward > 1 ? 1 : g.reward;
        g.terminal = ram[0x16] == 1;
    }
};

}  // namespace cule
