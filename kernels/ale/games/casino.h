// Casino: the player's chips in BCD at $95 (ones, tens) and $8C (hundreds); $D4 is the game
// (3: poker solitaire, scored when the hand is done, $9E = $AA). In the others ALE takes the
// chips' change only while the player may act ($D3 bit 7 clear) and otherwise keeps the last
// reward (memory[0]); such a game ends out of chips, or once a bet ($9E, BCD) is placed and
// play is under way.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Casino : GameSettings {
    static constexpr const char* md5 = "b816296311019ab69a21cb9e9e235d12";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr Controller left = PADDLES, right = JOYSTICK;
    static constexpr u32 minimal_actions = actions(NOOP, FIRE, UP, DOWN);
    static constexpr List modes = list(0, 2, 3);
    static constexpr List difficulties = list(0, 1, 2, 3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xD4, 2);
    // 60 NOOP frames, then FIRE twice.
    static constexpr List starting_actions = [] {
        List l = {62, {}};
        l.items[60] = l.items[61] = FIRE;
        return l;
    }();
    static constexpr const char* ale_saved = "reward score terminal?";
    static constexpr const char* ale_kept = "memory0=reward";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 chips = decimal_score(ram, 0x95, 0x8C);
        i32& reward = g.memory[0];
        if (ram[0x54] == 3) {
            reward = chips - g.score;
            g.terminal = chips > 0 && ram[0x1E] == 0xAA;
        } else {
            bool input_disabled = ram[0x53] & 0x80;
            if (!input_disabled) reward = chips - g.score;
            g.terminal = chips == 0 || (bcd(ram[0x1E]) > 0 && input_disabled);
        }
        g.score = chips;
        g.reward = reward;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
