// Tutankham: BCD score at $9A, $9C (highest first); lives in the low two bits of $9E; the
// game ends with none left unless $81 is $84.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Tutankham {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9C, 0x9A));
        u8 lives = ram[0x1E];
        g.terminal = lives == 0 && ram[0x01] != 0x84;
        g.lives = g.terminal ? 0 : lives & 0x3;
    }
};

}  // namespace cule
