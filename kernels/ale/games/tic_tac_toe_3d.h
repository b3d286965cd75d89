// TicTacToe3D: a won game leaves the return address $F310 at the top of the stack ($FE-$FF):
// the reward is 1 if X ($E1 = $08) won, else -1. A full board ($9A-$D9 all set) ends it drawn.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct TicTacToe3D : GameSettings {
    static constexpr const char* md5 = "0db4f4150fecf77e4ce72ca4d04c052f";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8);
    static constexpr List difficulties = list(0, 2);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x88, 2);
    static constexpr const char* ale_saved = "reward terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        if (ram[0x7F] == 0xF3 && ram[0x7E] == 0x10) {
            g.reward = ram[0x61] == 0x08 ? 1 : -1;
            g.terminal = 1;
        }
        bool board_full = true;
        for (i32 cell = 0x1A; cell <= 0x59; ++cell) board_full = board_full && ram[cell] != 0;
        if (board_full) g.terminal = 1;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
