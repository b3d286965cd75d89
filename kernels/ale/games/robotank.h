// Robotank: the score is enemy tanks destroyed: 12 per squadron ($B6) plus $B5; lives are
// the low nibble of $A8 plus one; the game ends with none left when $B4 is $FF.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Robotank : GameSettings {
    static constexpr const char* md5 = "4f618c2429138e0280969193ed6c107e";
    static constexpr CartScheme scheme = CART_FE;

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(12 * ram[0x36] + ram[0x35]);
        u8 lives = ram[0x28];
        g.terminal = lives == 0 && ram[0x34] == 0xFF;
        g.lives = g.terminal ? 0 : (lives & 0x0F) + 1;
    }
};

}  // namespace cule
