// Amidar: BCD score at $D9-$DB; RAM $D6 holds the lives, $80 when the game is over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Amidar : GameSettings {
    static constexpr const char* md5 = "acb7750b4d0c4bd34969802a7deb2990";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr Controller left = JOYSTICK, right = NO_CONTROLLER;
    static constexpr bool power_on_difficulty_a[2] = {true, true};
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE,
        LEFTFIRE, DOWNFIRE);
    static constexpr List difficulties = list(0, 3);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xD9, 0xDA, 0xDB));
        u8 lives = ram[0x56];
        g.terminal = lives == 0x80;
        g.lives = g.terminal ? 0 : (lives & 0x0F);
    }
};

}  // namespace cule
