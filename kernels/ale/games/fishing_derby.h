// FishingDerby: the score is the player's catch ($BD, BCD) minus the opponent's ($BE);
// the game ends when either reaches 99. ALE reports no lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct FishingDerby {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x3D]) - bcd(ram[0x3E]));
        g.terminal = ram[0x3D] == 0x99 || ram[0x3E] == 0x99;
    }
};

}  // namespace cule
