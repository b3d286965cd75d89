// Phoenix: score digits in $C8-$C9 (BCD) and the high nibble of $C7, times 10; $CC is $80
// when the game is over; lives are the low three bits of $CB.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Phoenix : GameSettings {
    static constexpr const char* md5 = "7e52a95074a66640fcfde124fffd491a";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, DOWN, RIGHTFIRE, LEFTFIRE,
        DOWNFIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(10 * (10 * decimal_score(ram, 0xC8, 0xC9) + (ram[0x47] >> 4)));
        g.terminal = ram[0x4C] == 0x80;
        g.lives = g.terminal ? 0 : ram[0x4B] & 0x7;
    }
};

}  // namespace cule
