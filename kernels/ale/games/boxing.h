// Boxing: the score is the player's points ($92, BCD; $C0 is a knock-out, 100) minus
// the opponent's ($93); the game ends at a knock-out or when the clock ($90, $91) runs out.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Boxing : GameSettings {
    static constexpr const char* md5 = "c3ef5c4653212088eda54dc91d787870";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 mine = ram[0x12] == 0xC0 ? 100 : bcd(ram[0x12]);
        i32 theirs = ram[0x13] == 0xC0 ? 100 : bcd(ram[0x13]);
        g.set_score(mine - theirs);
        bool time_up = (ram[0x10] >> 4) == 0 && bcd(ram[0x11]) == 0;
        g.terminal = mine == 100 || theirs == 100 || time_up;
    }
};

}  // namespace cule
