// VideoCheckers: the game ends when one side has no pieces left on the board (32 squares in
// four rows of 8, $80, $89, $92, $9B; $10 and $20 are black pieces, $90 and $A0 white): a
// reward of 1 for a win, -1 for a loss, reversed in reverse checkers. ALE never clears that
// reward: it is the reward of every frame after.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct VideoCheckers : GameSettings {
    static constexpr const char* md5 = "539d26b6e9df0da8e7465f0f5ad863b7";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(FIRE, UPRIGHT, UPLEFT, DOWNRIGHT, DOWNLEFT);
    // Games 1-9 and, reversed, 11-19; the mode menu (cule/reset.py) numbers 11-19 as 17-25.
    static constexpr List modes = list(1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19);
    static constexpr const char* ale_saved = "reward terminal?";
    // memory[0]: the reward; flags[0]: reverse checkers, which ALE keeps from the mode (the menu's
    // RAM byte changes during play).
    static constexpr const char* ale_kept = "memory0=reward";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void select_mode(GameState& g, i32 mode) { g.flags[0] = mode >= 11; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 black = 0, white = 0;
        for (i32 row = 0; row < 4; ++row) {
            for (i32 square = 9 * row; square < 9 * row + 8; ++square) {
                u8 piece = ram[square];
                black += piece == 0x10 || piece == 0x20;
                white += piece == 0x90 || piece == 0xA0;
            }
        }
        i32& reward = g.memory[0];
        i32 win = g.flags[0] ? -1 : 1;
        if (black == 0) {
            reward = -win;
            g.terminal = 1;
        } else if (white == 0) {
            reward = win;
            g.terminal = 1;
        }
        g.reward = reward;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
