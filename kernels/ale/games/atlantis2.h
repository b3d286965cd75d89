// Atlantis2: BCD score at $A1-$A3 (lowest first); $F1 counts the lives and is $FF at game
// over, where ALE stops reading the score.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Atlantis2 : GameSettings {
    static constexpr const char* md5 = "826481f6fc53ea47c9f272f7050eedf7";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, RIGHTFIRE, LEFTFIRE);
    static constexpr const char* ale_saved = "reward score terminal?";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        u8 lives = ram[0x71];
        g.terminal = lives == 0xFF;
        if (!g.terminal) g.set_score(decimal_score(ram, 0xA1, 0xA2, 0xA3));
        g.lives = g.terminal ? 0 : lives;
    }
};

}  // namespace cule
