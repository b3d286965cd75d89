// Assault: BCD score at $80-$82 (highest first), lives at $E5.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Assault : GameSettings {
    static constexpr const char* md5 = "de78b3a064d374390ac0710f95edde92";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x82, 0x81, 0x80));
        i32 lives = ram[0x65];
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
