// Klax (a PAL image on an F6SC cartridge). Its rules read the Superchip's RAM (through its read
// port, $F080-$F0FF: cart_ram[a & 0x7F]): the BCD score at $F0B4 (low) to $F0B6 (high), the
// misses at $F0EE out of $F0E9, the level at $F09D ($99 once the game is over). The game also
// ends when, while one runs (RIOT RAM $A8 is 4), all 25 cells of the bin ($B3-$CB) hold blocks.
#pragma once
#include "ale/game_settings.h"
#include "ale/game_state.h"

namespace cule {

struct Klax : GameSettings {
    static constexpr const char* md5 = "eed9eaf1a0b6a2b9bc4c8032cb43e3fb";
    static constexpr CartScheme scheme = CART_F6SC;
    static constexpr bool pal = true;
    static constexpr List modes = list(0, 1, 2);   // selected by cule/reset.py: the mode is in cart RAM $F0EA
    static constexpr List starting_actions = list(FIRE, NOOP);
    static constexpr const char* ale_saved = "reward score terminal?";
    static constexpr bool reads_cart_ram = true;

    CULE_HD static void reset(GameState& g) { g.lives = 1; }
    CULE_HD static void step(const u8* ram, const u8* cart_ram, GameState& g) {
        g.set_score(decimal_score(cart_ram, 0xB4, 0xB5, 0xB6));
        const i32 misses = cart_ram[0x6E], max_misses = cart_ram[0x69];
        i32 blocks = 0;
        for (i32 i = 0; i < 25; ++i) {
            const u8 cell = ram[0x33 + i];   // empty cells read 0, 2, 6, 10 or 14
            blocks += cell != 0 && cell != 2 && cell != 6 && cell != 10 && cell != 14;
        }
        g.terminal = (max_misses > 0 && misses == max_misses) || (ram[0x28] == 4 && blocks == 25) ||
                     cart_ram[0x1D] == 0x99;
        g.lives = g.terminal ? 0 : 1;
    }
};

}  // namespace cule
