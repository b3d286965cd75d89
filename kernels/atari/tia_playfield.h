// The playfield: 20 cells of 4 pixels a half line, the right half repeated or mirrored.
#pragma once
#include "atari/tia_state.h"

namespace cule {

// The PF bit shown at hpos: 20 cells of 4 pixels per half, the right half mirrored if reflected.
CULE_HD u32 playfield_mask(i32 hpos, u8 reflect) {
    i32 cell = (hpos >= 80 ? hpos - 80 : hpos) >> 2;
    if (reflect && hpos >= 80) cell = 19 - cell;
    if (cell < 4) return 1u << cell;                  // PF0, bits 4..7 of the register
    if (cell < 12) return 0x800u >> (cell - 4);       // PF1, drawn from its bit 7
    return 0x1000u << (cell - 12);                    // PF2, drawn from its bit 0
}

// The playfield's 20 cells of a half line in screen order: PF0 bits 4..7, PF1 bits 7..0, PF2
// bits 0..7 (see playfield_mask).
CULE_HD u32 playfield_cells(u32 pf) {
    return (pf & 0x0000F) | (u32)reverse_bits((u8)(pf >> 4)) << 4 | (pf & 0xFF000);
}

// The low 16 bits of v (8 for a 32-bit window), each widened to 4 pixels.
template <class W>
CULE_HD W widen_to_nibbles(u64 v) {
    if constexpr (sizeof(W) == 8) {
        v &= 0xFFFF;
        v = (v | v << 24) & 0x000000FF000000FFull;
        v = (v | v << 12) & 0x000F000F000F000Full;
        v = (v | v << 6) & 0x0303030303030303ull;
        v = (v | v << 3) & 0x1111111111111111ull;
        return v * 0xF;
    } else {
        u32 w = (u32)v & 0xFF;
        w = (w | w << 12) & 0x000F000Fu;
        w = (w | w << 6) & 0x03030303u;
        w = (w | w << 3) & 0x11111111u;
        return w * 0xF;
    }
}

// The playfield's pixels in the window (W: 64 or 32 pixels) from pixel h.
template <class W = u64>
CULE_HD W playfield_window(u32 pf, u8 reflect, i32 h) {
    constexpr i32 PIXELS = 8 * sizeof(W);
    u32 left = playfield_cells(pf), right = left;
    if (reflect)   // PF2 bits 7..0, PF1 bits 0..7, PF0 bits 7..4
        right = reverse_bits((u8)(pf >> 12)) | (pf >> 4 & 0xFF) << 8 | (u32)reverse_bits((u8)(pf << 4)) << 16;
    u64 cells = ((u64)right << 20 | left) >> (h >> 2);   // bit c: the cell of pixel h & ~3 + 4c
    W bits = widen_to_nibbles<W>(cells) >> (h & 3);
    if ((h & 3) && (cells >> (PIXELS / 4) & 1)) bits |= ~(W)0 << (PIXELS - (h & 3));
    return bits;
}

}  // namespace cule
