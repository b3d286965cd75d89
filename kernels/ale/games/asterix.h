// Asterix: BCD score at $DE-$E0, lives in the low nibble of $D3; the game ends when the
// death counter $C7 reaches 1 on the last life.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Asterix {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xE0, 0xDF, 0xDE));
        i32 lives = ram[0x53] & 0x0F;
        g.terminal = ram[0x47] == 0x01 && lives == 1;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
