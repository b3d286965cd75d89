// The console: CPU, RIOT, TIA and cartridge on one bus, and one ALE frame (Stella's
// TIA::update): run the CPU until the TIA says the frame is over, at most 25,000 instructions.
#pragma once
#include "types.h"
#include "atari/cpu6502.h"
#include "atari/riot.h"
#include "atari/tia.h"
#include "atari/cart.h"
#include "atari/tia_log.h"

namespace cule {

enum : u32 { FRAME_INSTRUCTION_CAP = 25000 };

struct Console {
    Cpu6502 cpu;
    Riot riot;
    Tia tia;
    Ports ports;
    u8 padding0[2];  // explicit: states move and compare as bytes (Cart is 8-byte aligned)
    Cart cart;
    TiaInputs inputs;
    u32 cycles;          // CPU cycles since the frame started
    u8 data_bus;         // last value on the bus: the undriven bits of TIA reads
    u8 last_access_was_read;
    u8 frame_done;       // set by the TIA write that ends the frame
    u8 padding1[5];
};

// Where a frame's TIA and its log's count lie while the CPU runs: the console's and the log's own
// on the host; on the GPU the Bus's copy of the log's fields, and with the warp schedule the
// lane's slot (TiaSlot) for the TIA and the count. The Bus's work out of line takes it by value.
#ifdef __CUDA_ARCH__
struct TiaPlace {
    Tia* tia;
    u32* log_count;    // none unlogged
    TiaEvent* log_events;
    u32 log_step;
};
CULE_HD TiaPlace tia_place(Console& c, TiaLog* log) {
    return {&c.tia, log ? &log->count : nullptr, log ? log->events : nullptr, log ? log->step : 0};
}
CULE_HD Tia& place_tia(const TiaPlace& place, Console&) { return *place.tia; }
CULE_HD void log_event(const TiaPlace& place, TiaLog&, u32 cycles, bool read, u32 addr, u8 value) {
    tia_log_event(place.log_events, place.log_step, *place.log_count, cycles, read, addr, value);
}
#else
struct TiaPlace {};
CULE_HD TiaPlace tia_place(Console&, TiaLog*) { return {}; }
CULE_HD Tia& place_tia(TiaPlace, Console& c) { return c.tia; }
CULE_HD void log_event(TiaPlace, TiaLog& log, u32 cycles, bool read, u32 addr, u8 value) {
    tia_log_event(log.events, log.step, log.count, cycles, read, addr, value);
}
#endif

// The frame buffer a TIA draws into, of the pair at `screen`.
CULE_HD u8* frame_buffer(const Tia& t, u8* screen) { return screen + t.front * frame_pixels(t); }

// The Bus's work out of line (see Bus): each takes what it needs by value and gives back what it
// changes.

// The cartridge's window of plain reads after an access to `addr` (cart_window).
CULE_HOST_NOINLINE CartWindow bus_window(const Console& c, const u8* rom, u16 addr) { return cart_window(c.cart, rom, addr); }

CULE_NOINLINE u8 bus_peek_cart(Console& c, const u8* rom, u16 addr, u32 cycles) {
    return cart_peek(c.cart, rom, addr, cycles);
}

// A read of the TIA or the RIOT (RAM is the Bus's), the data bus's last byte giving the bits the
// TIA does not drive. On the host this and bus_poke_chip are flattened, their drawing out of line
// (tia_draw_lines): g++ had left tia_poke<true> a call of its own (v5, callgrind: Pong about 13K
// and Seaquest 17K host instructions a frame fewer).
template <bool DRAW>
CULE_HOST_FLATTEN CULE_NOINLINE u8 bus_peek_chip(Console& c, u8* fb, TiaLog* log, u16 addr, u32 cycles, u8 data_bus,
                                                 TiaPlace place) {
    if (addr & 0x80) return riot_peek(c.riot, c.ports, addr, cycles);
    if (log) log_event(place, *log, cycles, true, addr, 0);
    Tia& t = place_tia(place, c);
    return tia_peek<DRAW>(t, fb, c.inputs, addr, cycles, data_bus);
}

// What a write to the chips changes of the Bus's: the cycle counter (WSYNC), the frame's end.
enum : u32 { FRAME_STOPPED = 0xC0000000u };
struct ChipWrite {
    u32 cycles;
    u32 stop;   // FRAME_STOPPED where the write ended the frame, else 0: the bits the Bus's `left` takes
};

// A write to the TIA that draws first (tia_poke_drawn, its drawing inline): out of line on the
// host, where the writes that leave their drawing owed, most of them, need no more than
// bus_poke_chip's few registers.
template <bool DRAW>
CULE_HOST_FLATTEN CULE_HOST_NOINLINE ChipWrite bus_poke_drawn(Tia& t, u8* fb, u16 addr, u8 v, u32 cycles,
                                                              bool last_access_was_read, bool end_frame) {
    const bool done = tia_poke_drawn<DRAW>(t, fb, addr, v, cycles, last_access_was_read, end_frame);
    return {cycles, done ? FRAME_STOPPED : 0u};
}

// A write to the TIA or the RIOT's ports and timer (RAM is the Bus's).
template <bool DRAW>
CULE_HOST_FLATTEN CULE_HOST_NOINLINE ChipWrite bus_poke_chip(Console& c, u8* fb, TiaLog* log, u16 addr, u8 v,
                                                             u32 cycles, bool last_access_was_read, TiaPlace place) {
    if (addr & 0x80) {
        riot_poke(c.riot, addr, v, cycles);
        return {cycles, 0};
    }
    if (log) log_event(place, *log, cycles, false, addr, v);
    Tia& t = place_tia(place, c);
    if (DEFER_KEPT_WRITES) {   // tia_poke's two parts, the second out of line
        addr &= TIA_WRITE_MASK;
        const TiaWrite part = tia_poke_owed<DRAW>(t, addr, v, cycles, last_access_was_read);
        if (part == WRITE_OWED) return {cycles, 0};
        return bus_poke_drawn<DRAW>(t, fb, addr, v, cycles, last_access_was_read, part == WRITE_ENDS_FRAME);
    }
    const bool done = tia_poke<DRAW>(t, fb, addr, v, cycles, last_access_was_read);
    return {cycles, done ? FRAME_STOPPED : 0u};
}

// The CPU has just branched back 5 bytes, to `pc`. If a read of the RIOT timer is there, the two
// instructions are a loop that waits for the timer (`LDA INTIM / BNE`, `BIT TIMINT / BPL`), and
// nothing else happens until it ends: run at once its iterations whose reads change nothing
// (riot_quiet_timer_read), at most `budget` instructions. `branch`: the branch's index (execute);
// `a` and `p`: the registers the branch may test besides what the read sets. The loop must lie
// in the cartridge's window of plain reads.
CULE_NOINLINE TimerWait bus_wait_on_timer(Console& c, const CartWindow window, u32 pc, u32 a, u32 p, u32 branch,
                                          u32 budget, u32 cycles) {
    TimerWait w = {0, 0, 0, 0};
    const u32 key = pc & window.lines;
    if (!(pc & 0x1000) || key - window.first >= window.count || key + 4 - window.first >= window.count) return w;
    auto code = [&](u32 i) { return window.bytes[(key + i) & window.mask]; };
    const u8 opcode = code(0);
    const u16 addr = (u16)(code(1) | code(2) << 8);
    if (!m6502::is_poll_read(opcode) || !riot_is_timer(addr)) return w;
    // Cycles per iteration: the read 4, the branch 3, or 4 when it crosses a page.
    const u32 length = (((pc + 5) ^ pc) & 0xFF00) ? 8 : 7;
    u32 n = 0;
    while (n < budget / 2) {
        const u32 read = cycles + 4 + n * length;   // the cycle iteration n reads at
        const i32 v = riot_quiet_timer_read(c.riot, addr, read);
        if (v < 0) break;
        Regs after = {pc, a, 0, 0, 0, p, 0, 0};
        m6502::poll_read(after, opcode, (u32)v);
        if (!m6502::branch_taken(after, branch)) break;
        w.opcode = opcode;
        w.value = (u32)v;
        // The reads before the timer's next interval give the same value.
        const u32 same = (riot_next_interval(c.riot, read) - read + length - 1) / length;
        n = n + same < budget / 2 ? n + same : budget / 2;
    }
    w.cycles = n * length;
    w.instructions = 2 * n;
    if (n) CULE_TRACE_EVENT(WAIT, 0, pc, 2 * n);
    return w;
}

// The GPU's warp schedule keeps a warp's RAM in a tile of its own for each frame: byte k of the
// warp's 32 lanes side by side, so that the lanes of a pass, all at one instruction and most at
// one address, read one word where each lane's console would give it a sector of its own
// (kernel_models/simt_model.py's tiles layout). The state between frames stays the console's
// bytes: console_frame copies the RAM into the tile and back (`lane`: the lane's byte 0).
enum : u32 { WARP_LANES = 32, WARP_RAM_BYTES = RAM_BYTES * WARP_LANES };

CULE_HD void ram_to_warp_tile(const Console& c, u8* lane) {   // the RAM's 8-byte aligned (state_layout)
    for (u32 k = 0; k < RAM_BYTES; k += 8) {
        const u64 w = load_word(c.riot.ram + k);
        CULE_UNROLL
        for (u32 b = 0; b < 8; ++b) lane[(k + b) * WARP_LANES] = (u8)(w >> 8 * b);
    }
}

CULE_HD void ram_from_warp_tile(Console& c, const u8* lane) {
    for (u32 k = 0; k < RAM_BYTES; k += 8) {
        u64 w = 0;
        CULE_UNROLL
        for (u32 b = 0; b < 8; ++b) w |= (u64)lane[(k + b) * WARP_LANES] << 8 * b;
        store_word(c.riot.ram + k, w);
    }
}

// The TIA likewise, in the block's shared memory for the frame, with the count of its log's
// events, which each TIA access reads and writes: each lane's in global memory gave each lane a
// sector of its own at each access, 88% of the state kernel's sectors for the TIA's fields and
// 5% for the count (kernel_models/memory_model.py, beside ncu's 2026-11-26 profile). A lane's
// slot lies every TIA_LANE_WORDS words, an odd number, so that a warp's lanes reading one field
// read 32 different banks: one access, whatever the field. The state kernels' blocks are
// STEP_BLOCK_LANES threads (cule/backends/cuda.py launches them so), for which kernels.cu
// declares the slots: one warp, so that 4,096 envs reach 128 SMs, where blocks of two warps
// filled 64 of an H100's 132 (ncu, 2026-11-26), and an SM's IN_PASSES_WARPS_PER_SM warps are as
// many blocks, within the 32 an SM holds.
struct TiaSlot {
    Tia tia;
    u32 log_count;
};
enum : u32 { TIA_LANE_WORDS = sizeof(TiaSlot) / 4 | 1, STEP_BLOCK_LANES = 32 };
// The in-passes state kernel's launch bound: 16 warps an SM, 128 registers a thread (NVRTC's own
// choice was 144 on sm_90, 14 warps), so that 65,536 envs, 2,048 warps, run at once on an
// H100's 132 SMs (2,112 warps; 1,848 at 14). Its spills (20 bytes on sm_90) lie in the step's
// code around the frame's loop and in the cartridge's calls out of line, and the bound moved no
// part of the interpreter by more than 4 machine instructions (tests/test_sass.py,
// docs/results.md).
enum : u32 { IN_PASSES_WARPS_PER_SM = 16 };
static_assert(sizeof(TiaSlot) % 4 == 0, "a lane's slot is whole words");

// How a warp of the warp schedule runs its frames, kept from frame to frame (a record a warp,
// cule/backends/cuda.py's warp_plans): in passes, in slots, or each lane on its own
// (run_frame_in_passes). Every PLAN_PERIOD frames the warp runs two frames each way, counting
// their cost units and the lanes' instructions, and until the next period runs the way whose cost
// a lane-instruction was the least. A far way, one that cost over PLAN_FAR_QUARTERS / 4 of the
// least, is sampled one period in PLAN_FAR_PERIODS: Beam Rider's passes cost 3-4x per-lane, and
// sampling them every period cost it 1.4-2.3% (simt_model.py, docs/results.md). Where a pair's
// first frame finds its way far, the second runs the cheapest way, the way's record that one
// frame. Zeros: passes, until sampled.
enum Way : u32 { PASSES, SLOTS, LANES, WAYS };
enum : u32 { PLAN_PERIOD = 256, PLAN_FAR_QUARTERS = 5, PLAN_FAR_PERIODS = 8 };
// A sampled frame's cost units: each iteration of the loop, each that meets as a warp (in passes or
// slots), each opcode the iteration's lanes run (a pass runs one); a choice of lanes adds none.
// Weighed to rank the ways as simt_model.py's issued instructions do, warp by warp, leaving no
// game far above per-lane: of whole weights (an iteration 1-10, a meeting 0-4, an opcode 1-4) on
// 42 game-ages (21 games, 100 and 3,000 steps old), these pick ways issuing 0.21% more than the
// fewest and 0.999x per-lane at worst, where (4, 2, 1) picked 0.24% more and 1.028x (Battle
// Zone); on 16 others, the nearest per-lane of 35 games, 1.002x at worst where (4, 2, 1) gave
// 1.027x (docs/results.md; `simt_model.py --units` and `--table --replan` check a run's results).
enum PlanUnit : u32 { UNIT_ITERATION = 2, UNIT_MEET = 3, UNIT_OPCODE = 1 };
struct WarpPlan {
    u32 frames;                               // frames run
    u32 cost[WAYS], instructions[WAYS];       // each way's sampled frames: cost units, lanes' instructions
    u32 pad;

