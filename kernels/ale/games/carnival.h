// Carnival: BCD score in RAM $AE (low) and $AD (high), in tens; the game ends when the ammunition
// in $83 runs out. ALE shows 214 rows from scanline 26.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Carnival : GameSettings {
    static constexpr const char* md5 = "028024fb8e5e5f18ea586652f9799c96";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u8 ystart = 26;
    static constexpr u16 display_height = 214;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(10 * decimal_score(ram, 0xAE, 0xAD));
        g.terminal = ram[0x03] == 0;   // $83
    }
};

}  // namespace cule
