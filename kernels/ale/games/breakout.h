// Breakout: BCD score in RAM $CD (ones, tens) and the low nibble of $CC (hundreds); lives in
// $B9. The game counts as started once the lives counter has shown 5, and ends at 0 lives.
#pragma once
#include "ale/game_state.h"

namespace cule {

struct Breakout {
    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x4D]) + 100 * (ram[0x4C] & 0x0F));
        u8 lives = ram[0x39];
        u8& started = g.flags[0];
        if (!started && lives == 5) started = 1;
        g.terminal = started && lives == 0;
        g.lives = lives;
    }
};

}  // namespace cule
