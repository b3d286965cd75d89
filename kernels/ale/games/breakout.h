// Breakout: BCD score in RAM $CD (ones, tens) and the low nibble of $CC (hundreds); lives in
// $B9. The game counts as started once the lives counter has shown 5, and ends at 0 lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Breakout : GameSettings {
    static constexpr const char* md5 = "f34f08e5eb96e500e851a80be3277a56";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr Controller left = PADDLES, right = JOYSTICK;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT);
    static constexpr List modes = list(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xB2, 1);
    static constexpr const char* ale_saved = "reward score terminal? started? lives";
    static constexpr const char* ale_kept = "flag0=started";

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x4D]) + 100 * (ram[0x4C] & 0x0F));
        u8 lives = ram[0x39];
        u8& started = g.flags[0];
        if (!started && lives == 5) started = 1;
        g.terminal = started && lives == 0;
        g.lives = lives;
    }
};

}  // namespace cule
