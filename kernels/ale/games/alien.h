// Alien: five score digits at $83, $85 .. $8B (x10), each a byte holding digit * 8 ($80 is a
// blank 0); lives in the low nibble of $C0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Alien : GameSettings {
    static constexpr const char* md5 = "f1a0a23e6464d954e3a9579c4ccd01c8";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x81, 1);

    CULE_HD static void reset(GameState& g) { g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 0;
        for (i32 addr = 0x83; addr <= 0x8B; addr += 2) {
            u8 b = ram[addr & 0x7F];
            score = 10 * score + (b == 0x80 ? 0 : b >> 3);
        }
        g.set_score(10 * score);
        i32 lives = ram[0x40] & 0x0F;
        g.terminal = lives <= 0;
        g.lives = lives;
    }
};

}  // namespace cule
