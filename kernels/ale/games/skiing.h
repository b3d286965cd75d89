// Skiing: the score is the time taken, $E8 minutes and $E9-$EA centiseconds (BCD); each
// frame's reward is minus the time elapsed. $91 is $FF at the finish. ALE reports no lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Skiing {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 time = 6000 * ram[0x68] + decimal_score(ram, 0xEA, 0xE9);
        g.reward = g.score - time;
        g.score = time;
        g.terminal = ram[0x11] == 0xFF;
    }
};

}  // namespace cule