    CULE_HD u32 cheapest() const {   // the way of the least cost a lane-instruction, as sampled
        u32 best = PASSES;
        for (u32 w = PASSES + 1; w < WAYS; ++w)
            if ((u64)cost[w] * instructions[best] < (u64)cost[best] * instructions[w]) best = w;
        return best;
    }
    CULE_HD bool sampled() const {   // whether the next frame is a sample (of way frames % PLAN_PERIOD / 2)
        if (frames % PLAN_PERIOD >= 2 * WAYS) return false;
        const u32 w = frames % PLAN_PERIOD / 2, best = cheapest();
        const bool far = 4 * (u64)cost[w] * instructions[best] > PLAN_FAR_QUARTERS * (u64)cost[best] * instructions[w];
        return !far || frames / PLAN_PERIOD % PLAN_FAR_PERIODS == 0;
    }
    CULE_HD u32 way() const { return sampled() ? frames % PLAN_PERIOD / 2 : cheapest(); }   // the next frame's
};
enum : u32 { PLAN_WORDS = sizeof(WarpPlan) / 4 };
static_assert(sizeof(WarpPlan) % 8 == 0, "plans lie 8-byte aligned");

#ifdef __CUDA_ARCH__
// The warp's RAM tile lies in its block's shared memory (a block is a warp: STEP_BLOCK_LANES),
// named here, where the Bus reads it, so that NVRTC knows the address space: a RAM access is a
// shared load at a 32-bit address (LDS), 4 machine instructions with its address on sm_90, where
// the tile in global memory took 7 (a 64-bit address, the memory descriptor, the load) and the
// per-lane kernel's console takes 6. The lanes of a pass at one byte read one word; lanes at
// different bytes meet in a bank only within a group of 4 lanes and at bytes a multiple of 4
// apart (bank 8 x byte + lane / 4, mod 32): up to 4 ways. Against the per-lane kernel's
// interpreter (Dark Chambers' module, sm_90; the tile in global memory in brackets): an absolute
// address's mode 66 machine instructions (76) against 66, a zero page's 32 (29) against 25, JSR
// 94 (106) against 99, RTS 69 (81) against 75; 128 registers, 20 and 16 bytes of spills stored
// and loaded (28 and 56). A block's shared memory is 8,576 bytes with the TIA slots, 137 KB for
// an SM's IN_PASSES_WARPS_PER_SM blocks (an H100's SM has 228 KB); the tiles in global memory
// held as much of the L1 cache.
// The Bus's lines that read the ROM's window and the RAM share no line number with
// cart_window's (tests/test_sass.py): NVRTC gave the code it merged from two lines of one number
// (Pong's ROM reads, at line 284 of both) the cartridge's location, where sass.py dropped it.
static_assert(u32(STEP_BLOCK_LANES) == u32(WARP_LANES), "a block's RAM tile is one warp's");
__shared__ u8 warp_ram_tile[WARP_RAM_BYTES];
#endif

// Where a lane of the warp schedule keeps its TIA for a frame, its slot of the block's TIA slots,
// and its warp's plan.
struct LaneTiles {
    TiaSlot* slot;
    WarpPlan* plan;
};

// The CPU's view of the 13-bit address space; `fb` is the frame buffer drawn into. With a
// `log`, every TIA access is also logged for the render pass. RAM byte k lies at ram[k * ram_step]:
// the console's own, or its lane's in a warp's tile (ram_to_warp_tile). One Bus type for both
// keeps one copy of the interpreter per kernel: a Bus type for the tile (a second interpreter in
// the module) changed NVRTC's inlining elsewhere, and the split step's state kernel took 122
// registers on sm_90 instead of 84, its render kernel 76 instead of 68.
//
// A Bus lives in registers for a whole frame: its member functions are inlined, and the work done
// out of line (bus_* above) takes the console and the fields it needs by value and gives back what
// it changes, never the Bus. Were the Bus's address to escape into a call, on the host each byte
// the bus writes (RAM, a TIA register) could alias its fields, which would be loaded and stored
// at every access, as the console's own fields were when the Bus worked on them in place (v5
// Pong: the cycle counter read, added to and stored back at every instruction, the data bus and
// its last access stored at every access); on the GPU the Bus would live in local memory. The
// console's fields the Bus keeps (the cycle counter, the data bus and its last access, the
// frame's end) are the console's again after write_back().
template <bool DRAW>
struct Bus {
    Console& c;
    u8* fb;   // the frame buffer the frame draws into (frame_buffer): the TIA's `front` holds for a frame
    const u8* rom;
    TiaLog* log;
    CartWindow window = {nullptr, 0, 0, 0, 0};   // the cartridge's plain reads (cart.h), open_window()
    FetchWindow fetch = {nullptr, 0, 0};         // its run of bytes in order around the PC, open_fetch()
    u8* ram = c.riot.ram;
#ifdef __CUDA_ARCH__
    u32 ram_step = 1;
#else
    static constexpr u32 ram_step = 1;
#endif
    u32 cycles = c.cycles;
    u32 data_bus = c.data_bus | (c.last_access_was_read ? 0 : WRITE_BIT);   // the last access's byte, | WRITE_BIT for a write
    // The instructions the frame may still run less one (cpu_run takes them), -1 once the budget
    // is spent, and FRAME_STOPPED once a write to the TIA has ended the frame or the CPU has
    // halted: one word, which a write that ends the frame ors its flag into (a flag of its own took
    // the host's every chip write two conditional moves and stores). Whether the frame runs on is
    // its sign, which the host's loop tests with the count's decrement, no compare; FRAME_STOPPED's
    // two bits keep it negative past that decrement (v5, callgrind: Pong 12.3K and Seaquest 8.8K
    // host instructions a frame fewer than a count from the cap to 0).
    u32 left = FRAME_INSTRUCTION_CAP - 1;
    TiaPlace place = tia_place(c, log);
    enum : u32 { WRITE_BIT = 0x100 };

