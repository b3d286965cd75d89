// One machine, driven frame by frame (cule._core.Console): ALE's power-on and reset sequences, the
// tools. GameSpec is the game and its ROM as a machine needs them.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "ale/mt19937.h"
#include "bindings/catalogue.h"
#include "bindings/common.h"

namespace cule::bindings {
namespace py = pybind11;

constexpr u32 SYSTEM_RANDOM_SEED = 4753849;   // ALE's system_random_seed

struct GameSpec {
    std::vector<u8> rom;
    i32 game;
    Wiring wiring;
    u8 scheme;
    Display display, detection_display;
    u32 rom_tag;   // md5_tag of the ROM
    i32 screen_bytes() const { return bindings::screen_bytes(display); }
    i32 state_bytes() const { return (i32)sizeof(Machine) + screen_bytes(); }
};

inline GameSpec make_spec(py::bytes rom, i32 game) {
    GameFacts facts = game_facts(game);
    GameSpec s;
    std::string r = rom;
    s.rom.assign(r.begin(), r.end());
    // The cartridge code indexes the image by its scheme's size: refuse any other size.
    if (s.rom.size() != CART_ROM_BYTES[facts.scheme])
        throw std::invalid_argument("a ROM of scheme " + std::string(CART_SCHEME_NAMES[facts.scheme]) + " must hold " +
                                    std::to_string(CART_ROM_BYTES[facts.scheme]) + " bytes, got " +
                                    std::to_string(s.rom.size()));
    s.game = game;
    s.scheme = facts.scheme;
    s.display = facts.display;
    s.detection_display = facts.detection_display;
    s.wiring = facts.wiring;
    s.rom_tag = facts.rom_tag;
    return s;
}

class SingleConsole {
  public:
    explicit SingleConsole(GameSpec spec) : spec_(std::move(spec)), screens_(spec_.screen_bytes(), 0) {
        clear_machine();
    }

    // Stella's construction: RAM and timer from the seeded generator, then the display-format
    // detection (a system reset and 60 frames with no input events), then another system reset.
    void power_on() {
        clear_machine();
        m_.switches = spec_.wiring.power_on_switches;
        std::fill(screens_.begin(), screens_.end(), 0);
        mt_seed(mt_, SYSTEM_RANDOM_SEED);
        for (u32 i = 0; i < RAM_BYTES; ++i) m_.console.riot.ram[i] = (u8)mt_next(mt_);
        riot_reset(m_.console.riot, mt_next(mt_));
        system_reset(spec_.detection_display);
        for (int i = 0; i < 60; ++i) frame(NOOP, NOOP, false, false, false);
        system_reset();
        m_.events_set = 1;   // the ALE environment now owns the inputs
        m_.paddle[0] = m_.paddle[1] = paddle_centre(spec_.wiring);
        m_.input_a = step_input(NOOP, PADDLE_DELTA);
    }

    void system_reset() { system_reset(spec_.display); }
    void system_reset(const Display& display) {
        auto draw = [this] { return mt_next(mt_); };
        console_reset(m_.console, screens_.data(), spec_.rom.data(), draw, display);
    }

    void frame(int a, int b, bool reset, bool select, bool settings) {
        ale_frame<true>(m_, spec_.wiring, spec_.game, screens_.data(), spec_.rom.data(), (u8)a, (u8)b, reset, select, settings);
    }

