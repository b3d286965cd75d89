// RoadRunner: score digits in the low nibbles of $C9-$CC (lowest first, $A is a blank),
// x100; lives are the low three bits of $C4 plus one; the game ends with none left while the
// death animation moves ($B9 or $BD non-zero).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct RoadRunner : GameSettings {
    static constexpr const char* md5 = "ce5cc62608be2cd3ed8abd844efb8919";
    static constexpr CartScheme scheme = CART_F6;

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * nibble_digits(ram, 0xC9, 4));
        i32 lives = ram[0x44] & 0x7;
        g.terminal = lives == 0 && (ram[0x39] != 0 || ram[0x3D] != 0);
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
