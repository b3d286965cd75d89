// SpaceInvaders: BCD score at $E6, $E8 (lowest first), wrapping at 10,000; lives at $C9;
// the game ends at 0 lives or when bit 7 of $98 is set.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct SpaceInvaders {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = decimal_score(ram, 0xE8, 0xE6);
        g.reward = score - g.score;
        if (g.reward < 0) g.reward += 10000;   // the counter wrapped
        g.score = score;
        i32 lives = ram[0x49];
        g.terminal = (ram[0x18] & 0x80) || lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
