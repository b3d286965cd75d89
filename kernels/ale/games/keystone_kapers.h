// Keystone Kapers (a PAL image): BCD score in RAM $9C (low) and $9B; lives in $96; the game ends
// with none left when $88 is 0. ALE presses RESET to start it.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct KeystoneKapers : GameSettings {
    static constexpr const char* md5 = "6c1f3f2e359dbf55df462ccbcdd2f6bf";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT, UPFIRE, RIGHTFIRE, LEFTFIRE, DOWNFIRE);
    static constexpr List starting_actions = list(RESET);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x9C, 0x9B));
        i32 lives = ram[0x16];   // $96
        g.terminal = lives == 0 && ram[0x08] == 0;   // $88
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
