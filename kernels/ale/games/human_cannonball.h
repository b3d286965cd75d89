// HumanCannonball: BCD score (hits) at $B6 and misses at $B7; the game ends at 7 of either.
// Before play $B6 shows the game number, one more than ALE's mode, and $B7 the players.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct HumanCannonball : GameSettings {
    static constexpr const char* md5 = "7972e5101fa548b952d852db24ad6060";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xB6, 2).plus(1).and_ram(0xB7, 1);
    static constexpr const char* ale_saved = "reward score misses terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x36]));
        g.terminal = g.score == 7 || bcd(ram[0x37]) == 7;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
