// MsPacman: BCD score at $F8-$FA (lowest first); lives are the low three bits of $FB plus
// one; the game ends with none left when the death timer $A7 is $53.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct MsPacman : GameSettings {
    static constexpr const char* md5 = "87e79cd41ce136fd4f72cc6e2c161bee";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr bool hmove_blanks = false;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List modes = list(0, 1, 2, 3);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xF8, 0xF9, 0xFA));
        i32 lives = ram[0x7B] & 0x0F;
        g.terminal = lives == 0 && ram[0x27] == 0x53;
        g.lives = g.terminal ? 0 : (lives & 0x7) + 1;
    }
};

}  // namespace cule
