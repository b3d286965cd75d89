// DoubleDunk: the score is the player's points ($F6, BCD) minus the opponent's ($F7); the game
// ends when one side has 24 and $FE is $E7.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct DoubleDunk : GameSettings {
    static constexpr const char* md5 = "368d88a6c071caba60b4f778615aae94";
    static constexpr CartScheme scheme = CART_F6;
    static constexpr List modes = list(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    static constexpr List starting_actions = list(UPFIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 mine = bcd(ram[0x76]), theirs = bcd(ram[0x77]);
        g.set_score(mine - theirs);
        g.terminal = (mine >= 24 || theirs >= 24) && ram[0x7E] == 0xE7;
    }
};

}  // namespace cule
