// Gopher: BCD score at $B0-$B2; the low three bits of $B4 are the carrots left, which are
// the lives; the game ends with none.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Gopher : GameSettings {
    static constexpr const char* md5 = "c16c79aad6272baffb8aae9a7fff0864";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, UPFIRE, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 2);
    static constexpr List difficulties = list(0, 1);
    static constexpr List starting_actions = list(FIRE);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xD3, 5).after_soft_reset();

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xB2, 0xB1, 0xB0));
        u8 carrots = ram[0x34] & 0x7;
        g.terminal = carrots == 0;
        g.lives = (carrots & 1) + ((carrots >> 1) & 1) + (carrots >> 2);
    }
};

}  // namespace cule
