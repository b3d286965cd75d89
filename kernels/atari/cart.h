// Cartridges: the ROM image is shared by every environment of a game; each environment keeps
// its bank state, and the RAM and registers of the cartridges that carry chips (Superchip, DPC).
// ALE picks the scheme from the image size and byte signatures; the catalogue names it per game.
// Bank switching happens on any access to a hotspot, read or write, and a read returns the byte
// of the newly selected bank (Stella's Cart*::peek).
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
    CART_F8SC, // F8 with a Superchip: 128 bytes of RAM, written at $000-$07F, read at $080-$0FF
    CART_F6SC, // F6 with a Superchip
    CART_DPC,  // Pitfall II's F8 banks with the DPC chip: data fetchers, random numbers, music
    NUM_CART_SCHEMES
};

// Host facts of each scheme: its name (Stella's) and the ROM size it takes. A DPC image is its
// 8 KiB program, the 2 KiB the data fetchers read, and 255 bytes nothing reads.
constexpr const char* CART_SCHEME_NAMES[NUM_CART_SCHEMES] = {"2K", "4K", "F8", "F6", "E0", "FE",
                                                             "F8SC", "F6SC", "DPC"};
constexpr u32 CART_ROM_BYTES[NUM_CART_SCHEMES] = {2048, 4096, 8192, 16384, 8192, 8192, 8192, 16384, 10495};

enum : u32 {
    DPC_DISPLAY_OFFSET = 8192,   // the display ROM follows the program in the image
    DPC_DISPLAY_LAST = 2047,     // a fetcher reads display[2047 - counter]
};

// Pitfall II's DPC chip. Eight data fetchers, each a window over the display ROM: an 11-bit
// counter that counts down at each read, and a flag set when its low byte passes `top` and
// cleared when it passes `bottom`. Fetchers 5-7 can instead count down with the chip's
// oscillator (music mode): their flags make the square waves the music amplitude is read from.
struct Dpc {
    u8 top[8], bottom[8], flag[8];
    u16 counter[8];
    u8 music[3];          // fetchers 5, 6, 7 in music mode
    u8 random;            // 8-bit shift register, never 0
    i32 music_cycles;     // system cycle of the last oscillator update, on the frame's counter
    u64 music_fraction;   // the part of an oscillator clock left over then: a double, as its bits
};

enum : u32 { CART_RAM_BYTES = 128 };   // a Superchip's RAM, at $F000-$F0FF

struct Cart {
    u8 scheme;
    // F8, F6 and their Superchip forms, DPC: bank[0] is the 4 KiB bank. E0: bank[i] is the 1 KiB
    // slice in segment i.
    u8 bank[4];
    u8 padding[3];   // explicit: states move and compare as bytes
    u8 ram[CART_RAM_BYTES];   // Superchip
    Dpc dpc;
};

CULE_HD bool cart_has_superchip(u8 scheme) { return scheme == CART_F8SC || scheme == CART_F6SC; }
CULE_HD bool cart_has_chip(u8 scheme) { return scheme >= CART_F8SC; }   // the schemes after FE

// The cartridge as Stella builds it: all zero but the DPC's random register, which starts at 1.
CULE_HD void cart_power_on(Cart& c, u8 scheme) {
    u8* bytes = (u8*)&c;
    for (u32 i = 0; i < sizeof(Cart); ++i) bytes[i] = 0;
    c.scheme = scheme;
    c.dpc.random = 1;
}

// A system reset: the start-up bank, and for a Superchip fresh RAM, one byte from each of 128
// draws of the System generator (`draw()` gives the next; the RIOT has drawn before). The DPC's
// fetchers, music modes and random register are left as they are; its oscillator restarts.
template <class Draw>
CULE_HD void cart_reset(Cart& c, Draw& draw) {
    c.bank[0] = c.scheme == CART_F8 || c.scheme == CART_F8SC || c.scheme == CART_DPC ? 1 : 0;
    if (c.scheme == CART_E0) {
        c.bank[0] = 4;
        c.bank[1] = 5;
        c.bank[2] = 6;
        c.bank[3] = 7;
    }
    if (cart_has_superchip(c.scheme))
        for (u32 i = 0; i < CART_RAM_BYTES; ++i) c.ram[i] = (u8)draw();
    c.dpc.music_cycles = 0;   // the system cycle count starts again at 0
    c.dpc.music_fraction = 0;
}

