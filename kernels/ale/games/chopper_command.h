// ChopperCommand: BCD score at $EC, $EE (x100), lives in the low nibble of $E4; the game
// counts as over only once it has started (bit 0 of $C2, the chopper facing right, was seen).
#pragma once
#include "ale/game_state.h"

namespace cule {

struct ChopperCommand {
    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xEE, 0xEC));
        i32 lives = ram[0x64] & 0x0F;
        u8& started = g.flags[0];
        started |= ram[0x42] & 1;
        g.terminal = started && lives == 0;
        g.lives = lives;
    }
};

}  // namespace cule
