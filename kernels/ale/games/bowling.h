// Bowling: BCD score at $A1 and $A6 (hundreds); the game ends after frame 10 ($A4 > $10).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Bowling : GameSettings {
    static constexpr const char* md5 = "c9b7afad3bfd922e006a6bfc1d4f3fe7";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, DOWN, UPFIRE, DOWNFIRE);
    static constexpr List modes = list(0, 2, 4);
    static constexpr List difficulties = list(0, 1);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x02, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(decimal_score(ram, 0xA1, 0xA6));
        g.terminal = ram[0x24] > 0x10;
    }
};

}  // namespace cule
