// Pong: the score is the player's points minus the computer's; the game ends at 21.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Pong {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 cpu = ram[0x0D], player = ram[0x0E];
        g.set_score(player - cpu);
        g.terminal = cpu == 21 || player == 21;
    }
};

}  // namespace cule
