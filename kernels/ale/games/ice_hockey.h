// IceHockey: the score is the player's goals ($8A, BCD) minus the opponent's ($8B), with
// rewards capped at 1; the game ends when the clock ($87 minutes, $86 seconds) reaches 0. ALE
// reports no lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct IceHockey {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x0A]) - bcd(ram[0x0B]));
        if (g.reward > 1) g.reward = 1;
        g.terminal = ram[0x07] == 0 && ram[0x06] == 0;
    }
};

}  // namespace cule
