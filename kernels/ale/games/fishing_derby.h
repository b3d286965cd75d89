// FishingDerby: the score is the player's catch ($BD, BCD) minus the opponent's ($BE);
// the game ends when either reaches 99. ALE reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct FishingDerby : GameSettings {
    static constexpr const char* md5 = "b8865f05676e64f3bec72b9defdacfa7";
    static constexpr CartScheme scheme = CART_2K;
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x3D]) - bcd(ram[0x3E]));
        g.terminal = ram[0x3D] == 0x99 || ram[0x3E] == 0x99;
    }
};

}  // namespace cule
