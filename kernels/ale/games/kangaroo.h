// Kangaroo: BCD score at $A7-$A8 (x100); lives are the low three bits of $AD plus one,
// which reads $FF when the game is over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Kangaroo : GameSettings {
    static constexpr const char* md5 = "4326edb70ff20d0ee5ba58fa5cb09d60";
    static constexpr CartScheme scheme = CART_F8;
    static constexpr List modes = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xBA, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xA8, 0xA7));
        g.terminal = ram[0x2D] == 0xFF;
        g.lives = g.terminal ? 0 : (ram[0x2D] & 0x7) + 1;
    }
};

}  // namespace cule
