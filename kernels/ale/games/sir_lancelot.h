// Sir Lancelot (a PAL image): BCD score in RAM $A0 (low), $9F, $9E; lives in $A9; the game ends
// with none left when $A7 is $A0. ALE presses RESET, then LEFT, to start it.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct SirLancelot : GameSettings {
    static constexpr const char* md5 = "dd0cbe5351551a538414fb9e37fc56e8";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List starting_actions = list(RESET, LEFT);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xA0, 0x9F, 0x9E));
        i32 lives = ram[0x29];   // $A9
        g.terminal = lives == 0 && ram[0x27] == 0xA0;   // $A7
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