// The frame's cycle counter restarts at 0: the DPC's stamp moves with it.
CULE_HD void cart_rebase_cycles(Cart& c, u32 cycles) {
    if (c.scheme == CART_DPC) c.dpc.music_cycles = (i32)((u32)c.dpc.music_cycles - cycles);   // wrapping, as the TIA's stamps
}

// Switches banks if `offset` (the address within the 4 KiB window) is a hotspot.
CULE_INLINE void cart_access(Cart& c, u32 offset) {
    if (offset < 0x0FE0) return;
    switch (c.scheme) {
        case CART_F8:
        case CART_F8SC:
        case CART_DPC:
            if (offset == 0x0FF8 || offset == 0x0FF9) c.bank[0] = (u8)(offset - 0x0FF8);
            break;
        case CART_F6:
        case CART_F6SC:
            if (offset >= 0x0FF6 && offset <= 0x0FF9) c.bank[0] = (u8)(offset - 0x0FF6);
            break;
        case CART_E0:
            if (offset <= 0x0FF7) c.bank[(offset - 0x0FE0) >> 3] = (u8)(offset & 7);
            break;
        default:
            break;
    }
}

CULE_HD u8 cart_bank_byte(const Cart& c, const u8* rom, u32 offset) { return rom[(u32)c.bank[0] << 12 | offset]; }

// The DPC's random numbers: shift left, bringing in the complement of bits 7, 5, 4 and 3 xored.
// The chip clocks it at every access it sees.
CULE_HD void dpc_clock_random(Dpc& d) {
    const u8 r = d.random;
    d.random = (u8)(r << 1 | (~(r >> 7 ^ r >> 5 ^ r >> 4 ^ r >> 3) & 1));
}

CULE_HD double bits_as_double(u64 bits) {
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)bits);
#else
    double v;
    __builtin_memcpy(&v, &bits, 8);
    return v;
#endif
}

CULE_HD u64 double_as_bits(double v) {
#ifdef __CUDA_ARCH__
    return (u64)__double_as_longlong(v);
#else
    u64 bits;
    __builtin_memcpy(&bits, &v, 8);
    return bits;
#endif
}

// Music mode: the oscillator (15,750 Hz against the CPU's 1,193,191.67) has run since the last
// update; each music fetcher's counter low byte counts down through top..0 and round again, and
// its flag says which half of the wave it is in. Stella works this out in doubles from system
// cycles at each amplitude read, carrying the fraction of a clock; so does cule, to round alike.
CULE_HD void dpc_update_music(Dpc& d, u32 cycles) {
    const i32 elapsed = (i32)(cycles - (u32)d.music_cycles);
    d.music_cycles = (i32)cycles;
    const double clocks = 15750.0 * elapsed / 1193191.66666667 + bits_as_double(d.music_fraction);
    const i32 whole = (i32)clocks;
    d.music_fraction = double_as_bits(clocks - (double)whole);
    if (whole <= 0) return;
    for (u32 x = 5; x < 8; ++x) {
        if (!d.music[x - 5]) continue;
        const i32 top = d.top[x];
        i32 low = 0;
        if (top != 0) {
            low = (i32)(d.counter[x] & 0xFF) - whole % (top + 1);
            if (low < 0) low += top + 1;
        }
        if (low <= d.bottom[x]) d.flag[x] = 0x00;
        else if (low <= top) d.flag[x] = 0xFF;
        d.counter[x] = (u16)((d.counter[x] & 0x700) | low);
    }
}

