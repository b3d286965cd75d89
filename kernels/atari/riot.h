// The RIOT 6532: 128 bytes of RAM, the interval timer and the two I/O ports.
// The timer is kept as (value, interval, cycle when set) and read lazily, as Stella 2.4 does,
// including its quirk: past zero the count goes down once per cycle only until INTIM is read;
// from that read on it goes down once per interval again (tests/test_riot.py has the numbers).
#pragma once
#include "types.h"

namespace cule {

enum : u32 { RAM_BYTES = 128 };   // the RIOT's RAM: what ALE's getRAM and setRAM see

struct Riot {
    u8 ram[RAM_BYTES];
    u32 timer;               // value written to TIMxT
    u32 shift;               // log2 of the interval: 0, 3, 6 or 10
    i32 cycles_when_set;     // relative to the frame's cycle counter, like every cycle stamp
    i32 cycles_when_int_reset;
    u8 read_after_int;       // the timer was read after it underflowed
    u8 ddra, ddrb;
    u8 padding[1];  // explicit: states move and compare as bytes
};

// Console inputs as the RIOT ports see them, prepared once per frame from the action.
struct Ports {
    u8 swcha;    // joystick directions, 1 = not pressed
    u8 swchb;    // console switches, 1 = not pressed / difficulty B is 0
};

CULE_HD void riot_reset(Riot& r, u32 random_draw) {
    r.timer = 25 + random_draw % 75;
    r.shift = 6;
    r.cycles_when_set = 0;
    r.cycles_when_int_reset = 0;
    r.read_after_int = 0;
    r.ddra = r.ddrb = 0;
}

// The frame's cycle counter restarts at 0: shift the stamps so that differences stay the same.
CULE_HD void riot_rebase_cycles(Riot& r, u32 cycles) {
    r.cycles_when_set = (i32)((u32)r.cycles_when_set - cycles);   // wrapping around, see riot_quiet_timer_read
    r.cycles_when_int_reset = (i32)((u32)r.cycles_when_int_reset - cycles);
}

// The cycles since TIMxT as Stella counts them at a read at `cycles`.
CULE_HD u32 riot_cycles_counted(const Riot& r, u32 cycles) { return (cycles - 1) - (u32)r.cycles_when_set; }

// Whether `addr` (the CPU's, below the cartridge) reads INTIM or TIMINT.
CULE_HD bool riot_is_timer(u16 addr) { return (addr & 0x1280) == 0x0280 && (addr & 0x04); }

// INTIM (0x04, 0x06) or TIMINT (0x05, 0x07) read at `cycles` where the read changes nothing:
// TIMINT, or INTIM before the timer underflows. Gives its value; -1 for a read riot_peek must
// make, which may be the first after the underflow.
CULE_HD i32 riot_quiet_timer_read(const Riot& r, u16 addr, u32 cycles) {
    // t, the intervals left, is below 0 once the timer has underflowed. The arithmetic of cycle
    // counts here wraps around (u32), as Stella's does in practice: a timer set 2^31 cycles ago
    // (a game that sets it once) must not overflow an i32.
    i32 t = (i32)(r.timer - (riot_cycles_counted(r, cycles) >> r.shift) - 1);
    if (addr & 0x01) return (t >= 0 || r.read_after_int) ? 0x00 : 0x80;
    return t >= 0 ? t : -1;
}

// The first cycle after a read at `cycles` whose read falls in the timer's next interval: quiet
// reads before it give the same value.
CULE_HD u32 riot_next_interval(const Riot& r, u32 cycles) {
    return cycles + ((1u << r.shift) - (riot_cycles_counted(r, cycles) & ((1u << r.shift) - 1)));
}

CULE_HD u8 riot_peek(Riot& r, const Ports& ports, u16 addr, u32 cycles) {
    switch (addr & 0x07) {
        case 0x00: return ports.swcha;   // pins, whatever DDRA says
        case 0x01: return r.ddra;
        case 0x02: return ports.swchb;
        case 0x03: return r.ddrb;
        default: break;
    }
    i32 quiet = riot_quiet_timer_read(r, addr, cycles);
    if (quiet >= 0) return (u8)quiet;
    // INTIM once the timer has underflowed.
    u32 delta = riot_cycles_counted(r, cycles);
    u32 intervals = delta >> r.shift, run = r.timer << r.shift;   // run: cycles to underflow
    i32 t = (i32)(run - delta - 1);
    if (t <= -2 && !r.read_after_int) {
        r.read_after_int = 1;
        r.cycles_when_int_reset = (i32)cycles;
    }
    // Once a read has found it underflowed, Stella counts from that read's cycle.
    if (r.read_after_int) t = (i32)(r.timer - intervals - ((u32)r.cycles_when_int_reset - ((u32)r.cycles_when_set + run)));
    return (u8)t;
}

// log2 of the cycles per timer tick that TIM1T, TIM8T, TIM64T and T1024T set.
CULE_CONST const u8 TIMER_SHIFT[4] = {0, 3, 6, 10};

CULE_HD void riot_poke(Riot& r, u16 addr, u8 value, u32 cycles) {
    if ((addr & 0x07) == 0x01) {
        r.ddra = value;
    } else if ((addr & 0x14) == 0x14) {  // TIM1T, TIM8T, TIM64T, T1024T
        r.timer = value;
        r.shift = TIMER_SHIFT[addr & 0x03];
        r.cycles_when_set = (i32)cycles;
        r.read_after_int = 0;
    }
    // SWCHA writes reach no controller the ALE games use; SWCHB, DDRB and edge control are ignored.
}

}  // namespace cule
