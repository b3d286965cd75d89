// HauntedHouse: no score; each match used (the BCD count at $82 changes, memory[0] the last
// count) costs 1, escaping with the urn ($99 = $44) brings 100 and ends the game; lives in
// $96, the game ends at none.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct HauntedHouse : GameSettings {
    static constexpr const char* md5 = "f0a6e99f5875891246c3dbecbf2d2cea";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xCC, 2);
    static constexpr const char* ale_saved = "reward matches lives terminal?";
    static constexpr const char* ale_kept = "memory0=matches";

    CULE_HD static void reset(GameState& g) { g.lives = 9; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 matches = bcd(ram[0x02]);
        if (matches != g.memory[0]) {
            g.reward -= 1;
            g.memory[0] = matches;
        }
        bool escaped = ram[0x19] == 0x44;
        if (escaped) g.reward += 100;
        i32 lives = ram[0x16];
        g.terminal = lives == 0 || escaped;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
