// Pac-Man (a PAL image): BCD score in RAM $CC (low), $CE, $D0; lives are $98 plus one; the game
// ends on the last life when the animation counter $E4 is $3F. Modes 0-7 are the game number
// less one in $CC, one player ($E6 = 0).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Pacman : GameSettings {
    static constexpr const char* md5 = "fc2233fc116faef0d3c31541717ca2db";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xCC, 2).plus(1).and_ram(0xE6, 0);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xCC, 0xCE, 0xD0));
        i32 lives = ram[0x18] + 1;   // $98
        g.terminal = lives == 1 && ram[0x64] == 0x3F;   // $E4
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
