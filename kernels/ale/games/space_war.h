// Space War (a PAL image): the BCD score in RAM $A7; the game ends at 10 points or when the
// timer $80, counting up from $74 every 256 frames, wraps to 0 (about ten minutes). ALE leaves
// out modes 1-5, where one player cannot reach 10; the others are the game number $A7 shows
// (in BCD) while selecting.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct SpaceWar : GameSettings {
    static constexpr const char* md5 = "b702641d698c60bcdc922dbd8c9dd49c";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr bool pal = true;
    static constexpr List modes = list(6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xA7, 2).in_bcd();
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xA7));
        g.terminal = g.score == 10 || ram[0x00] == 0;   // $80
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