    void begin_episode() {
        m_.episode_frame_number = 0;
        m_.paddle[0] = m_.paddle[1] = paddle_centre(spec_.wiring);
        // The reset's own audio writes, apart from those before it (reset_sound).
        written_before_reset_ |= m_.console.tia.audio_written;
        m_.console.tia.audio_written = 0;
        reset_sound_.clear();
    }
    // ALE's sound after a frame StellaEnvironment::act plays (a few games' resets play some:
    // kernels/atari/tia_sound.h); the writes it applies are logged for reset_sound.
    void sound_frame() {
        Tia& t = m_.console.tia;
        std::array<u8, 1 + AUDIO_REGISTERS> entry = {t.audio_written};
        std::copy(t.audio, t.audio + AUDIO_REGISTERS, entry.begin() + 1);
        reset_sound_.push_back(entry);
        t.audio_written |= written_before_reset_;
        written_before_reset_ = 0;
        cule::sound_frame(m_);
    }
    // What the last reset did to the sound: per sound frame, the audio registers written since the
    // reset began or the last sound frame (bits, as Tia::audio_written) and their values; last, those
    // written since (applied by the next frame). A reset on a running generator replays it.
    Bytes reset_sound() const {
        Bytes out({(py::ssize_t)reset_sound_.size() + 1, (py::ssize_t)(1 + AUDIO_REGISTERS)});
        for (size_t i = 0; i < reset_sound_.size(); ++i)
            std::copy(reset_sound_[i].begin(), reset_sound_[i].end(), out.mutable_data(i, 0));
        const Tia& t = m_.console.tia;
        *out.mutable_data(reset_sound_.size(), 0) = t.audio_written;
        std::copy(t.audio, t.audio + AUDIO_REGISTERS, out.mutable_data(reset_sound_.size(), 1));
        return out;
    }
    void count_frame() {
        m_.frame_number = count_up(m_.frame_number);
        m_.episode_frame_number = count_up(m_.episode_frame_number);
    }
    void game_reset() { cule::game_reset(spec_.game, m_.game); }
    void game_select_mode(int mode) { cule::game_select_mode(spec_.game, m_.game, mode); }
    void clear_actions() {
        m_.input_a = step_input(NOOP, PADDLE_DELTA);
        m_.action_b = NOOP;
    }

    Bytes ram() const { return Bytes(RAM_BYTES, m_.console.riot.ram); }
    Bytes screen() const {
        return Bytes({(i32)m_.console.tia.height, (i32)SCREEN_WIDTH}, console_screen(m_.console, screens_.data()));
    }
    py::dict cpu() const {
        const Cpu6502& c = m_.console.cpu;
        py::dict d;
        d["pc"] = c.pc; d["a"] = c.a; d["x"] = c.x; d["y"] = c.y; d["sp"] = c.sp; d["p"] = c.p;
        d["halted"] = c.halted; d["cycles"] = m_.console.cycles;
        return d;
    }
    py::dict tia() const {
        const Tia& t = m_.console.tia;
        py::dict d;
        d["posp0"] = t.posp0; d["posp1"] = t.posp1; d["posm0"] = t.posm0; d["posm1"] = t.posm1;
        d["posbl"] = t.posbl; d["collision"] = t.collision; d["vblank"] = t.vblank;
        d["partial_frame"] = t.partial_frame; d["scanlines_last_frame"] = t.scanlines_last_frame;
        return d;
    }

    py::dict cart() const { return cart_fields(m_.console.cart); }

    // A snapshot: the machine followed by both frame buffers.
    Bytes state() const {
        Bytes out(spec_.state_bytes());
        std::memcpy(out.mutable_data(), &m_, sizeof(Machine));
        std::memcpy(out.mutable_data() + sizeof(Machine), screens_.data(), spec_.screen_bytes());
        reinterpret_cast<Machine*>(out.mutable_data())->console.tia.audio_written |= written_before_reset_;
        return out;
    }
    // A snapshot back, checked by the caller (state_check.h).
    void set_state(const Bytes& s) {
        std::memcpy(&m_, s.data(), sizeof(Machine));
        std::memcpy(screens_.data(), s.data() + sizeof(Machine), spec_.screen_bytes());
        written_before_reset_ = 0;   // a snapshot's writes are all in its machine (state())
    }

    const GameSpec& spec() const { return spec_; }
    Machine& machine() { return m_; }
    const Machine& machine() const { return m_; }

  private:
    // All zero but the header and the power-on states of the cartridge and the sound generator.
    void clear_machine() {
        std::memset(&m_, 0, sizeof(m_));
        m_.header = StateHeader{STATE_MAGIC, STATE_VERSION, spec_.rom_tag, (u32)spec_.state_bytes()};
        cart_power_on(m_.console.cart, spec_.scheme);
        m_.sound = m_.sound_shown = sound_power_on();
        written_before_reset_ = 0;
        reset_sound_.clear();
    }

    Machine m_;
    // Audio writes from before the reset under way, not yet applied (begin_episode), and what
    // the reset did to the sound so far (reset_sound).
    u8 written_before_reset_ = 0;
    std::vector<std::array<u8, 1 + AUDIO_REGISTERS>> reset_sound_;
    GameSpec spec_;
    std::vector<u8> screens_;
    Mt19937 mt_;
};

}  // namespace cule::bindings
