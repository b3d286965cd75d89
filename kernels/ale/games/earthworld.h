// Earthworld: BCD score at $A7; the game ends at 10.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Earthworld : GameSettings {
    static constexpr const char* md5 = "5aea9974b975a6a844e6df10d2b861c4";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x27]));
        g.terminal = g.score == 10;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
