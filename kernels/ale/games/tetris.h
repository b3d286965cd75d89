// Tetris: BCD score at $F1-$F2 (lowest first); a fall of the score gives no reward. The game
// ends when bit 7 of $F3 is set, and the score counts from 0 again. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Tetris : GameSettings {
    static constexpr const char* md5 = "b0e1ee07fbc73493eac5651a52f90f00";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, DOWN);
    // ALE's "started" is set at every frame before it is read: it holds nothing.
    static constexpr const char* ale_saved = "reward score terminal? started? lives";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = decimal_score(ram, 0xF1, 0xF2);
        g.reward = score > g.score ? score - g.score : 0;
        g.terminal = (ram[0x73] & 0x80) != 0;
        g.score = g.terminal ? 0 : score;
    }
};

}  // namespace cule
