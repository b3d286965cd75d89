// PrivateEye: BCD score at $C8-$CA, starting at 1,000; the game ends when the copyright
// timer $C2 runs past 1. ALE reports no lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct PrivateEye {
    CULE_HD static void reset(GameState& g) { g.score = 1000; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xCA, 0xC9, 0xC8));
        g.terminal = ram[0x42] > 0x01;
    }
};

}  // namespace cule
