// Hangman: the player's (guesser's) BCD score at $EB and the computer's at $EC; the reward is
// the player's gain less the computer's, and a word ends the game when either scores. A game
// also ends when the clock $F1 runs from $FF to 0 without a guess. memory[0], memory[1]: the
// player's and the computer's scores; flags[0]: the clock at the last frame, flags[1]: read yet.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Hangman : GameSettings {
    static constexpr const char* md5 = "f16c709df0a6c52f47ff52b9d95b7d8d";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xEE, 2);
    // ALE does not save the clock it last read: a loaded state reads it afresh.
    static constexpr const char* ale_saved = "reward computerScore playerScore terminal?";
    static constexpr const char* ale_kept = "memory0=playerScore memory1=computerScore";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 player = bcd(ram[0x6B]), computer = bcd(ram[0x6C]);
        g.reward = (player - g.memory[0]) - (computer - g.memory[1]);
        g.memory[0] = player;
        g.memory[1] = computer;
        u8 clock = ram[0x71];
        bool timed_out = g.flags[1] && g.flags[0] == 0xFF && clock == 0;
        g.flags[0] = clock;
        g.flags[1] = 1;
        g.terminal = g.reward != 0 || timed_out;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
