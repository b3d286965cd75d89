// Tennis: $C5/$C6 are the points of the player and the opponent in the game, $C7/$C8
// their games in the set; the reward is the change of the games difference, or else of the points
// difference. The set ends at 6 games with a lead of 2, or at 7. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Tennis : GameSettings {
    static constexpr const char* md5 = "42cdd6a9e42a3639e190722b8ea3fc51";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List modes = list(0, 2);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2);
    static constexpr const char* ale_saved = "reward terminal? prev_delta_points prev_delta_score";
    // memory[0], memory[1]: the differences of games and of points at the last frame.
    static constexpr const char* ale_kept = "memory0=prev_delta_points memory1=prev_delta_score";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 my_games = ram[0x47], their_games = ram[0x48];
        i32 games = my_games - their_games, points = ram[0x45] - ram[0x46];
        i32& last_games = g.memory[0];
        i32& last_points = g.memory[1];
        g.reward = games != last_games ? games - last_games : points != last_points ? points - last_points : 0;
        last_games = games;
        last_points = points;
        g.terminal = (my_games >= 6 && games >= 2) || (their_games >= 6 && -games >= 2)
                     || my_games == 7 || their_games == 7;
    }
};

}  // namespace cule
