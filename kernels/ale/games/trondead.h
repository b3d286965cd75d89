// Trondead: BCD score at $BD-$BF (highest first); $C8 counts the hits taken, the game ends at
// the fifth.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Trondead : GameSettings {
    static constexpr const char* md5 = "fb27afe896e7c928089307b32e5642ee";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 1);
    static constexpr const char* ale_saved = "reward score terminal? lives";

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xBF, 0xBE, 0xBD));
        i32 hits = ram[0x48];
        g.terminal = hits == 5;
        g.lives = 5 - hits;
    }
};

}  // namespace cule
