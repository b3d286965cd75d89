// MontezumaRevenge: BCD score at $93-$95; lives are the low three bits of $BA plus one;
// the game ends with none left when $FE is $60.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct MontezumaRevenge : GameSettings {
    static constexpr const char* md5 = "3347a6dd59049b15a38394aa2dafa585";
    static constexpr CartScheme scheme = CART_E0;

    CULE_HD static void reset(GameState& g) { g.lives = 6; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x95, 0x94, 0x93));
        u8 lives = ram[0x3A];
        g.terminal = lives == 0 && ram[0x7E] == 0x60;
        g.lives = g.terminal ? 0 : (lives & 0x7) + 1;
    }
};

}  // namespace cule
