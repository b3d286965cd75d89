// ChopperCommand: BCD score at $EC, $EE (x100), lives in the low nibble of $E4; the game
// counts as over only once it has started (bit 0 of $C2, the chopper facing right, was seen).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct ChopperCommand : GameSettings {
    static constexpr const char* md5 = "c1cb228470a87beb5f36e90ac745da26";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 2);
    // ALE does not save the "started" flag (flags[0]): a state from ale-py reads it from RAM.
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xE0, 2);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * decimal_score(ram, 0xEE, 0xEC));
        i32 lives = ram[0x64] & 0x0F;
        u8& started = g.flags[0];
        started |= ram[0x42] & 1;
        g.terminal = started && lives == 0;
        g.lives = lives;
    }
};

}  // namespace cule
