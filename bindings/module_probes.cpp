// `cule._probes`, built for the tests only: single components driven one access at a time. One
// instruction of the CPU core on a flat 64 KiB memory, for comparing single instructions with an
// independent 6502 model (py65) in tests/test_cpu6502.py and their bus accesses in
// tests/test_cpu_bus.py, cartridge accesses for the bank-switching tests in tests/test_cart.py,
// TIA writes for tests/test_tia.py, RIOT accesses for tests/test_riot.py.
// The timer waits the GPU's kernels run at once, for tests/test_timer_wait.py's probe (the CPU
// backend runs them one instruction at a time: kernels/atari/cpu6502.h, cpu_run).
#define CULE_TIMER_WAIT 1
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "atari/cart.h"
#include "atari/console.h"
#include "atari/cpu6502.h"
#include "atari/riot.h"
#include "atari/tia.h"
#include "bindings/common.h"

namespace cule {

struct FlatBus {
    u8* mem;
    u32 cycles;
    pybind11::list accesses;
    FetchWindow fetch = {nullptr, 0, 0};   // none: every byte is read through peek, and logged
    u32 left = 0;   // as Bus::left: this instruction, none after it
    u8 peek(u16 addr) {
        accesses.append(pybind11::make_tuple("r", addr, mem[addr]));
        return mem[addr];
    }
    void poke(u16 addr, u8 v) {
        accesses.append(pybind11::make_tuple("w", addr, v));
        mem[addr] = v;
    }
    void add_cycles(u32 n) { cycles += n; }
    void open_fetch(u32) {}
    void stop() { left |= FRAME_STOPPED; }
    void fetched(u32) {}
    u32 code_key(u32 pc) const { return pc; }
    TimerWait wait_on_timer(const Regs&, u32, u32) { return {0, 0, 0, 0}; }   // one instruction at a time
};

}  // namespace cule

namespace py = pybind11;
using namespace cule;

// The display the console and TIA probes draw with: ALE's usual NTSC one.
constexpr Display PROBE_DISPLAY = {NTSC_HEIGHT, 34, 0, 1};

