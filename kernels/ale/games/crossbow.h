// Crossbow: BCD score at $8D-$8B (lowest first); the game ends when $E7 is $82. $8D also
// shows the game number before play, one more than ALE's mode.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Crossbow : GameSettings {
    static constexpr const char* md5 = "8cd26dcf249456fe4aeb8db42d49df74";
    static constexpr CartScheme scheme = CART_F6;
    static constexpr List modes = list(0, 2, 4, 6);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x8D, 2).plus(1);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x8D, 0x8C, 0x8B));
        g.terminal = ram[0x67] == 0x82;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
