// Solaris: BCD score at $DC-$DE (lowest first), x10; lives in the low nibble of $D9, the
// game ends when $D9 is 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Solaris : GameSettings {
    static constexpr const char* md5 = "e72eb8d4410152bdcb69e7fba327b420";
    static constexpr CartScheme scheme = CART_F6;

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(10 * decimal_score(ram, 0xDC, 0xDD, 0xDE));
        g.terminal = ram[0x59] == 0;
        g.lives = g.terminal ? 0 : ram[0x59] & 0x0F;
    }
};

}  // namespace cule
