// Qbert: BCD score at $D9-$DB, unchanged on the last frame; $88 is the lives byte ($FE:
// game over; 2 right after a last life of -1 also ends it). A life counts as lost when the byte,
// read as a signed char, drops by exactly one.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Qbert : GameSettings {
    static constexpr const char* md5 = "484b0076816a104875e00467d431c2d2";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u8 ystart = 40;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN);
    static constexpr List difficulties = list(0, 1);
    static constexpr const char* ale_saved = "reward score terminal? last_lives lives";
    static constexpr const char* ale_kept = "memory0=last_lives memory1=lives";

    CULE_HD static void reset(GameState& g) { g.memory[0] = 2; g.memory[1] = 4; g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32& last = g.memory[0];    // the lives byte of the last frame, signed
        i32& lives = g.memory[1];
        u8 byte = ram[0x08];
        g.terminal = byte == 0xFE || (byte == 0x02 && last == -1);
        i32 now = static_cast<i8>(byte);
        if (now == last - 1) lives--;
        last = now;
        if (!g.terminal) g.set_score(decimal_score(ram, 0xDB, 0xDA, 0xD9));
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