// A read of $000-$03F: fetcher `offset & 7`, what it gives chosen by bits 3-5.
CULE_HD u8 dpc_fetch(Dpc& d, const u8* display, u32 offset, u32 cycles) {
    const u32 i = offset & 7;
    const u8 low = (u8)d.counter[i];
    if (low == d.top[i]) d.flag[i] = 0xFF;
    else if (low == d.bottom[i]) d.flag[i] = 0x00;
    u8 v = 0;
    switch (offset >> 3 & 7) {
        case 0:
            if (i < 4) {
                v = d.random;
            } else {
                // The amplitude mixes the three voices high in their waves, weighing them 4, 5
                // and 6: the chip's levels 0, 4, 5, 9, 6, 10, 11, 15.
                dpc_update_music(d, cycles);
                v = (u8)((d.music[0] && d.flag[5] ? 4 : 0) + (d.music[1] && d.flag[6] ? 5 : 0) +
                         (d.music[2] && d.flag[7] ? 6 : 0));
            }
            break;
        case 1: v = display[DPC_DISPLAY_LAST - d.counter[i]]; break;
        case 2: v = display[DPC_DISPLAY_LAST - d.counter[i]] & d.flag[i]; break;
        case 7: v = d.flag[i]; break;
        default: break;
    }
    if (i < 5 || !d.music[i - 5]) d.counter[i] = (u16)((d.counter[i] - 1) & 0x7FF);
    return v;
}

// A write of $040-$07F: fetcher `offset & 7`, which register chosen by bits 3-5.
CULE_HD void dpc_write(Dpc& d, u32 offset, u8 v) {
    const u32 i = offset & 7;
    const bool music = i >= 5 && d.music[i - 5];
    switch (offset >> 3 & 7) {
        case 0: d.top[i] = v; d.flag[i] = 0; break;
        case 1: d.bottom[i] = v; break;
        case 2: d.counter[i] = (u16)((d.counter[i] & 0x700) | (music ? d.top[i] : v)); break;   // music reloads top
        case 3:
            d.counter[i] = (u16)((v & 7) << 8 | (d.counter[i] & 0xFF));
            if (i >= 5) d.music[i - 5] = (v & 0x10) ? 1 : 0;   // bit 5, the clock source: always the oscillator
            break;
        case 6: d.random = 1; break;
        default: break;
    }
}

// The chips' reads, out of line: the common ones stay small where they are inlined.
// Superchip: RAM reads at $080-$0FF, and a read of the write port ($000-$07F) gives the ROM
// byte beneath it. DPC: its registers at $000-$07F and the hotspot page $FC0-$FFF go through
// the chip, which clocks its random register at each; the program between reads directly.
CULE_NOINLINE u8 cart_peek_chip(Cart& c, const u8* rom, u32 offset, const u32& cycles) {
    if (c.scheme == CART_DPC) {
        if (offset >= 0x080 && offset < 0xFC0) return cart_bank_byte(c, rom, offset);
        dpc_clock_random(c.dpc);
        if (offset < 0x040) return dpc_fetch(c.dpc, rom + DPC_DISPLAY_OFFSET, offset, cycles);
        cart_access(c, offset);
    } else if (offset >= 0x080) {
        return c.ram[offset & 0x7F];
    }
    return cart_bank_byte(c, rom, offset);
}

// Superchip: the write port stores; a write to the read port is lost. DPC: every write reaches
// the chip (random clock), and $040-$07F its registers.
CULE_NOINLINE void cart_poke_chip(Cart& c, u32 offset, u8 v) {
    if (c.scheme == CART_DPC) {
        dpc_clock_random(c.dpc);
        if (offset >= 0x040 && offset < 0x080) {
            dpc_write(c.dpc, offset, v);
            return;
        }
    } else if (offset < 0x080) {
        c.ram[offset] = v;
        return;
    }
    cart_access(c, offset);
}

// FE's bank for `addr`, as the offset of its 4 KiB in the image: the first where A13 is set.
CULE_HD u32 fe_bank_offset(u16 addr) { return (addr & 0x2000) ? 0 : 4096; }

// The ROM byte at `addr` in the banks selected now, as a read there gives it where the read
// switches nothing and reaches no chip. `addr` is the CPU's full 16-bit address: FE decodes
// A13, which the 6507 does not bring out.
CULE_INLINE u8 cart_rom_byte(const Cart& c, const u8* rom, u16 addr) {
    u32 offset = addr & 0x0FFF;
    switch (c.scheme) {
        case CART_2K: return rom[addr & 0x07FF];
        case CART_4K: return rom[offset];
        case CART_FE: return rom[fe_bank_offset(addr) + offset];
        case CART_E0: return rom[(u32)c.bank[offset >> 10] << 10 | (offset & 0x03FF)];
        default: return cart_bank_byte(c, rom, offset);
    }
}

