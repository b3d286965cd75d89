// Cartridges: the ROM image is shared by every environment of a game; each environment keeps
// only its bank state. ALE picks the scheme from the image size and byte signatures; the
// catalogue names it per game. Bank switching happens on any access to a hotspot, read or
// write, and a read returns the byte of the newly selected bank (Stella's Cart*::peek).
#pragma once
#include "types.h"

namespace cule {

enum CartScheme : u8 {
    CART_2K,   // 2 KiB, mirrored
    CART_4K,   // 4 KiB
    CART_F8,   // 2 x 4 KiB banks, hotspots $FF8-$FF9, power-up bank 1
    CART_F6,   // 4 x 4 KiB banks, hotspots $FF6-$FF9, power-up bank 0
    CART_E0,   // 8 x 1 KiB slices in four segments; $FE0-$FF7 pick the slices of segments 0-2
    CART_FE,   // 2 x 4 KiB banks chosen by address line A13 of each access (no state)
    NUM_CART_SCHEMES
};

// Host facts of each scheme: its name (Stella's) and the ROM size it takes.
constexpr const char* CART_SCHEME_NAMES[NUM_CART_SCHEMES] = {"2K", "4K", "F8", "F6", "E0", "FE"};
constexpr u32 CART_ROM_BYTES[NUM_CART_SCHEMES] = {2048, 4096, 8192, 16384, 8192, 8192};

struct Cart {
    u8 scheme;
    // F8, F6: bank[0] is the 4 KiB bank. E0: bank[i] is the 1 KiB slice in segment i.
    u8 bank[4];
};

CULE_HD void cart_reset(Cart& c) {
    c.bank[0] = c.scheme == CART_F8 ? 1 : 0;
    if (c.scheme == CART_E0) {
        c.bank[0] = 4;
        c.bank[1] = 5;
        c.bank[2] = 6;
        c.bank[3] = 7;
    }
}

// Switches banks if `offset` (the address within the 4 KiB window) is a hotspot.
CULE_INLINE void cart_access(Cart& c, u32 offset) {
    if (offset < 0x0FE0) return;
    switch (c.scheme) {
        case CART_F8:
            if (offset == 0x0FF8 || offset == 0x0FF9) c.bank[0] = (u8)(offset - 0x0FF8);
            break;
        case CART_F6:
            if (offset >= 0x0FF6 && offset <= 0x0FF9) c.bank[0] = (u8)(offset - 0x0FF6);
            break;
        case CART_E0:
            if (offset <= 0x0FF7) c.bank[(offset - 0x0FE0) >> 3] = (u8)(offset & 7);
            break;
        default:
            break;
    }
}

// `addr` is the CPU's full 16-bit address: FE decodes A13, which the 6507 does not bring out.
CULE_INLINE u8 cart_peek(Cart& c, const u8* rom, u16 addr) {
    u32 offset = addr & 0x0FFF;
    switch (c.scheme) {
        case CART_2K: return rom[addr & 0x07FF];
        case CART_4K: return rom[offset];
        case CART_FE: return rom[offset + ((addr & 0x2000) ? 0 : 4096)];
        case CART_E0:
            cart_access(c, offset);
            return rom[(u32)c.bank[offset >> 10] << 10 | (offset & 0x03FF)];
        default:   // F8, F6
            cart_access(c, offset);
            return rom[(u32)c.bank[0] << 12 | offset];
    }
}

// ROM: writes store nothing, but a write to a hotspot switches banks.
CULE_HD void cart_poke(Cart& c, u16 addr) { cart_access(c, addr & 0x0FFF); }

}  // namespace cule
