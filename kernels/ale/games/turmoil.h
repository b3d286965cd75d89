// Turmoil: the score is ten times the BCD number at $89-$8A (lowest first) plus $D3; lives in
// $B9, the game ends with none left once $C5 is 1.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Turmoil : GameSettings {
    static constexpr const char* md5 = "7a5463545dfb2dcfdafa6074b2f2c15e";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEA, 2);
    static constexpr List starting_actions = list(FIRE);
    static constexpr const char* ale_saved = "reward score terminal? lives";

    CULE_HD static void reset(GameState& g) { g.lives = 4; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(10 * (decimal_score(ram, 0x89, 0x8A) + ram[0x53]));
        i32 lives = ram[0x39];
        g.terminal = lives == 0 && ram[0x45] == 0x01;
        g.lives = lives;
    }
};

}  // namespace cule
