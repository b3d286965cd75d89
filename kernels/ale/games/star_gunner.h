// StarGunner: score digits in the low nibbles of $83-$86 (lowest first, $A is a blank),
// x100; lives in the low nibble of $87, the game ends at 0. Until $87 has shown 5 (the game
// started) the lives read 5.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct StarGunner : GameSettings {
    static constexpr const char* md5 = "a3c1c70024d7aabb41381adbfb6d3b25";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xF4, 15);
    static constexpr const char* ale_saved = "reward score terminal? lives game_started?";
    static constexpr const char* ale_kept = "flag0=game_started";

    CULE_HD static void reset(GameState& g) { g.lives = 5; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(100 * nibble_digits(ram, 0x83, 4));
        u8 lives = ram[0x07];
        u8& started = g.flags[0];
        started |= lives == 0x05;
        g.terminal = lives == 0;
        g.lives = g.terminal ? 0 : started ? lives & 0x0F : 5;
    }
};

}  // namespace cule
