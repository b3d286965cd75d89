// TimePilot: BCD score at $8D, $8F (lowest first), x100; the game ends when $A0 is
// non-zero; lives (the low three bits of $8B plus one) are read only while the low nibble of $80
// is 2 (in play).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct TimePilot : GameSettings {
    static constexpr const char* md5 = "fc2104dd2dadf9a6176c1c1c8f87ced9";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE,
        LEFTFIRE, DOWNFIRE);
    static constexpr List difficulties = list(0, 1, 2);
    static constexpr const char* ale_kept = "memory0=lives";

    CULE_HD static void reset(GameState& g) { g.memory[0] = 5; g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0x8D, 0x8F));
        i32& lives = g.memory[0];
        if ((ram[0x00] & 0x0F) == 2) lives = (ram[0x0B] & 0x7) + 1;
        g.terminal = ram[0x20] != 0;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
