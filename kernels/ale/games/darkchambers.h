// Dark Chambers (F6SC): BCD score at $CC (low) and $CF (high), in tens; the level in $D5 and
// the health in the low five bits of $CA. The game is over once the health is 0, or the level
// or the score goes down (a new game), and stays over until a reset.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Darkchambers : GameSettings {
    static constexpr const char* md5 = "106855474c69d08c8ffa308d47337269";
    static constexpr CartScheme scheme = CART_F6SC;
    static constexpr bool hmove_blanks = false;
    // ALE waits out the title: 486 frames in which the game ignores its inputs.
    static constexpr Runs starting_actions = starts(run(NOOP, 486));
    static constexpr const char* ale_saved = "reward terminal? health level score";
    static constexpr const char* ale_kept = "memory0=level";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32& level = g.memory[0];
        const i32 new_level = ram[0x55], new_score = 10 * decimal_score(ram, 0xCC, 0xCF);
        if (new_level < level || new_score < g.score) {
            g.terminal = 1;
        } else {
            level = new_level;
            g.set_score(new_score);
            if ((ram[0x4A] & 0x1F) == 0) g.terminal = 1;
        }
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
