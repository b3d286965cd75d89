// VideoCube: the reward is the change in the number of finished faces (six faces of nine
// squares at $A0-$D5, one colour each when finished); the game ends when all six are, or
// when the idle timer $DB runs over from $FF to 0 (reward -1), and the computer takes over.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct VideoCube : GameSettings {
    static constexpr const char* md5 = "3f540a30fdee0b20aed7288e4a5ea528";
    static constexpr CartScheme scheme = CART_4K;
    // ALE numbers a mode cube * 100 + variation, for the variations 0-2 (the game's 1, 3 and 9)
    // of cubes 0-50; cule/reset.py selects them. Cube 0 plays cube 1.
    static constexpr ModeBlocks modes = mode_blocks(list(0, 1, 2), 51, 100);
    static constexpr List difficulties = list(0, 1);
    // About a second on the cube's menu, then FIRE starts the game.
    static constexpr Runs starting_actions = starts(run(NOOP, 61), FIRE, NOOP, NOOP);
    static constexpr const char* ale_saved = "cubeNumber faceCount reward terminal?";
    // memory[0]: finished faces at the last frame; memory[1]: the timer at the last frame, which
    // ALE does not save (a state from ale-py reads it from RAM).
    static constexpr const char* ale_kept = "memory0=faceCount";

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 finished = 0;
        for (i32 face = 0x20; face < 0x20 + 6 * 9; face += 9) {
            bool one_colour = true;
            for (i32 square = face + 1; square < face + 9 && one_colour; ++square) one_colour = ram[square] == ram[face];
            finished += one_colour;
        }
        i32& last_finished = g.memory[0];
        i32& last_timer = g.memory[1];
        bool timed_out = ram[0x5B] == 0 && last_timer == 0xFF;
        last_timer = ram[0x5B];
        g.reward = timed_out ? -1 : finished - last_finished;
        last_finished = finished;
        g.terminal = timed_out || finished == 6;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
