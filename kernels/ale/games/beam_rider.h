// BeamRider: BCD score at $89-$8B; lives are $85 + 1, and a lost life only counts once
// $8C is 1; RAM $85 reads $FF when the game is over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct BeamRider : GameSettings {
    static constexpr const char* md5 = "79ab4123a83dc11d468fb2108ea09e2e";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, UPRIGHT, UPLEFT, RIGHTFIRE,
        LEFTFIRE);
    static constexpr List difficulties = list(0, 1);
    static constexpr List starting_actions = list(RIGHT);
    static constexpr const char* ale_kept = "memory0=lives";

    CULE_HD static void reset(GameState& g) { g.lives = 3; g.memory[0] = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x09, 0x0A, 0x0B));
        i32 lives = ram[0x05] + 1;
        i32& kept = g.memory[0];   // ALE's lives counter, also kept past the end of the game
        if (lives != kept - 1 || ram[0x0C] == 0x01) kept = lives;
        g.terminal = ram[0x05] == 0xFF;
        g.lives = g.terminal ? 0 : kept;
    }
};

}  // namespace cule
