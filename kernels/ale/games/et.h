// ET: BCD score at $E1-$DF (lowest first); lives are $E5 plus one, kept by ALE in a signed
// byte ($FF wraps to none, $7F to -128). The game ends with none left when $80 is 8.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Et : GameSettings {
    static constexpr const char* md5 = "615a3bf251a38eb6638cdc7ffbde5480";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 1, 2);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEA, 25).plus(1);
    static constexpr const char* ale_saved = "reward score lives terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xE1, 0xE0, 0xDF));
        i8 lives = (i8)(ram[0x65] + 1);
        g.terminal = lives == 0 && ram[0x00] == 8;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
