// Freeway: BCD score at $E7; each frame's reward is clamped to 0..1. The game ends when
// $96 is 1 (the clock ran out). ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Freeway : GameSettings {
    static constexpr const char* md5 = "8e0ab801b1705a740b476b7f588c6d16";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, UP, DOWN);
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 1);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x67]));
        g.reward = g.reward < 0 ? 0 : g.reward > 1 ? 1 : g.reward;
        g.terminal = ram[0x16] == 1;
    }
};

}  // namespace cule