    CULE_INLINE bool runs() const { return (i32)left >= 0; }
    CULE_INLINE bool stopped() const { return (i32)left < -1; }
    CULE_INLINE void stop() { left |= FRAME_STOPPED; }

    CULE_INLINE void write_back() {
        c.cycles = cycles;
        c.data_bus = (u8)data_bus;
        c.last_access_was_read = !(data_bus & WRITE_BIT);
    }

    CULE_INLINE u8* frame() { return fb; }
    // A cartridge access may have switched banks: the fetch's window opens again at the next fetch.
    CULE_INLINE void open_window(u16 addr) {
        window = bus_window(c, rom, addr);
        fetch.len = 0;
    }
    CULE_INLINE void open_fetch(u32 pc) { fetch = fetch_window(window, pc); }
    // The data bus after a fetch from the window (cpu_fetch), which read nothing through the bus.
    CULE_INLINE void fetched(u32 last_byte) { data_bus = last_byte; }

    // ROM and RAM, most of the accesses, inline; the chips out of line.
    CULE_INLINE u32 peek(u16 addr) {
        u32 v;
        if (addr & 0x1000) {
            const u32 key = addr & window.lines;
            if (key - window.first < window.count) {
                v = window.bytes[key & window.mask];
            } else {
                v = peek_cart(addr);
            }
        } else if ((addr & 0x280) == 0x80) {
            v = ram[(addr & 0x7F) * ram_step];
        } else {
            v = peek_chip(addr);
        }
        data_bus = v;
        CULE_TRACE_EVENT(READ, v, addr, read_key(addr));
        return v;
    }

