// VideoChess: on white's turn ($E1 = $82), $EE is 0 when black is checkmated (reward 1) and 1
// when white is (reward -1); either ends the game.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct VideoChess : GameSettings {
    static constexpr const char* md5 = "f0b7db930ca0e548c41a97160b9f6275";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List modes = list(0, 1, 2, 3, 4);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEA, 1);
    static constexpr const char* ale_saved = "reward terminal? lives";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        if (ram[0x61] == 0x82) {
            u8 checkmate = ram[0x6E];
            if (checkmate <= 1) {
                g.reward = checkmate == 0 ? 1 : -1;
                g.terminal = 1;
            }
        }
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
