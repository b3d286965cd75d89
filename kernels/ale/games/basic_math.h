// BasicMath: BCD score (right answers) at $84; the game ends on the final score screen, when
// $86 is not 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct BasicMath : GameSettings {
    static constexpr const char* md5 = "819aeeb9a2e11deb54e6de334f843894";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN);
    static constexpr List modes = list(5, 6, 7, 8);
    static constexpr List difficulties = list(0, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xC5, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x04]));
        g.terminal = bcd(ram[0x06]) != 0;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