    CULE_BUS_INLINE void poke(u16 addr, u8 v) {
        if (addr & 0x1000) {
            cart_poke(c.cart, addr, v);
            open_window(addr);
        } else if ((addr & 0x280) == 0x80) {
            ram[(addr & 0x7F) * ram_step] = v;
        } else {
            const ChipWrite w = bus_poke_chip<DRAW>(c, fb, log, addr, v, cycles, !(data_bus & WRITE_BIT), place);
            cycles = w.cycles;
            left |= w.stop;   // stop(), without a branch or a conditional move
        }
        data_bus = v | WRITE_BIT;
        CULE_TRACE_EVENT(WRITE, v, addr, (addr & 0x1280) == 0x80 ? 0 : cycles);
    }

    CULE_INLINE void add_cycles(u32 n) { cycles += n; }

    // Where the code at `pc` lies, banks told apart: its offset in the ROM where the cartridge's
    // window holds it, else the bank and PC above 2^31 (the warp schedule's order, and traces).
    u32 code_key(u32 pc) const {
        pc &= 0xFFFF;
        const u32 key = pc & window.lines;
        if ((pc & 0x1000) && key - window.first < window.count) return (u32)(window.bytes + (key & window.mask) - rom);
        return 0x80000000u | (u32)c.cart.bank[0] << 16 | pc;
    }
    // The byte at `pc` where the cartridge's window holds it, else ~0: the warp schedule reads
    // the next opcode ahead, which must not be an access.
    u32 code_byte(u32 pc) const {
        pc &= 0xFFFF;
        const u32 key = pc & window.lines;
        return (pc & 0x1000) && key - window.first < window.count ? window.bytes[key & window.mask] : ~0u;
    }
    // What a read of `addr` touched, for traces (kernels/testing/trace.h).
    u32 read_key(u16 addr) const {
        if (addr & 0x1000) return code_key(addr) + 1;
        return (addr & 0x280) == 0x80 ? 0 : cycles;
    }

