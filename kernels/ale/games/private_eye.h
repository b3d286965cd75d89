// PrivateEye: BCD score at $C8-$CA, starting at 1,000; the game ends when the copyright
// timer $C2 runs past 1. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct PrivateEye : GameSettings {
    static constexpr const char* md5 = "ef3a4f64b6494ba770862768caf04b86";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 1, 2, 3, 4);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr List starting_actions = list(UP);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState& g) { g.score = 1000; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xCA, 0xC9, 0xC8));
        g.terminal = ram[0x42] > 0x01;
    }
};

}  // namespace cule
