// WizardOfWor: BCD score at $86, $88 (lowest first; 8,000 is subtracted above it), x100;
// lives are the low nibble of $8D, read while the player waits (bit 0 of $D7 clear); the game
// ends with none left when $F4 is $F8.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct WizardOfWor : GameSettings {
    static constexpr const char* md5 = "7e8aa18bc9502eb57daaf5e7c1e94da7";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool swap_ports = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE,
        LEFTFIRE, DOWNFIRE);
    static constexpr List difficulties = list(0, 1);
    static constexpr const char* ale_kept = "memory0=lives";

    CULE_HD static void reset(GameState& g) { g.memory[0] = 3; g.lives = 3; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = decimal_score(ram, 0x86, 0x88);
        if (score >= 8000) score -= 8000;
        g.set_score(100 * score);
        i32 shown = ram[0x0D] & 0x0F;
        i32& lives = g.memory[0];
        if ((ram[0x57] & 0x1) == 0) lives = shown;
        g.terminal = shown == 0 && ram[0x74] == 0xF8;
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
