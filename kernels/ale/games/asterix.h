// Asterix: BCD score at $DE-$E0, lives in the low nibble of $D3; the game ends when the
// death counter $C7 reaches 1 on the last life.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Asterix : GameSettings {
    static constexpr const char* md5 = "89a68746eff7f266bbf08de2483abe55";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List starting_actions = list(FIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xE0, 0xDF, 0xDE));
        i32 lives = ram[0x53] & 0x0F;
        g.terminal = ram[0x47] == 0x01 && lives == 1;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
