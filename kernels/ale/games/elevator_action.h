// ElevatorAction: BCD score at $87-$89, lives at $83; the game ends with none left once it has
// left its start screen ($81 not 0).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct ElevatorAction : GameSettings {
    static constexpr const char* md5 = "71f8bacfbdca019113f3f0801849057e";
    static constexpr CartScheme scheme = CART_F8SC;
    static constexpr List starting_actions = list(FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE,
                                                  FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE, FIRE);

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x89, 0x88, 0x87));
        g.lives = ram[0x03];
        g.terminal = g.lives == 0 && ram[0x01] != 0x00;
    }
};

}  // namespace cule