    // The work out of line takes the fields it needs by value, never the Bus, whose address
    // would keep it in memory.
    CULE_BUS_INLINE u8 peek_cart(u16 addr) {
        const u8 v = bus_peek_cart(c, rom, addr, cycles);
        open_window(addr);
        return v;
    }
    CULE_BUS_INLINE u8 peek_chip(u16 addr) { return bus_peek_chip<DRAW>(c, fb, log, addr, cycles, (u8)data_bus, place); }
    CULE_BUS_INLINE TimerWait wait_on_timer(const Regs& cpu, u32 branch, u32 budget) {
        const TimerWait w = bus_wait_on_timer(c, window, cpu.pc, cpu.a, cpu.p, branch, budget, cycles);
        cycles += w.cycles;
        return w;
    }
};

// Restart the frame's cycle counter at 0, shifting every device's cycle stamps.
CULE_HD void rebase_cycles(Console& c) {
    riot_rebase_cycles(c.riot, c.cycles);
    tia_rebase_cycles(c.tia, c.cycles);
    cart_rebase_cycles(c.cart, c.cycles);
    c.cycles = 0;
}

// Stella's System::reset: RAM survives. The devices draw from the System generator (`draw()`
// gives its next number) in the order the console attached them: the RIOT one for its timer,
// the TIA none, the cartridge 128 for a Superchip's RAM. The display is the game's, except in
// the power-on run that detects PAL (tia_state.h, Display).
template <class Draw>
CULE_HD void console_reset(Console& c, u8* screen, const u8* rom, Draw& draw, const Display& display) {
    rebase_cycles(c);
    riot_reset(c.riot, draw());
    tia_reset(c.tia, screen, screen + display_pixels(display), c.cycles, display);
    cart_reset(c.cart, draw);
    Bus<true> bus = {c, frame_buffer(c.tia, screen), rom, nullptr};
    bus.open_window(bus.c.cpu.pc);
    cpu_reset(c.cpu, bus);
    bus.write_back();
}

#ifdef __CUDA_ARCH__
// Whether the instruction at `pc` is one of a timer-polling loop's two (the read of INTIM or
// TIMINT, or the branch back 5 bytes to it) in the cartridge's window of plain reads. Most
// instructions are neither a timer read nor a branch: one byte tells.
CULE_HD bool polls_timer(const CartWindow& window, u32 pc) {
    auto in_window = [&](u32 p) { return (p & 0x1000) && (p & window.lines) - window.first < window.count; };
    auto code = [&](u32 p) { return window.bytes[(p & window.lines) & window.mask]; };
    if (!in_window(pc)) return false;
    // m6502::is_poll_read and riot_is_timer written out: called from here too, they took NVRTC's
    // plain state kernel (cule_step_logged) from 84 registers to 120 on sm_90.
    const u32 op = code(pc);
    const bool read = op == 0xAD || op == 0xAE || op == 0xAC || op == 0x2C, branch = (op & 0x1F) == 0x10;
    if (!read && !branch) return false;
    const u32 start = read ? pc : (pc - 3) & 0xFFFF;
    for (u32 i = 0; i < 5; ++i)
        if (!in_window((start + i) & 0xFFFF)) return false;
    const u32 addr = code(start + 1) | code(start + 2) << 8;
    const u32 first = code(start);
    return (first == 0xAD || first == 0xAE || first == 0xAC || first == 0x2C) && (addr & 0x1280) == 0x0280 &&
           (addr & 0x04) && (code(start + 3) & 0x1F) == 0x10 && code(start + 4) == 0xFB;
}

// Where a lane is in its program, for the warp schedule's order: the code keys of the JSRs it has
// made since the frame began and not returned from (outermost first, three at most), then its
// own, 16 bits each (the key's low 16 bits + 1; 0 ends the sequence), left-aligned in 64 bits, so
// that comparing two words compares the sequences and code a call leads to sorts after the call
// (kernel_models/simt_model.py's fstack: frame_call_stack_keys). A return from a call made before
// the frame keeps depth 0.
struct CallSites {
    u64 sites = 0;
    u32 depth = 0;

