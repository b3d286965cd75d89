// WordZapper: while the clock ($CF, BCD) runs, the score is the rounds won (2 less $DC, signed:
// $FF after the third) and the game ends at 3 or when the time left ($DE, BCD) is 0; while it
// does not, ALE keeps the last frame's reward and game over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct WordZapper : GameSettings {
    static constexpr const char* md5 = "ec3beb6d8b5689e867bafb5d5f507491";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        21, 22, 23);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDB, 2);
    // The title animation ignores every input for about 8 seconds; then FIRE starts the game.
    static constexpr Runs starting_actions = starts(run(NOOP, 486), FIRE, NOOP, NOOP);
    static constexpr const char* ale_saved = "reward score terminal?";
    static constexpr const char* ale_kept = "memory0=reward";   // memory[0]: the last frame's reward

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32& last_reward = g.memory[0];
        if (bcd(ram[0x4F]) > 0) {
            g.set_score(2 - (i8)ram[0x5C]);
            last_reward = g.reward;
            g.terminal = g.score == 3 || bcd(ram[0x5E]) == 0;
        }
        g.reward = last_reward;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
