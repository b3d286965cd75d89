// DemonAttack: BCD score at $81, $83, $85 (the pattern AB CD EA means 0); lives shown at
// $F2 plus one; the game ends with none shown while $F1 is $BD.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct DemonAttack : GameSettings {
    static constexpr const char* md5 = "f0e0addc07971561ab80d9abe1b8d333";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(1, 3, 5, 7);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEA, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        bool blank = ram[0x01] == 0xAB && ram[0x03] == 0xCD && ram[0x05] == 0xEA;
        g.set_score(blank ? 0 : decimal_score(ram, 0x85, 0x83, 0x81));
        i32 shown = ram[0x72];
        g.terminal = shown == 0 && ram[0x71] == 0xBD;
        g.lives = g.terminal ? 0 : shown + 1;
    }
};

}  // namespace cule
