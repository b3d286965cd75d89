// BeamRider: BCD score at $89-$8B; lives are $85 + 1, and a lost life only counts once
// $8C is 1; RAM $85 reads $FF when the game is over.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct BeamRider {
    CULE_HD static void reset(GameState& g) { g.lives = 3; g.memory[0] = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x09, 0x0A, 0x0B));
        i32 lives = ram[0x05] + 1;
        i32& kept = g.memory[0];   // ALE's lives counter, also kept past the end of the game
        if (lives != kept - 1 || ram[0x0C] == 0x01) kept = lives;
        g.terminal = ram[0x05] == 0xFF;
        g.lives = g.terminal ? 0 : kept;
    }
};

}  // namespace cule