PYBIND11_MODULE(_probes, m) {
    m.def(
        "cpu_probe_step",
        [](py::dict regs, py::array_t<u8, py::array::c_style> memory) {
            if (memory.size() != 65536) throw std::invalid_argument("memory must hold 65536 bytes");
            Cpu6502 c = {};
            c.pc = regs["pc"].cast<u16>();
            c.a = regs["a"].cast<u8>();
            c.x = regs["x"].cast<u8>();
            c.y = regs["y"].cast<u8>();
            c.sp = regs["sp"].cast<u8>();
            c.p = regs["p"].cast<u8>();
            FlatBus bus{memory.mutable_data(), 0, py::list()};
            Regs r = regs_of(c);
            cpu_run(r, bus);
            c = cpu_of(r);
            py::dict out;
            out["pc"] = c.pc; out["a"] = c.a; out["x"] = c.x; out["y"] = c.y; out["sp"] = c.sp; out["p"] = c.p;
            out["halted"] = c.halted;
            return py::make_tuple(out, bus.cycles, bus.accesses);
        },
        py::arg("regs"), py::arg("memory"),
        "Runs one instruction on a flat 64 KiB memory: (registers, cycles, [(r|w, address, value)]).");
    m.def(
        "cart_probe",
        [](u8 scheme, py::bytes rom, const std::vector<std::tuple<char, u16, u8, u32>>& accesses, u32 first_draw) {
            if (scheme >= NUM_CART_SCHEMES) throw std::invalid_argument("no such scheme");
            std::string image = rom;
            if (image.size() != CART_ROM_BYTES[scheme]) throw std::invalid_argument("wrong image size");
            u32 next_draw = first_draw;
            auto draw = [&] { return next_draw++; };
            Console console = {};
            Cart& c = console.cart;
            cart_power_on(c, scheme);
            cart_reset(c, draw);
            // Through the CPU's bus, as a program reads: its window of plain reads included.
            Bus<false> bus = {console, nullptr, (const u8*)image.data(), nullptr};
            std::vector<int> reads;
            for (auto [kind, addr, value, cycle] : accesses) {
                if ((kind == 'r' || kind == 'w') && !(addr & 0x1000))
                    throw std::invalid_argument("address " + std::to_string(addr) + " is not the cartridge's: A12 is clear");
                bus.cycles = cycle;
                switch (kind) {
                    case 'r': reads.push_back(bus.peek(addr)); break;
                    case 'w': bus.poke(addr, value); break;
                    case 'c': cart_rebase_cycles(c, cycle); break;
                    case 'x': cart_rebase_cycles(c, cycle); cart_reset(c, draw); bus.open_window(0x1000); break;
                    default: throw std::invalid_argument("an access is 'r', 'w', 'c' or 'x'");
                }
            }
            return py::make_tuple(reads, bindings::cart_fields(c));
        },
        py::arg("scheme"), py::arg("rom"), py::arg("accesses"), py::arg("first_draw") = 0,
        "Runs cartridge accesses (kind, address, value, system cycle) from power-up and a system "
        "reset: 'r' reads, 'w' writes the value, 'c' restarts the cycle count at that cycle (a new "
        "frame), 'x' a system reset there. The System generator's draws count up from "
        "`first_draw`. Returns the bytes read and the cartridge's state (cule._core.Console.cart).");
    m.def(
        "reset_probe",
        [](u8 scheme, py::bytes rom, u32 first_draw) {
            std::string image = rom;
            if (image.size() != CART_ROM_BYTES[scheme]) throw std::invalid_argument("wrong image size");
            u32 next_draw = first_draw;
            auto draw = [&] { return next_draw++; };
            Console c = {};
            cart_power_on(c.cart, scheme);
            std::vector<u8> screen(2 * display_pixels(PROBE_DISPLAY));
            console_reset(c, screen.data(), (const u8*)image.data(), draw, PROBE_DISPLAY);
            return py::make_tuple(c.riot.timer, bindings::cart_fields(c.cart), next_draw - first_draw);
        },
        py::arg("scheme"), py::arg("rom"), py::arg("first_draw"),
        "A console's system reset whose System generator's draws count up from `first_draw`: "
        "(the RIOT timer's start value, the cartridge's state, the number of draws).");
    m.def(
        "riot_probe",
        [](const std::vector<std::tuple<u32, char, u16, u8>>& accesses, u8 swcha, u8 swchb,
           u32 random_draw) {
            Console c = {};
            c.ports = {swcha, swchb};
            riot_reset(c.riot, random_draw);
            Bus<false> bus = {c, nullptr, nullptr, nullptr};   // the console's decoding of RAM and ports
            std::vector<int> reads;
            for (auto [cycle, kind, addr, value] : accesses) {
                if (kind == 'c') {
                    riot_rebase_cycles(c.riot, cycle);
                    continue;
                }
                if ((addr & 0x1080) != 0x0080) throw std::invalid_argument("not a RIOT address");
                bus.cycles = cycle;
                if (kind == 'r') reads.push_back(bus.peek(addr));
                else if (kind == 'w') bus.poke(addr, value);
                else throw std::invalid_argument("an access is 'r', 'w' or 'c'");
            }
            return reads;
        },
        py::arg("accesses"), py::arg("swcha") = 0xFF, py::arg("swchb") = 0xFF,
        py::arg("random_draw") = 0,
        "Runs (CPU cycle, 'r' or 'w', address, value) accesses on a RIOT fresh from riot_reset, "
        "through the console's bus, with the joystick and switch pins `swcha` and `swchb`; kind 'c' "
        "restarts the cycle count at that cycle, as a new frame does. Returns the bytes read.");
    m.def(
        "timer_wait_probe",
        [](u8 scheme, py::bytes rom, u32 instructions, bool at_once) {
            std::string image = rom;
            if (scheme >= NUM_CART_SCHEMES || image.size() != CART_ROM_BYTES[scheme])
                throw std::invalid_argument("wrong scheme or image size");
            Console c = {};
            cart_power_on(c.cart, scheme);
            std::vector<u8> screen(2 * display_pixels(PROBE_DISPLAY));
            auto draw = [] { return 0u; };
            console_reset(c, screen.data(), (const u8*)image.data(), draw, PROBE_DISPLAY);
            Bus<false> bus = {c, screen.data(), (const u8*)image.data(), nullptr};
            bus.open_window(c.cpu.pc);
            u32 n = 0, steps = 0;
            Regs regs = regs_of(c.cpu);
            for (; n < instructions && !regs.halted; ++steps) {
                bus.left = at_once ? instructions - n - 1 : 0;   // the instructions it may run, less one
                n += cpu_run(regs, bus);
            }
            c.cpu = cpu_of(regs);
            bus.write_back();
            py::dict out;
            const Cpu6502& r = c.cpu;
            out["pc"] = r.pc; out["a"] = r.a; out["x"] = r.x; out["y"] = r.y; out["sp"] = r.sp; out["p"] = r.p;
            out["cycles"] = c.cycles; out["data_bus"] = c.data_bus; out["read"] = c.last_access_was_read;
            out["read_after_int"] = c.riot.read_after_int; out["instructions"] = n;
            return py::make_tuple(out, steps);
        },
        py::arg("scheme"), py::arg("rom"), py::arg("instructions"), py::arg("at_once"),
        "Runs a cartridge's program from its reset vector for `instructions` instructions, with "
        "timer-polling loops run at once (`at_once`) or one instruction at a time: (the CPU, bus "
        "and timer state after them, the cpu_run calls it took).");
    m.def(
        "tia_probe",
        [](const std::vector<std::tuple<u32, u8, u8>>& writes, bool cut, bool draw, bool stella_draws) {
            Tia t = {};
            const i32 pixels = display_pixels(PROBE_DISPLAY);
            std::vector<u8> screen(2 * pixels);
            tia_reset(t, screen.data(), screen.data() + pixels, 0, PROBE_DISPLAY);
            tia_start_frame(t, 0);
            u8* fb = screen.data() + t.front * pixels;
            std::vector<u16> latches;
            for (auto [cycle, addr, value] : writes) {
                if (stella_draws) {
                    const u32 reg = addr & TIA_WRITE_MASK;
                    const i32 clock = (i32)(cycle * 3), to = clock + write_delay(t, reg, clock);
                    draw ? tia_update_to<true>(t, fb, to) : tia_update_to<false>(t, fb, to);
                    // Another value first, at the same clock: the write then changes its register and
                    // runs in full even where it repeats the value held (tia_write_keeps_state).
                    constexpr u64 KEPT_ON_REPEAT = write_registers(COLUP0, COLUBK) | write_registers(REFP0, PF2) |
                                                   write_registers(GRP0, ENABL) | write_registers(VDELP0, VDELBL);
                    u32 same_cycle = cycle;
                    if (KEPT_ON_REPEAT >> reg & 1)
                        draw ? tia_poke<true>(t, fb, addr, value ^ 0xFF, same_cycle, false)
                             : tia_poke<false>(t, fb, addr, value ^ 0xFF, same_cycle, false);
                }
                if (draw) tia_poke<true>(t, fb, addr, value, cycle, false);
                else tia_poke<false>(t, fb, addr, value, cycle, false);
                latches.push_back(t.collision);
            }
            if (cut) draw ? tia_draw_deferred<true>(t, fb) : tia_draw_deferred<false>(t, fb);
            return py::make_tuple(py::bytes((const char*)fb, (size_t)pixels), latches, t.collision);
        },
        py::arg("writes"), py::arg("cut"), py::arg("draw") = true, py::arg("stella_draws") = false,
        "Writes (CPU cycle, TIA register, value) into a fresh frame, drawn or, if not `draw`, with "
        "collisions alone as in a frame not shown, then draws what a frame cut by the instruction "
        "cap shows if `cut`; with `stella_draws`, each write first draws up to its clock and poke "
        "delay, as Stella's TIA does, and runs in full, deferring none. Returns (palette indices, "
        "the collision latches after each write, the latches at the end).");
}