// The cartridge addresses where reads are plain, no hotspot and no chip there: `key` in
// [first, first + count), where key = addr & lines, the address lines the window decodes, and
// the byte is bytes[key & mask]. The bus reads those directly (console.h) and asks again, at
// its address, after any other cartridge access, which may have switched banks. E0: the 1 KiB
// segment of the address; FE: the bank that A13 selects (lines 0x2FFF), so that reads with the
// other A13 fall outside.
struct CartWindow {
    const u8* bytes;
    u32 lines, mask, first, count;
};

CULE_HD CartWindow cart_window(const Cart& c, const u8* rom, u16 addr) {
    const u8* bank = rom + ((u32)c.bank[0] << 12);
    const u32 offset = addr & 0x0FFF, segment = offset >> 10;
    switch (c.scheme) {
        case CART_E0:   // below the hotspots at $FE0 in the last segment
            return {rom + ((u32)c.bank[segment] << 10), 0x0FFF, 0x03FF, segment << 10, segment == 3 ? 0x3E0u : 0x400u};
        case CART_2K: return {rom, 0x0FFF, 0x07FF, 0, 0x1000};
        case CART_4K: return {rom, 0x0FFF, 0x0FFF, 0, 0x1000};
        case CART_FE: return {rom + fe_bank_offset(addr), 0x2FFF, 0x0FFF, (u32)addr & 0x2000, 0x1000};
        case CART_F8: case CART_F6: return {bank, 0x0FFF, 0x0FFF, 0, 0xFE0};   // below the hotspots
        case CART_F8SC: case CART_F6SC: return {bank, 0x0FFF, 0x0FFF, 0x100, 0xFE0 - 0x100};   // past the Superchip's ports
        case CART_DPC: return {bank, 0x0FFF, 0x0FFF, 0x080, 0xFC0 - 0x080};   // between its registers and its hotspot page
        default: return {rom, 0, 0, 0, 0};
    }
}

// The run of a window's bytes that lie in order around a PC: an instruction that starts at
// [lo, lo + len) has its three bytes there, from code[pc - lo] (cpu6502.h, cpu_fetch). A PC in
// another mirror of the cartridge than the one opened at falls outside: the fetch opens it again.
struct FetchWindow {
    const u8* code;
    u32 lo, len;   // len 0: none

    CULE_INLINE bool holds(u32 pc) const { return pc - lo < len; }
    CULE_INLINE const u8* at(u32 pc) const { return code + (pc - lo); }
};

CULE_HD FetchWindow fetch_window(const CartWindow& w, u32 pc) {
    const u32 key = pc & w.lines;
    if (!(pc & 0x1000) || key - w.first >= w.count) return {w.bytes, 0, 0};
    // The keys whose bytes follow each other, bytes[key & mask]: a run of mask + 1 within the window.
    const u32 run = key & ~w.mask, end = run + w.mask + 1 < w.first + w.count ? run + w.mask + 1 : w.first + w.count;
    const u32 begin = run > w.first ? run : w.first;
    if (end - begin < 3) return {w.bytes, 0, 0};
    return {w.bytes + (begin & w.mask), (pc & ~w.lines & 0xFFFF) | begin, end - begin - 2};
}

// `cycles`: the system cycle count, for the DPC's music; by reference, so that only a DPC read
// loads it.
CULE_INLINE u8 cart_peek(Cart& c, const u8* rom, u16 addr, const u32& cycles) {
    const u32 offset = addr & 0x0FFF;
    switch (c.scheme) {
        case CART_2K: case CART_4K: case CART_FE:
            return cart_rom_byte(c, rom, addr);
        case CART_E0: case CART_F8: case CART_F6:
            cart_access(c, offset);
            return cart_rom_byte(c, rom, addr);
        case CART_F8SC: case CART_F6SC:   // the program's reads, past the Superchip's ports
            if (offset < 0x100) break;
            cart_access(c, offset);
            return cart_bank_byte(c, rom, offset);
        default:
            break;
    }
    return cart_peek_chip(c, rom, offset, cycles);
}

// ROM stores nothing, but a write to a hotspot switches banks; the chips take writes.
CULE_HD void cart_poke(Cart& c, u16 addr, u8 v) {
    if (cart_has_chip(c.scheme)) cart_poke_chip(c, addr & 0x0FFF, v);
    else cart_access(c, addr & 0x0FFF);
}

}  // namespace cule
