// ale-py's saved states turned into cule machines (cule._core.state_from_ale).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>

#include "bindings/common.h"

namespace cule::bindings {
namespace py = pybind11;

// The fields of an ale-py 0.12.1 state by Stella's and ALE's names, as cule/ale_state.py reads them.
struct [[gnu::visibility("hidden")]] AleFields {   // hidden, as pybind11 holds its types
    const py::dict& f;
    bool has(const char* name) const { return f.contains(name); }
    i64 get(const char* name) const { return f[name].cast<i64>(); }
    u8 flag(const char* name) const { return (u8)f[name].cast<bool>(); }
    std::vector<i64> ints(const char* name) const { return f[name].cast<std::vector<i64>>(); }
};

inline void cpu_from_ale(Cpu6502& cpu, const AleFields& f) {
    cpu.a = (u8)f.get("A"); cpu.x = (u8)f.get("X"); cpu.y = (u8)f.get("Y"); cpu.sp = (u8)f.get("SP");
    cpu.pc = (u16)f.get("PC");
    cpu.p = (u8)(f.flag("N") << 7 | f.flag("V") << 6 | 0x20 | f.flag("B") << 4 | f.flag("D") << 3 | f.flag("I") << 2 |
                 (!f.flag("notZ")) << 1 | f.flag("C"));
    cpu.halted = 0;
}

inline void riot_from_ale(Riot& r, const AleFields& f) {
    std::string ram = f.f["myRAM"].cast<std::string>();
    std::memcpy(r.ram, ram.data(), RAM_BYTES);
    r.timer = (u32)f.get("myTimer");
    r.shift = (u32)f.get("myIntervalShift");
    r.cycles_when_set = (i32)f.get("myCyclesWhenTimerSet");
    r.cycles_when_int_reset = (i32)f.get("myCyclesWhenInterruptReset");
    r.read_after_int = f.flag("myTimerReadAfterInterrupt");
    r.ddra = (u8)f.get("myDDRA"); r.ddrb = (u8)f.get("myDDRB");
}

// The TIA's registers and clocks; the object masks Stella does not save are rebuilt from
// positions and sizes as at the end of a line, and the frame drawn so far is black.
inline void tia_from_ale(Tia& t, const AleFields& f) {
    t.clock_frame_start = (i32)f.get("myClockWhenFrameStarted");
    t.clock_start_display = (i32)f.get("myClockStartDisplay");
    t.clock_stop_display = (i32)f.get("myClockStopDisplay");
    t.clock_last_update = (i32)f.get("myClockAtLastUpdate");
    t.clocks_to_end_of_line = (i32)f.get("myClocksToEndOfScanLine");
    t.scanlines_last_frame = (i32)f.get("myScanlineCountForLastFrame");
    t.vsync_finish_clock = (i32)f.get("myVSYNCFinishClock");
    t.last_hmove_clock = (i32)f.get("myLastHMOVEClock");
    t.dump_disabled_cycle = (i32)f.get("myDumpDisabledCycle");
    t.enabled = (u8)f.get("myEnabledObjects");
    t.vsync = (u8)f.get("myVSYNC"); t.vblank = (u8)f.get("myVBLANK");
    t.nusiz0 = (u8)f.get("myNUSIZ0"); t.nusiz1 = (u8)f.get("myNUSIZ1");
    t.color[BK_COLOR] = (u8)f.get("myCOLUBK"); t.color[PF_COLOR] = (u8)f.get("myCOLUPF");   // each byte of the word holds it
    t.color[P0_COLOR] = (u8)f.get("myCOLUP0"); t.color[P1_COLOR] = (u8)f.get("myCOLUP1");
    t.ctrlpf = (u8)f.get("myCTRLPF"); t.prio_score = (u8)f.get("myPlayfieldPriorityAndScore");
    t.pf_reflect = t.ctrlpf & 1;
    t.refp0 = f.flag("myREFP0"); t.refp1 = f.flag("myREFP1");
    t.pf = (u32)f.get("myPF");
    t.grp0 = (u8)f.get("myGRP0"); t.grp1 = (u8)f.get("myGRP1"); t.dgrp0 = (u8)f.get("myDGRP0"); t.dgrp1 = (u8)f.get("myDGRP1");
    t.cur_grp0 = (u8)f.get("myCurrentGRP0"); t.cur_grp1 = (u8)f.get("myCurrentGRP1");
    t.enam0 = (u8)(f.flag("myENAM0") << 1); t.enam1 = (u8)(f.flag("myENAM1") << 1);   // the bits as written
    t.enabl = (u8)(f.flag("myENABL") << 1); t.denabl = (u8)(f.flag("myDENABL") << 1);
    t.hmp0 = (u8)f.get("myHMP0"); t.hmp1 = (u8)f.get("myHMP1"); t.hmm0 = (u8)f.get("myHMM0"); t.hmm1 = (u8)f.get("myHMM1");
    t.hmbl = (u8)f.get("myHMBL");
    t.vdelp0 = f.flag("myVDELP0"); t.vdelp1 = f.flag("myVDELP1"); t.vdelbl = f.flag("myVDELBL");
    t.resmp0 = (u8)(f.flag("myRESMP0") << 1); t.resmp1 = (u8)(f.flag("myRESMP1") << 1);   // cule keeps the bit as written
    t.collision = (u16)f.get("myCollision");
    t.posp0 = (i16)f.get("myPOSP0"); t.posp1 = (i16)f.get("myPOSP1"); t.posm0 = (i16)f.get("myPOSM0");
    t.posm1 = (i16)f.get("myPOSM1"); t.posbl = (i16)f.get("myPOSBL");
    t.hmove_blank = f.flag("myHMOVEBlankEnabled");
    t.m0_ark = f.flag("myM0CosmicArkMotionEnabled"); t.m0_ark_counter = (u8)f.get("myM0CosmicArkCounter");
    t.dump_enabled = f.flag("myDumpEnabled");
    tia_rebuild_masks(t);
    t.partial_frame = t.frame_greyed = 0;
    const i32 into = t.clock_last_update - t.clock_start_display;   // the pixels drawn so far
    const i32 line = into / CLOCKS_PER_LINE, x = into % CLOCKS_PER_LINE - HBLANK;
    t.frame_pos = into < 0 ? 0 : std::min<i32>(frame_pixels(t), line * SCREEN_WIDTH + std::max<i32>(0, std::min<i32>(SCREEN_WIDTH, x)));
}

inline void cart_from_ale(Cart& cart, const AleFields& f) {
    if (f.has("myCurrentBank")) cart.bank[0] = (u8)f.get("myCurrentBank");
    if (cart_has_superchip(cart.scheme)) {
        std::vector<i64> ram = f.ints("superchipRAM");
        for (u32 i = 0; i < CART_RAM_BYTES; ++i) cart.ram[i] = (u8)ram[i];
    }
    if (cart.scheme == CART_DPC) {
        Dpc& d = cart.dpc;
        std::vector<i64> tops = f.ints("myTops"), bottoms = f.ints("myBottoms"), counters = f.ints("myCounters"),
                         flags = f.ints("myFlags"), music = f.ints("myMusicMode");
        for (i32 i = 0; i < 8; ++i) {
            d.top[i] = (u8)tops[i]; d.bottom[i] = (u8)bottoms[i];
            d.counter[i] = (u16)counters[i]; d.flag[i] = (u8)flags[i];
        }
        for (i32 i = 0; i < 3; ++i) d.music[i] = (u8)music[i];
        d.random = (u8)f.get("myRandomNumber");
        d.music_cycles = (i32)f.get("mySystemCycles");
        // Saved in units of 1e-8 of a clock, as Stella's own restore reads it back.
        d.music_fraction = double_as_bits((double)f.get("myFractionalClocks") / 100000000.0);
    }
    if (cart.scheme == CART_E0) {
        std::vector<i64> slices = f.ints("slices");
        for (i32 i = 0; i < 4; ++i) cart.bank[i] = (u8)slices[i];
    }
}

// The game's memory: what ALE's setMode keeps of the state's mode, what ALE saves of it (`f`
// names cule's flags[0], memory[0..1] where a game keeps any), then the game's rules run once on
// this RAM, for lives and terminal. That run leaves most memory as it is, but not a counter
// (Othello's frames without a turn) or a held reward (WordZapper's): what ALE saved is set again
// after it.
inline void game_from_ale(GameState& g, i32 game, const Console& c, const AleFields& f) {
    std::memset(&g, 0, sizeof(g));
    game_reset(game, g);
    game_select_mode(game, g, (i32)f.get("m_mode"));
    auto set_saved_memory = [&] {
        if (f.has("flag0")) g.flags[0] = (u8)f.get("flag0");
        if (f.has("memory0")) g.memory[0] = (i32)f.get("memory0");
        if (f.has("memory1")) g.memory[1] = (i32)f.get("memory1");
    };
    set_saved_memory();
    if (f.has("m_score")) g.score = (i32)f.get("m_score");
    game_step(game, c.riot.ram, c.cart.ram, g);
    set_saved_memory();
    g.reward = (i32)f.get("m_reward");
}

// A machine as an ale-py 0.12.1 state describes it (`fields`: cule/ale_state.py's reading), over
// `base`, a state of the same game, which gives what ALE does not save: the frame buffers, the
// inputs prepared for the next frame, the game's display settings.
inline Bytes state_from_ale(const Bytes& base, i32 game, const py::dict& fields) {
    const py::ssize_t screen_bytes = base.size() - (py::ssize_t)sizeof(Machine);   // the game's display's
    if (screen_bytes <= 0 || screen_bytes != 2 * (py::ssize_t)frame_pixels(reinterpret_cast<const Machine*>(base.data())->console.tia))
        throw std::invalid_argument("bad base state: " + std::to_string(base.size()) + " bytes");
    const AleFields f{fields};
    Bytes out(base.size());
    std::memcpy(out.mutable_data(), base.data(), base.size());
    Machine& m = *reinterpret_cast<Machine*>(out.mutable_data());
    Console& c = m.console;
    cpu_from_ale(c.cpu, f);
    riot_from_ale(c.riot, f);
    tia_from_ale(c.tia, f);
    std::memset(out.mutable_data() + sizeof(Machine), 0, screen_bytes);   // nothing drawn yet: black
    cart_from_ale(c.cart, f);
    c.cycles = (u32)f.get("myCycles");
    // ALE saves states between frames ended by their VSYNC write, the last access on the bus.
    c.frame_done = 1;
    c.last_access_was_read = 0;
    c.data_bus = c.tia.vsync;

    m.frame_number = (i32)f.get("m_frame_number");
    // The frame cap counts the frames stepped since the reset, not those the reset counted.
    const i32 reset_frames = m.episode_frame_number - m.episode_steps;   // of `base`, just after its reset
    m.episode_frame_number = (i32)f.get("m_episode_frame_number");
    m.episode_steps = std::max(0, m.episode_frame_number - reset_frames);
    m.paddle[0] = (i32)f.get("m_left_paddle"); m.paddle[1] = (i32)f.get("m_right_paddle");
    m.difficulty = (u8)f.get("m_difficulty");
    m.input_a = step_input(NOOP, PADDLE_DELTA);   // ALE does not save the sticky actions
    m.action_b = NOOP;
    game_from_ale(m.game, game, c, f);
    return out;
}

}  // namespace cule::bindings
