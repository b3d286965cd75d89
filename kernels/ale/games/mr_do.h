// Mr. Do! (a PAL image): BCD score in RAM $82 (low) and $83, in tens; lives in $DB; the game
// ends when $DA is $40. Modes 0-3 are the game number in $80.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct MrDo : GameSettings {
    static constexpr const char* md5 = "aa7bb54d2c189a31bb1fa20099e42859";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE, LEFTFIRE,
        DOWNFIRE);
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr List starting_actions = list(FIRE);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 5);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(10 * decimal_score(ram, 0x82, 0x83));
        g.terminal = ram[0x5A] == 0x40;   // $DA
        g.lives = g.terminal ? 0 : ram[0x5B];   // $DB
    }
};

}  // namespace cule
