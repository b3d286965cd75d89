// Asteroids: BCD score at $BD-$BE (x10), wrapping at 100,000; lives in the high nibble of $BC.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Asteroids {
    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 10 * decimal_score(ram, 0xBE, 0xBD);
        g.reward = score - g.score;
        if (g.reward < 0) g.reward += 100000;   // the counter wrapped
        g.score = score;
        i32 lives = ram[0x3C] >> 4;
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
