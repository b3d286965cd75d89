// DonkeyKong: BCD score at $88 (lowest) and $87, in hundreds; lives in $A3. The game ends with
// none left when $8F is 3 and $8B is $1F.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct DonkeyKong : GameSettings {
    static constexpr const char* md5 = "36b20c427975760cb9cf4a47e41369e4";
    static constexpr CartScheme scheme = CART_4K;

    CULE_HD static void reset(GameState& g) { g.lives = 2; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0x88, 0x87));
        i32 lives = ram[0x23];
        g.terminal = lives == 0 && ram[0x0F] == 0x03 && ram[0x0B] == 0x1F;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
