// Cartridges: the ROM image is shared by every environment of a game; each environment keeps
// only its bank state. ALE picks the scheme from the image size and byte signatures; the
// catalogue names it per game.
#pragma once
#include "types.h"

namespace cule {

enum CartScheme : u8 { CART_2K, CART_4K };

struct Cart {
    u8 scheme;
    u8 bank;     // the selected bank, for the bank-switching schemes
};

CULE_HD void cart_reset(Cart& c) { c.bank = 0; }

CULE_INLINE u8 cart_peek(const Cart& c, const u8* rom, u16 addr) {
    return rom[addr & (c.scheme == CART_2K ? 0x07FF : 0x0FFF)];
}

CULE_HD void cart_poke(Cart&, u16, u8) {}   // ROM: writes go nowhere

}  // namespace cule
