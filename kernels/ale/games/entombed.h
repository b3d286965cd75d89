// Entombed: the score is the binary byte $E3; the game ends when the low two bits of $C7 (the
// lives) are 0.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Entombed : GameSettings {
    static constexpr const char* md5 = "6b683be69f92958abe0e2a9945157ad5";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 2);
    static constexpr List starting_actions = list(FIRE, NOOP, NOOP, NOOP, NOOP, NOOP);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        g.set_score(ram[0x63]);
        g.terminal = (ram[0x47] & 0x03) == 0;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
