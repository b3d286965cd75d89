// Othello: the score is white's discs ($CE, BCD) less black's ($D0). $C0 shows whose turn it
// is, 0 when nobody's: the game ends once it has been 0 for more than 50 frames in a row.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Othello : GameSettings {
    static constexpr const char* md5 = "113cd09c9771ac278544b7e90efe7df2";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT);
    static constexpr List modes = list(0, 1, 2);
    static constexpr List difficulties = list(0, 2);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDE, 2).plus(1);
    static constexpr const char* ale_saved = "reward score terminal? no_input";
    static constexpr const char* ale_kept = "memory0=no_input";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x4E]) - bcd(ram[0x50]));
        i32& frames_without_turn = g.memory[0];
        frames_without_turn = ram[0x40] == 0 ? frames_without_turn + 1 : 0;
        g.terminal = frames_without_turn > 50;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
