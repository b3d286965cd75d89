// MiniatureGolf: the reward comes when a hole ($AF, BCD) is left: its par less the strokes
// taken on it. Between holes $88 shows the par (and $87 the hole); during play $88 is 0 and $87
// counts the strokes of the game, wrapping after 99. The game ends when the hole goes back to 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct MiniatureGolf : GameSettings {
    static constexpr const char* md5 = "df62a658496ac98a3aa4a6ee5719c251";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List difficulties = list(0, 1);
    // ALE writes its counters as bools (and cannot read them back): cule keeps none of them.
    static constexpr const char* ale_saved = "reward terminal? levelNumber? levelPar? hits? leftStatus? "
                                             "hitsAtStartOfLevel?";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        u8& hole = g.flags[0];
        u8& par = g.flags[1];
        u8& strokes_shown = g.flags[2];     // $87 as last seen during play
        i32& wrapped = g.memory[0];         // strokes lost to $87 wrapping since the hole began
        i32& strokes_before = g.memory[1];  // $87 when the hole began
        i32 left = bcd(ram[0x07]), right = bcd(ram[0x08]), now = bcd(ram[0x2F]);
        if (now != hole) {
            i32 taken = strokes_shown + wrapped - strokes_before;
            if (taken > 0) g.reward = par - taken;
            if (now == 0) g.terminal = 1;
            hole = (u8)now;
            wrapped = 0;
            strokes_before = strokes_shown;
        }
        if (right != 0) {
            par = (u8)right;
        } else {
            if (left < strokes_shown) wrapped += strokes_shown;
            strokes_shown = (u8)left;
        }
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
