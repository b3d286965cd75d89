// Laser Gates (a PAL image): BCD score in RAM $82 (low), $81, $80; the game ends when $83 (the
// energy) is 0. ALE reports no lives, and presses RESET to start the game.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct LaserGates : GameSettings {
    static constexpr const char* md5 = "8e4cd60d93fcde8065c1a2b972a26377";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr List starting_actions = list(RESET);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0x82, 0x81, 0x80));
        g.terminal = ram[0x03] == 0;   // $83
    }
};

}  // namespace cule
