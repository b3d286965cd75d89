// UpNDown: BCD score at $80-$82; lives are the low nibble of $86 plus one; the game ends
// with none left once the death timer $94 passes $40.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct UpNDown {
    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x82, 0x81, 0x80));
        i32 lives = ram[0x06] & 0x0F;
        g.terminal = ram[0x14] > 0x40 && lives == 0;
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
