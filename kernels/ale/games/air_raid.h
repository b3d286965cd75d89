// Air Raid (a PAL image): BCD score in RAM $AA (low), $A9, $A8; the game ends when $A7 is $FF.
// Modes 1-8 are the game number in $AA, shown after a first long SELECT.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct AirRaid : GameSettings {
    static constexpr const char* md5 = "35be55426c1fec32dfb503b4f0651572";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr bool pal = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(1, 2, 3, 4, 5, 6, 7, 8);
    static constexpr List starting_actions = list(FIRE);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xAA, 10).after_select(20);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xAA, 0xA9, 0xA8));
        g.terminal = ram[0x27] == 0xFF;   // $A7
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
