// Defender: score digits in the low nibbles of $9C-$A1 (lowest first; $A is a blank), lives at $C2.
#pragma once
#include "../game_state.h"

namespace cule {

struct Defender {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 0;
        for (i32 k = 5; k >= 0; --k) {
            i32 digit = ram[(0x9C + k) & 0x7F] & 0x0F;
            score = 10 * score + (digit == 0x0A ? 0 : digit);
        }
        g.set_score(score);
        i32 lives = ram[0x42];
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
