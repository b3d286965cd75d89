// Pong: the score is the player's points minus the computer's; the game ends at 21.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Pong : GameSettings {
    static constexpr const char* md5 = "60e0ea3cbe0913d39803477945e9e5ec";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr Controller left = PADDLES, right = PADDLES;
    static constexpr bool swap_paddles = true;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE);
    static constexpr List modes = list(0, 1);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x96, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 cpu = ram[0x0D], player = ram[0x0E];
        g.set_score(player - cpu);
        g.terminal = cpu == 21 || player == 21;
    }
};

}  // namespace cule
