// Journey Escape: BCD score (the cash) in RAM $92 (low), $91, $90; the game ends when the clock,
// minutes $95 and seconds $96, reaches 0:00. The starting cash of 50,000 is no reward (ALE skips
// any one-frame rise of exactly 50,000). ALE shows 230 rows and reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct JourneyEscape : GameSettings {
    static constexpr const char* md5 = "718ae62c70af4e5fd8e932fee216948a";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u16 display_height = 230;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT,
        DOWNLEFT, RIGHTFIRE, LEFTFIRE, DOWNFIRE, UPRIGHTFIRE, UPLEFTFIRE, DOWNRIGHTFIRE, DOWNLEFTFIRE);
    static constexpr List difficulties = list(0, 1);
    static constexpr List starting_actions = list(FIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x92, 0x91, 0x90));
        if (g.reward == 50000) g.reward = 0;
        g.terminal = ram[0x15] == 0 && ram[0x16] == 0;   // $95, $96
    }
};

}  // namespace cule
