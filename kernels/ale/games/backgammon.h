// Backgammon: no score; the game ends when either side has borne off all 15 pieces, +1 for the
// player, -1 for the computer. Pieces per point at $81-$8D and $8F-$9B (the computer's
// positive, the player's negative), borne off at $80 (player) and $8E (computer). The computer
// uses the board as scratch during its turn, so ALE counts a result only while both sides'
// pieces add up to 15. ALE keeps the reward until the next reset (memory[0]), and widens the
// paddles' range so that the cursor reaches the whole board.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Backgammon : GameSettings {
    static constexpr const char* md5 = "8556b42aa05f94bc29ff39c39b11bff4";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr Controller left = PADDLES, right = JOYSTICK;
    static constexpr i32 paddle_max = 1000000;
    static constexpr u32 minimal_actions = actions(FIRE, RIGHT, LEFT);
    // Mode 0 is the game ALE supports: one player against the computer, set up by the game's
    // option 3. Difficulty 3 is the only one listed, though a reset starts at 0.
    static constexpr List difficulties = list(3);
    static constexpr ModeSelect mode_select = ModeSelect::ram(0xDC, 1).plus(3);
    static constexpr const char* ale_saved = "reward terminal?";
    static constexpr const char* ale_kept = "memory0=reward";

    CULE_HD static void reset(GameState&) {}
    CULE_HD static void step(const u8* ram, GameState& g) {
        // ALE counts in signed bytes, wrapping as they do.
        i8 player_out = (i8)-(i8)ram[0x00], computer_out = (i8)ram[0x0E];
        i8 player_in = 0, computer_in = 0;
        for (i32 point = 0x01; point <= 0x1B; ++point) {
            if (point == 0x0E) continue;   // the computer's borne-off count sits between the halves
            i8 pieces = (i8)ram[point];
            if (pieces > 0) computer_in = (i8)(computer_in + pieces);
            else if (pieces < 0) player_in = (i8)(player_in - pieces);
        }
        bool valid = computer_in + computer_out == 15 && player_in + player_out == 15;
        i32& outcome = g.memory[0];
        if (valid && player_out == 15) {
            g.terminal = 1;
            outcome = 1;
        } else if (valid && computer_out == 15) {
            g.terminal = 1;
            outcome = -1;
        }
        g.reward = outcome;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
