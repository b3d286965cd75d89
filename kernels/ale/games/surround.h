// Surround: the score is the player's points ($F7, BCD) minus the opponent's ($F6); the
// game ends at 10. Lives follow ALE's default (1 until the game is over).
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Surround : GameSettings {
    static constexpr const char* md5 = "4d7517ae69f95cfbc053be01312b7dba";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr bool swap_ports = true;
    static constexpr u32 minimal_actions = actions(NOOP, UP, RIGHT, LEFT, DOWN);
    static constexpr List modes = list(0, 2);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xF9, 2).plus(1);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 mine = bcd(ram[0x77]), theirs = bcd(ram[0x76]);
        g.set_score(mine - theirs);
        g.terminal = mine == 10 || theirs == 10;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
