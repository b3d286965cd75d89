// Frogger: BCD score at $CE (lowest) and $CC; lives in $D0, which is $FF at game over. The
// game number in $DD is odd: ALE's mode m is game 2m + 1.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Frogger : GameSettings {
    static constexpr const char* md5 = "081e2c114c9c20b61acf25fc95c71bf4";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN);
    static constexpr List modes = list(0, 1, 2);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDD, 2).times(2).plus(1);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xCE, 0xCC));
        u8 lives = ram[0x50];
        g.terminal = lives == 0xFF;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
