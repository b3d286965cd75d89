// Riverraid: six score digits at $CD, $CF .. $D7 (highest first), each a byte holding
// digit * 8; $C0 is the lives byte: $58 at the start, $59 on the last life, else 8 per life. The
// game ends when it drops from $59 to $58.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Riverraid : GameSettings {
    static constexpr const char* md5 = "393948436d1f4cc3192410bb918f9724";
    static constexpr CartScheme scheme = CART_4K;
    static constexpr List difficulties = list(0, 1);
    static constexpr const char* ale_saved = "reward score terminal? lives_byte";
    static constexpr const char* ale_kept = "memory0=lives_byte";

    CULE_HD static void reset(GameState& g) { g.memory[0] = 0x58; }
    CULE_HD static void step(const u8* ram, GameState& g) {
        i32 score = 0;
        for (i32 addr = 0xCD; addr <= 0xD7; addr += 2) {
            u8 b = ram[addr & 0x7F];   // ALE maps 0, 8 .. 72 to 0 .. 9 and any other byte to 0
            score = 10 * score + (b % 8 == 0 && b <= 72 ? b / 8 : 0);
        }
        g.set_score(score);
        i32& last = g.memory[0];    // the lives byte of the last frame
        u8 byte = ram[0x40];
        g.terminal = byte == 0x58 && last == 0x59;
        last = byte;
        g.lives = g.terminal ? 0 : byte == 0x58 ? 4 : byte == 0x59 ? 1 : byte / 8 + 1;
    }
};

}  // namespace cule
