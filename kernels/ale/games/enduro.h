// Enduro: the score counts cars passed: $AD is the day (0 before the race), $AB-$AC
// (BCD) the cars still to pass that day, 200 on day 1 and 300 on later days. $AF is $FF once the
// race is lost. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Enduro : GameSettings {
    static constexpr const char* md5 = "94b92a882f6dbaa6993a46e2dcc58402";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHT, LEFT, DOWN, DOWNRIGHT, DOWNLEFT,
        RIGHTFIRE, LEFTFIRE);
    static constexpr List starting_actions = list(FIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 day = ram[0x2D], score = 0;
        if (day != 0) {
            i32 to_pass = decimal_score(ram, 0xAB, 0xAC);
            score = day == 1 ? 200 - to_pass : 200 + (day - 2) * 300 + 300 - to_pass;
        }
        g.set_score(score);
        g.terminal = ram[0x2F] == 0xFF;
    }
};

}  // namespace cule
