// Krull: BCD score at $9C-$9E; lives are the low three bits of $9F plus one; the game
// ends with none left when $A2 is 3 and $80 is $80.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Krull : GameSettings {
    static constexpr const char* md5 = "4baada22435320d185c95b7dd2bcdb24";
    static constexpr CartScheme scheme = CART_F8;

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9E, 0x9D, 0x9C));
        u8 lives = ram[0x1F];
        g.terminal = lives == 0 && ram[0x22] == 0x03 && ram[0x00] == 0x80;
        g.lives = g.terminal ? 0 : (lives & 0x7) + 1;
    }
};

}  // namespace cule
