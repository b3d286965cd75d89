// Pooyan: BCD score in RAM $8A (low), $89, $88; lives are the low three bits of $96 plus one;
// the game ends with none left when $98 is 5. ALE shows 220 rows from scanline 26. The modes
// (10, 30, 50, 70) are the values $BD shows, after a first SELECT.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Pooyan : GameSettings {
    static constexpr const char* md5 = "4799a40b6e889370b7ee55c17ba65141";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u8 ystart = 26;
    static constexpr u16 display_height = 220;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, DOWN, UPFIRE, DOWNFIRE);
    static constexpr List modes = list(10, 30, 50, 70);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xBD, 2).after_select(2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x8A, 0x89, 0x88));
        u8 lives = ram[0x16];   // $96
        g.terminal = lives == 0 && ram[0x18] == 0x05;   // $98
        g.lives = g.terminal ? 0 : (lives & 0x7) + 1;
    }
};

}  // namespace cule
