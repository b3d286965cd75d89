// Pitfall: BCD score at $D5-$D7, starting at 2,000; the high nibble of $80 holds the lives
// as a bar of tally marks ($A: 3, $8: 2, else 1); the game ends with none left once the logo
// timer $9E runs.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Pitfall : GameSettings {
    static constexpr const char* md5 = "3e90cf23106f2e08b2781e41299de556";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List starting_actions = list(UP);

    CULE_HD static void reset(GameState& g) { g.score = 2000; g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xD7, 0xD6, 0xD5));
        u8 marks = ram[0x00] >> 4;
        g.terminal = marks == 0 && ram[0x1E] != 0;
        g.lives = g.terminal ? 0 : marks == 0xA ? 3 : marks == 0x8 ? 2 : 1;
    }
};

}  // namespace cule
