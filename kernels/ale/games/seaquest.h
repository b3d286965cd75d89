// Seaquest: BCD score at $B8-$BA; lives are $BB plus one; the game ends when $A3 is
// non-zero.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Seaquest : GameSettings {
    static constexpr const char* md5 = "240bfbac5163af4df5ae713985386f92";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xBA, 0xB9, 0xB8));
        g.terminal = ram[0x23] != 0;
        g.lives = g.terminal ? 0 : ram[0x3B] + 1;
    }
};

}  // namespace cule