    CULE_INLINE u64 key(u32 code) const {
        return sites | (u64)((code & 0xFFFF) + 1) << (48 - 16 * (depth < 3 ? depth : 3));
    }
    CULE_INLINE void enter(u32 code) {   // a JSR at `code`
        if (depth < 3) sites |= (u64)((code & 0xFFFF) + 1) << (48 - 16 * depth);
        ++depth;
    }
    CULE_INLINE void leave() {   // an RTS or RTI
        if (depth == 0) return;
        --depth;
        if (depth < 3) sites &= ~((u64)0xFFFF << (48 - 16 * depth));
    }
};

// A frame's instructions with the warp schedule: the lanes of a warp that run this loop run their
// instructions in passes. A pass takes the lanes first in program order (CallSites: the call
// sites, then the code, banks told apart), lanes polling the timer after every other (they wait
// while the others work), and every lane whose next opcode is theirs joins it (another copy of
// the same code, say, which runs the same cases of the interpreter); the rest wait for a later
// pass. Every lane runs its own instructions in its own order, so only the sharing changes
// (kernel_models/simt_model.py's fstack+wait+join policy; envs 3,000 steps old, lanes a pass: Ms.
// Pac-Man 16.3 where the lowest code first gives 9.8, the other four 12.3 to 30.2). The lanes stay
// in the loop until all are done: a lane done gives no key (~0, above any other), and the loop
// ends when no lane gives one. In passes, where every lane in the frame is at one instruction in
// the window, the pass is all of them, found with a reduction and a vote (by the SIMT model, 128 envs 100
// steps old: 89% of Pong's passes, 36% of Ms. Pac-Man's, 1% of Seaquest's); else four reductions
// choose: the polling flag and the key's high 16 bits, its middle 32 bits, its low 16 bits, the
// chosen lanes' opcode.
//
// Where lanes stay far apart (River Raid, Adventure, Alien 3,000 steps after a reset, by the model)
// passes cost more than the lanes' own instructions would, so the warp's plan (WarpPlan) picks one
// of three ways a frame:
//   PASSES  as above;
//   SLOTS   every candidate lane its own instruction (a slot) instead of a pass where that runs more
//           lanes an opcode's case (candidates x 2 > lanes of the pass x (1 + the candidates'
//           opcodes)), and then STICK - 1 slots of every lane without choosing
//           (simt_model.py's fstack+wait+join+slot1+stick4);
//   LANES   every lane its own instructions, as the split step's state kernel (Amidar, Battle Zone:
//           slots pay for choices that find nothing); the lanes do not meet, but in sampled frames,
//           and run on to the frame's end in the loop around cpu_run: a test an instruction, where
//           a turn of the outer loop tested its way and a call's (a second copy of the interpreter
//           for this way took NVRTC 172 registers, and at the bound spilled 76 bytes).
// Cost units (PlanUnit) are counted in the sampled frames alone.
template <class Bus>
CULE_INLINE void run_frame_in_passes(Regs& cpu, Bus& bus, WarpPlan* plan) {
    enum : u32 { NONE = ~0u, OTHER = 0x100, JSR = 0x20, RTS = 0x60, RTI = 0x40, STICK = 4 };
    enum : u32 { COUNTING = 4 };
    const u32 lanes = warp_lanes();
    // the way, and COUNTING where the frame is sampled: one for the warp, as every lane's loop
    // meets; one word, as each word live through the loop took NVRTC a few registers more
    const u32 mode = warp_min(lanes, plan->way() | (plan->sampled() ? COUNTING : 0));
    // Each lane's opcode's lanes' lowest (`same`: the lanes with the same value): the opcodes run.
    auto opcodes = [&](bool runs, u32 opcode) {
        const u32 same = warp_match(lanes, runs ? opcode : OTHER);
        return popcount(warp_ballot(lanes, runs && (same & (~same + 1)) == 1u << (threadIdx.x % 32)));
    };
    CallSites calls;
    // LANES: a slot of every lane every iteration, as held slots do; unsampled (mode == LANES) the
    // lanes do not even meet
    u32 held = mode % COUNTING == LANES ? NONE : 0, cost = 0, n = 0;
    for (;;) {
        const bool runs = bus.runs();
        u32 code = 0, opcode = NONE;
        bool run = runs;
        if (mode == LANES) {   // alone
            if (!runs) break;
        } else {
            code = bus.code_key(cpu.pc);
            opcode = runs ? bus.code_byte(cpu.pc) : NONE;
            if (held) {   // a slot of every lane
                if (!warp_ballot(lanes, runs)) break;
                if (mode & COUNTING)   // LANES meets only to count: its units are those of lanes alone
                    cost += UNIT_ITERATION + (mode % COUNTING == LANES ? 0 : UNIT_MEET) + UNIT_OPCODE * opcodes(runs, opcode);
                --held;
            } else if (const u32 least = mode == PASSES ? warp_min(lanes, runs ? code : NONE) : 0;
                       mode == PASSES && warp_ballot(lanes, !runs || (code == least && opcode != NONE)) == lanes) {
                if (least == NONE) break;   // no lane runs
                // in passes, every lane in the frame at one instruction in the window: the choice
                // would take them all, so it is not made. Not in slots, where lanes lie apart and
                // the test cost more than it saved (Seaquest 1.3% more, by the SIMT model), nor in
                // the frames that sample passes (`mode % COUNTING` there took NVRTC 12 bytes more
                // of spills on sm_90)
                cost += UNIT_ITERATION + UNIT_MEET + UNIT_OPCODE;
            } else {
                const u64 key = calls.key(code);
                const u32 head = runs ? (polls_timer(bus.window, cpu.pc) ? 1u << 16 : 0) | (u32)(key >> 48) : NONE;
                const u32 first = warp_min(lanes, head);
                if (first == NONE) break;
                const u32 middle = warp_min(lanes, head == first ? (u32)(key >> 16) : NONE);
                const u32 tail = head == first && (u32)(key >> 16) == middle ? (u32)key & 0xFFFF : NONE;
                const bool chosen = tail == warp_min(lanes, tail);
                const u32 shared = warp_min(lanes, chosen ? opcode : NONE);
                run = chosen || (opcode == shared && shared != NONE);
                cost += UNIT_ITERATION + UNIT_MEET + UNIT_OPCODE;
                if (mode % COUNTING == SLOTS) {
                    const bool candidate = runs && (head ^ first) >> 16 == 0;   // polling as the first is
                    const u32 distinct = opcodes(candidate, opcode);
                    if (popcount(warp_ballot(lanes, candidate)) * 2 > popcount(warp_ballot(lanes, run)) * (1 + distinct)) {
                        cost += UNIT_OPCODE * (distinct - 1);
                        run = candidate;
                        held = STICK - 1;
                    }
                }
            }
        }
        if (run) {
            if (opcode == JSR)
                calls.enter(code);
            do n += cpu_run(cpu, bus);   // LANES: on to the frame's end
            while (mode == LANES && bus.runs());
            if (opcode == RTS || opcode == RTI)
                calls.leave();
        }
    }
    // every lane reads the plan before any writes it (the same words): they meet between, in warp_sum
    const u32 frames = plan->frames, w = frames % PLAN_PERIOD / 2;
    const bool sampled = plan->sampled();
    const u32 was_cost = sampled ? plan->cost[w] : 0, was_instructions = sampled ? plan->instructions[w] : 0;
    const u32 ran = warp_sum(lanes, n);   // the lanes' instructions, timer waits' included
    plan->frames = frames + 1;
    if (sampled) {   // a pair's first frame begins the way's count
        plan->cost[w] = frames % 2 * was_cost + cost;
        plan->instructions[w] = frames % 2 * was_instructions + ran;
    }
}
#endif

// One ALE frame. DRAW = false latches collisions without writing pixels; a `log` records the
// frame for the render pass; IN_PASSES: the GPU's warp schedule (run_frame_in_passes), the RAM
// in the block's tile and the TIA in the lane's `tiles` for the frame.
template <bool DRAW, bool IN_PASSES = false>
CULE_HD void console_frame(Console& c, u8* screen, const u8* rom, TiaLog* log = nullptr, LaneTiles tiles = {}) {
    bool began = !c.tia.partial_frame;
    if (began) {
        u32 clocks = tia_clocks_into_frame_line(c.tia, c.cycles);
        rebase_cycles(c);
        tia_start_frame(c.tia, clocks);
    }
    c.tia.partial_frame = 1;
    c.frame_done = 0;
    Bus<DRAW> bus = {c, frame_buffer(c.tia, screen), rom, log};   // the cycle counter from here on the Bus's, until write_back
#ifdef __CUDA_ARCH__
    if (IN_PASSES) {
        bus.ram = warp_ram_tile + threadIdx.x % WARP_LANES;
        bus.ram_step = WARP_LANES;
        ram_to_warp_tile(c, bus.ram);
        tiles.slot->tia = c.tia;
        bus.place.tia = &tiles.slot->tia;
        if (log) {
            tiles.slot->log_count = log->count;
            bus.place.log_count = &tiles.slot->log_count;
        }
    }
#endif
    bus.open_window(bus.c.cpu.pc);
    if (log) tia_log_begin_frame(*log, c.tia);
    CULE_TRACE_EVENT(FRAME, 0, 0, DRAW || log);
    // The registers stay in a local for the whole frame: the bus writes bytes of the console,
    // which could otherwise alias them and force a reload after every access.
    Regs cpu = regs_of(c.cpu);
    if (cpu.halted) bus.stop();
#ifdef __CUDA_ARCH__
    if (IN_PASSES) run_frame_in_passes(cpu, bus, tiles.plan);
    else
    while (bus.runs()) cpu_run(cpu, bus);
#else
    // cpu_run's loop, dispatched through a table of the cases' addresses (CULE_LABELLED_OPCODES)
    static void* const OPCODE_CASES[256] = {CULE_OPCODE_LABELS};
    while (bus.runs()) {
        u32 ops, branched;
        goto* OPCODE_CASES[cpu_fetch(cpu, bus, ops)];
        CULE_LABELLED_OPCODES
    executed:
        cpu_run(cpu, bus, branched);
    }
#endif
    c.cpu = cpu_of(cpu);
    c.frame_done = bus.stopped() && !cpu.halted;   // a write to the TIA ended it
    bus.write_back();
#ifdef __CUDA_ARCH__
    if (IN_PASSES) {
        ram_from_warp_tile(c, bus.ram);
        c.tia = tiles.slot->tia;
        if (log) log->count = tiles.slot->log_count;
    }
#endif
    if (c.frame_done) c.tia.partial_frame = 0;
    if (c.tia.partial_frame) {
        tia_draw_deferred<DRAW>(c.tia, bus.frame());
        if (!c.tia.frame_greyed && DRAW) tia_grey_out(c.tia, bus.frame(), c.cycles);
        c.tia.frame_greyed = 1;
    } else {
        c.tia.scanlines_last_frame = tia_scanline(c.tia, c.cycles);
        c.tia.frame_greyed = 0;
    }
    // The owed drawing is done (a write ending the frame draws, as tia_draw_deferred did): none is
    // owed now, the same on every backend, whichever writes each left owed.
    c.tia.clock_deferred_update = c.tia.clock_frame_start;
    if (log) tia_log_end_frame(*log, c.tia, began);
    CULE_TRACE_EVENT(FRAME, 1, 0, !c.tia.partial_frame);
}

// The frame ALE shows: the buffer the last frame was drawn into.
CULE_HD const u8* console_screen(const Console& c, const u8* screen) {
    return screen + c.tia.front * frame_pixels(c.tia);
}

// The frame before it, in the other buffer.
CULE_HD const u8* console_previous_screen(const Console& c, const u8* screen) {
    return screen + (1 - c.tia.front) * frame_pixels(c.tia);
}

}  // namespace cule
