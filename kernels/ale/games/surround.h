// Surround: the score is the player's points ($F7, BCD) minus the opponent's ($F6); the
// game ends at 10. Lives follow ALE's default (1 until the game is over).
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Surround {
    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 mine = bcd(ram[0x77]), theirs = bcd(ram[0x76]);
        g.set_score(mine - theirs);
        g.terminal = mine == 10 || theirs == 10;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
