// IceHockey: the score is the player's goals ($8A, BCD) minus the opponent's ($8B), with
// rewards capped at 1; the game ends when the clock ($87 minutes, $86 seconds) reaches 0. ALE
// reports no lives.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct IceHockey : GameSettings {
    static constexpr const char* md5 = "a4c08c4994eb9d24fb78be1793e82e26";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List modes = list(0, 2);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0x80, 2);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(bcd(ram[0x0A]) - bcd(ram[0x0B]));
        if (g.reward > 1) g.reward = 1;
        g.terminal = ram[0x07] == 0 && ram[0x06] == 0;
    }
};

}  // namespace cule
