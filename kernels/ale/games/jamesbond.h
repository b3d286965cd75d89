// Jamesbond: BCD score at $DC-$DE (lowest first); lives are the low nibble of $86 plus
// one; the game ends with none left while $8C shows the death screen ($68).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Jamesbond : GameSettings {
    static constexpr const char* md5 = "e51030251e440cffaab1ac63438b44ae";
    static constexpr CartScheme scheme = CART_E0;
    static constexpr List modes = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x8C, 20);

    CULE_HD static void reset(GameState& g) { g.lives = 6; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xDC, 0xDD, 0xDE));
        i32 lives = ram[0x06] & 0x0F;
        g.terminal = lives == 0 && ram[0x0C] == 0x68;
        g.lives = g.terminal ? 0 : lives + 1;
    }
};

}  // namespace cule
