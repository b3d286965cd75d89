// Superman: the game ends when Clark Kent (bit 6 of $9F) enters the Daily Bugle (room pointer
// $80-$81 = $F2AC); the reward, then only, is the time left of 99:59 by the clock ($E3 minutes,
// $E2 seconds, BCD).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Superman : GameSettings {
    static constexpr const char* md5 = "a9531c763077464307086ec9a1fd057d";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr const char* ale_saved = "reward time_in_seconds terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 seconds = 60 * bcd(ram[0x63]) + bcd(ram[0x62]);
        i32 room = ram[0x00] | ram[0x01] << 8;
        g.terminal = (ram[0x1F] & 0x40) && room == 0xF2AC;
        g.reward = g.terminal ? 99 * 60 + 59 - seconds : 0;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
