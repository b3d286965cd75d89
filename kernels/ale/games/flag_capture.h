// FlagCapture: BCD score (flags captured) at $EA; the game ends when the BCD clock $EB is 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct FlagCapture : GameSettings {
    static constexpr const char* md5 = "30512e0e83903fc05541d2f6a6a62654";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List modes = list(8, 9, 10);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xD6, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x6A]));
        g.terminal = bcd(ram[0x6B]) == 0;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
