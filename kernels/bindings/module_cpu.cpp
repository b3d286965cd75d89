// The CPU backend: the kernels/ emulator compiled by the host compiler, exposed to Python.
//   Console  one machine, driven frame by frame: ALE's power-on and reset sequences, tools.
//   VecEnv   N machines stepped together on several threads, with the reset pool.
// Machine states travel as raw bytes (numpy uint8), so pools and snapshots are plain arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/env.h"
#include "ale/mt19937.h"
#include "env/observe.h"
#include "bindings/catalogue.h"

namespace py = pybind11;
using namespace cule;

namespace {

constexpr u32 SYSTEM_RANDOM_SEED = 4753849;   // ALE's system_random_seed
constexpr i32 SCREEN_BYTES = 2 * SCREEN_PIXELS;

using Bytes = py::array_t<u8, py::array::c_style>;

struct GameSpec {
    std::vector<u8> rom;
    i32 game;
    Wiring wiring;
    u8 scheme, ystart, hmove_blanks;
};

GameSpec make_spec(py::bytes rom, i32 game) {
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
    s.ystart = facts.ystart;
    s.hmove_blanks = facts.hmove_blanks;
    s.wiring = facts.wiring;
    return s;
}

class Console1 {
  public:
    explicit Console1(GameSpec spec) : spec_(std::move(spec)), screens_(SCREEN_BYTES, 0) {
        std::memset(&m_, 0, sizeof(m_));
        m_.console.cart.scheme = spec_.scheme;
    }

    // Stella's construction: RAM and timer from the seeded generator, then the display-format
    // detection (a system reset and 60 frames with no input events), then another system reset.
    void power_on() {
        std::memset(&m_, 0, sizeof(m_));
        m_.console.cart.scheme = spec_.scheme;
        m_.switches = spec_.wiring.power_on_switches;
        std::fill(screens_.begin(), screens_.end(), 0);
        mt_seed(mt_, SYSTEM_RANDOM_SEED);
        for (u32 i = 0; i < 128; ++i) m_.console.riot.ram[i] = (u8)mt_next(mt_);
        riot_reset(m_.console.riot, mt_next(mt_));
        system_reset();
        for (int i = 0; i < 60; ++i) frame(NOOP, NOOP, false, false, false);
        system_reset();
        m_.events_set = 1;   // the ALE environment now owns the inputs
        m_.paddle[0] = m_.paddle[1] = PADDLE_DEFAULT;
    }

    void system_reset() {
        console_reset(m_.console, screens_.data(), spec_.rom.data(), mt_next(mt_), spec_.ystart, spec_.hmove_blanks);
    }

    void frame(int a, int b, bool reset, bool select, bool settings) {
        ale_frame<true>(m_, spec_.wiring, spec_.game, screens_.data(), spec_.rom.data(), (u8)a, (u8)b, reset, select, settings);
    }

    void begin_episode() {
        m_.episode_frame_number = 0;
        m_.paddle[0] = m_.paddle[1] = PADDLE_DEFAULT;
    }
    void count_frame() {
        m_.frame_number += 1;
        m_.episode_frame_number += 1;
    }
    void game_reset() { cule::game_reset(spec_.game, m_.game); }
    void clear_actions() { m_.action_a = m_.action_b = NOOP; }

    Bytes ram() const { return Bytes(128, m_.console.riot.ram); }
    Bytes screen() const {
        return Bytes({SCREEN_HEIGHT, SCREEN_WIDTH}, console_screen(m_.console, screens_.data()));
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

    // A snapshot: the machine followed by both frame buffers.
    Bytes state() const {
        Bytes out(sizeof(Machine) + SCREEN_BYTES);
        std::memcpy(out.mutable_data(), &m_, sizeof(Machine));
        std::memcpy(out.mutable_data() + sizeof(Machine), screens_.data(), SCREEN_BYTES);
        return out;
    }
    void set_state(const Bytes& s) {
        if (s.size() != (py::ssize_t)(sizeof(Machine) + SCREEN_BYTES))
            throw std::invalid_argument("state has " + std::to_string(s.size()) + " bytes, expected " +
                                        std::to_string(sizeof(Machine) + SCREEN_BYTES));
        std::memcpy(&m_, s.data(), sizeof(Machine));
        std::memcpy(screens_.data(), s.data() + sizeof(Machine), SCREEN_BYTES);
    }

    Machine m_;
    GameSpec spec_;
    std::vector<u8> screens_;
    Mt19937 mt_;
};

// A full-size observation, observed_channel for every byte, the branches resolved outside.
template <bool GREY, bool POOL>
void full_frame(const u8* frame, const u8* previous, u8* dst) {
    for (i32 p = 0; p < SCREEN_PIXELS; ++p)
        for (i32 k = 0; k < (GREY ? 1 : 3); ++k) *dst++ = observed_channel(frame, previous, POOL, GREY, p, k);
}

// RGB without pooling, the commonest full-size case: each pixel one 4-byte store of R, G, B (and
// a byte the next pixel overwrites) from a table in memory order, the last pixel byte by byte.
template <>
void full_frame<false, false>(const u8* frame, const u8*, u8* dst) {
    static const std::array<u32, 256> rgb_bytes = [] {
        std::array<u32, 256> t{};
        for (i32 i = 0; i < 256; ++i)
            t[i] = palette_channel((u8)i, false, 0) | palette_channel((u8)i, false, 1) << 8 |
                   (u32)palette_channel((u8)i, false, 2) << 16;
        return t;
    }();
    for (i32 p = 0; p < SCREEN_PIXELS - 1; ++p, dst += 3) std::memcpy(dst, &rgb_bytes[frame[p]], 4);
    for (i32 k = 0; k < 3; ++k) dst[k] = palette_channel(frame[SCREEN_PIXELS - 1], false, k);
}

class VecEnv {
  public:
    VecEnv(GameSpec spec, i32 num_envs, i32 frameskip, double repeat_action_probability,
           i32 max_episode_frames, u32 legal_actions, bool episodic_life, bool life_loss_info, i32 num_threads)
        : spec_(std::move(spec)), n_(num_envs), machines_(num_envs), screens_((size_t)num_envs * SCREEN_BYTES),
          rng_(num_envs), needs_reset_(num_envs, 0), threads_(num_threads) {
        if (num_envs <= 0) throw std::invalid_argument("num_envs must be positive, got " + std::to_string(num_envs));
        cfg_.game = spec_.game;
        cfg_.wiring = spec_.wiring;
        cfg_.frameskip = frameskip;
        cfg_.repeat_threshold = repeat_threshold(repeat_action_probability);
        cfg_.max_episode_frames = max_episode_frames;
        cfg_.legal_actions = legal_actions;
        cfg_.pool_size = 0;
        cfg_.episodic_life = episodic_life;
        cfg_.life_loss_info = life_loss_info;
    }

    // The pool: K snapshots as made by Console1.state(), shape (K, state_size).
    void set_pool(const Bytes& states) {
        if (states.ndim() != 2 || states.shape(1) != (py::ssize_t)(sizeof(Machine) + SCREEN_BYTES))
            throw std::invalid_argument("pool states must have shape (K, " +
                                        std::to_string(sizeof(Machine) + SCREEN_BYTES) + ")");
        u32 k = (u32)states.shape(0);
        if (k == 0) throw std::invalid_argument("the reset pool needs at least one state");
        pool_.resize(k);
        pool_screens_.resize((size_t)k * SCREEN_BYTES);
        for (u32 i = 0; i < k; ++i) {
            const u8* s = states.data(i, 0);
            std::memcpy(&pool_[i], s, sizeof(Machine));
            std::memcpy(&pool_screens_[(size_t)i * SCREEN_BYTES], s + sizeof(Machine), SCREEN_BYTES);
        }
        cfg_.pool_size = k;
    }

    // New random streams for the masked environments.
    void seed(const py::array_t<u64, py::array::c_style>& keys, const py::array_t<u8, py::array::c_style>& mask) {
        check_length(keys.size(), "seed keys");
        check_length(mask.size(), "seed mask");
        for (i32 i = 0; i < n_; ++i)
            if (mask.data()[i]) rng_[i] = EnvRng{keys.data()[i], 0};
    }

    // Starts a new episode in the masked environments from pool states picked by their RNG, on
    // the same console (frames keep counting) or on a fresh one.
    void reset(const py::array_t<u8, py::array::c_style>& mask, bool same_console) {
        check_length(mask.size(), "reset mask");
        if (!cfg_.pool_size) throw std::logic_error("reset pool is empty");
        const u8* m = mask.data();
        for (i32 i = 0; i < n_; ++i) {
            if (m[i]) {
                env_reset(machines_[i], screen(i), rng_[i], needs_reset_[i], pool_.data(), pool_screens_.data(),
                          cfg_.pool_size, same_console);
                if (last_frame_only()) last_[i].buffer_behind = 0;
            }
        }
    }

    void step(const py::array_t<u8, py::array::c_style>& actions, py::array_t<i32, py::array::c_style>& rewards,
              py::array_t<u8, py::array::c_style>& terminated, py::array_t<u8, py::array::c_style>& truncated) {
        check_length(actions.size(), "actions");
        check_length(rewards.size(), "rewards");
        check_length(terminated.size(), "terminated");
        check_length(truncated.size(), "truncated");
        const u8* a = actions.data();
        i32* r = rewards.mutable_data();
        u8* te = terminated.mutable_data();
        u8* tr = truncated.mutable_data();
        py::gil_scoped_release release;
        if (split_render_ && jobs_.size() < (size_t)threads_) jobs_.resize(threads_);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
        for (i32 i = 0; i < n_; ++i) {
            StepResult s;
            if (split_render_) {   // the GPU's two passes, one env at a time
                draw_left_behind(i);   // a step run again draws over both buffers as they were
                ThreadJob& job = jobs_[omp_get_thread_num()];
                s = env_step_logged(machines_[i], screen(i), rng_[i], needs_reset_[i], pool_.data(),
                                    pool_screens_.data(), spec_.rom.data(), cfg_, a[i], job);
                render_step(job, screen(i), spec_.rom.data(), cfg_);
                job.stats.count(job);
            } else {
                bool behind = last_frame_only() && last_[i].buffer_behind;
                s = env_step(machines_[i], screen(i), rng_[i], needs_reset_[i], pool_.data(), pool_screens_.data(),
                             spec_.rom.data(), cfg_, a[i], last_frame_only() ? &last_[i] : nullptr);
                if (s.redone) {
#pragma omp atomic
                    redone_[behind] += 1;
                }
            }
            r[i] = s.reward;
            te[i] = s.terminated;
            tr[i] = s.truncated;
        }
    }

    // How the split passes drew the steps so far: (steps replayed from the log, steps run again
    // drawing, the most TIA accesses one step logged).
    py::tuple render_stats() const {
        u64 replayed = 0, redone = 0, most = 0;
        for (const ThreadJob& j : jobs_) {
            replayed += j.stats.replayed;
            redone += j.stats.redone;
            most = std::max(most, j.stats.most_events);
        }
        return py::make_tuple(replayed, redone, most);
    }

    // Steps of the direct path run again from their start, drawing every frame: (those that
    // found both buffers current, those that first redrew the buffer left behind).
    py::tuple redo_stats() const { return py::make_tuple(redone_[0], redone_[1]); }

    // Current frames as palette indices, shape (N, 210, 160).
    void screens(py::array_t<u8, py::array::c_style>& out) const {
        check_length(out.size() / SCREEN_PIXELS, "screen buffer");
        u8* o = out.mutable_data();
        for (i32 i = 0; i < n_; ++i)
            std::memcpy(o + (size_t)i * SCREEN_PIXELS, console_screen(machines_[i].console, screen(i)), SCREEN_PIXELS);
    }

    // The current frames in RGB or grey, height x width (shrunk as OpenCV's INTER_AREA does);
    // where `maxpool` is set, the channel-wise maximum of the last two frames.
    void observe(py::array_t<u8, py::array::c_style>& out, bool grey,
                 const py::array_t<u8, py::array::c_style>& maxpool, i32 height, i32 width) {
        if (height < 1 || height > SCREEN_HEIGHT || width < 1 || width > SCREEN_WIDTH)
            throw std::invalid_argument("observations can be 1..210 x 1..160 pixels");
        const bool resize = height != SCREEN_HEIGHT || width != SCREEN_WIDTH;
        AreaAxis ys, xs;
        if (resize) {   // the weights only where frames shrink: the full-size path stays lean
            area_axis(SCREEN_HEIGHT, height, ys);
            area_axis(SCREEN_WIDTH, width, xs);
        }
        const ObserveConfig cfg = {height, width, (u8)grey, &ys, &xs};
        const i32 channels = observe_channels(cfg), frame_bytes = height * width * channels;
        check_length(out.size() / frame_bytes, "observation buffer");
        check_length(maxpool.size(), "maxpool mask");
        u8* o = out.mutable_data();
        const u8* pool = maxpool.data();
        py::gil_scoped_release release;
#pragma omp parallel for num_threads(threads_)
        for (i32 i = 0; i < n_; ++i) {
            if (pool[i]) draw_left_behind(i);
            u8* dst = o + (size_t)i * frame_bytes;
            if (!resize) {   // observe_element's first case, unrolled
                const Console& c = machines_[i].console;
                const u8 *frame = console_screen(c, screen(i)), *previous = console_previous_screen(c, screen(i));
                if (grey) pool[i] ? full_frame<true, true>(frame, previous, dst) : full_frame<true, false>(frame, previous, dst);
                else pool[i] ? full_frame<false, true>(frame, previous, dst) : full_frame<false, false>(frame, previous, dst);
                continue;
            }
            for (i32 y = 0; y < height; ++y)
                for (i32 x = 0; x < width; ++x)
                    for (i32 k = 0; k < channels; ++k) *dst++ = observe_element(machines_[i], screen(i), pool[i], cfg, y, x, k);
        }
    }

    // Which environments start a new episode at their next step.
    void pending_resets(py::array_t<u8, py::array::c_style>& out) const {
        check_length(out.size(), "pending resets");
        std::memcpy(out.mutable_data(), needs_reset_.data(), (size_t)n_);
    }

    void ram(py::array_t<u8, py::array::c_style>& out) const {
        check_length(out.size() / 128, "ram buffer");
        for (i32 i = 0; i < n_; ++i) std::memcpy(out.mutable_data() + (size_t)i * 128, machines_[i].console.riot.ram, 128);
    }

    py::dict info() const {
        py::array_t<i32> lives(n_), frame(n_), episode_frame(n_);
        for (i32 i = 0; i < n_; ++i) {
            lives.mutable_data()[i] = machines_[i].game.lives;
            frame.mutable_data()[i] = machines_[i].frame_number;
            episode_frame.mutable_data()[i] = machines_[i].episode_frame_number;
        }
        py::dict d;
        d["lives"] = lives;
        d["frame_number"] = frame;
        d["episode_frame_number"] = episode_frame;
        return d;
    }

    Bytes get_states() {
        Bytes out({(py::ssize_t)n_, (py::ssize_t)(sizeof(Machine) + SCREEN_BYTES)});
        for (i32 i = 0; i < n_; ++i) {
            draw_left_behind(i);
            u8* o = out.mutable_data(i, 0);
            std::memcpy(o, &machines_[i], sizeof(Machine));
            std::memcpy(o + sizeof(Machine), screen(i), SCREEN_BYTES);
        }
        return out;
    }

    void set_states(const Bytes& states, const py::array_t<i64, py::array::c_style>& env_ids) {
        if (states.ndim() != 2 || states.shape(1) != (py::ssize_t)(sizeof(Machine) + SCREEN_BYTES) ||
            states.shape(0) != env_ids.size())
            throw std::invalid_argument("states must have shape (len(env_ids), state_size)");
        for (py::ssize_t j = 0; j < env_ids.size(); ++j) {
            i64 i = env_ids.data()[j];
            if (i < 0 || i >= n_) throw std::invalid_argument("env id out of range: " + std::to_string(i));
            const u8* s = states.data(j, 0);
            std::memcpy(&machines_[i], s, sizeof(Machine));
            std::memcpy(screen(i), s + sizeof(Machine), SCREEN_BYTES);
            needs_reset_[i] = 0;
            if (last_frame_only()) last_[i].buffer_behind = 0;
        }
    }

    // ALE's setRAM for all 128 bytes of each listed environment; nothing else changes.
    void set_ram(const py::array_t<u8, py::array::c_style>& ram, const py::array_t<i64, py::array::c_style>& env_ids) {
        if (ram.ndim() != 2 || ram.shape(1) != 128 || ram.shape(0) != env_ids.size())
            throw std::invalid_argument("ram must have shape (len(env_ids), 128)");
        for (py::ssize_t j = 0; j < env_ids.size(); ++j) {
            i64 i = env_ids.data()[j];
            if (i < 0 || i >= n_) throw std::invalid_argument("env id out of range: " + std::to_string(i));
            std::memcpy(machines_[i].console.riot.ram, ram.data(j, 0), 128);
        }
    }

    i32 num_envs() const { return n_; }
    bool split_render() const { return split_render_; }
    void set_split_render(bool on) { split_render_ = on; }

    // Whether steps draw only their last frame (kernels/env/env.h, LastStep): for observations
    // without max-pooling. The frame before it is drawn when something needs it: a state taken,
    // a max-pooled observation, a step run again from its start.
    bool last_frame_only() const { return !last_.empty(); }
    void set_last_frame_only(bool on) {
        for (i32 i = 0; i < (i32)last_.size(); ++i) draw_left_behind(i);
        last_.assign(on ? (size_t)n_ : 0, LastStep{});
    }

  private:
    u8* screen(i32 i) { return screens_.data() + (size_t)i * SCREEN_BYTES; }
    const u8* screen(i32 i) const { return screens_.data() + (size_t)i * SCREEN_BYTES; }
    // Both frame buffers of env i as ALE's: the one a step left behind drawn.
    void draw_left_behind(i32 i) {
        if (last_frame_only()) redraw_behind_buffer(last_[i], screen(i), spec_.rom.data(), cfg_);
    }
    void check_length(py::ssize_t n, const char* what) const {
        if (n != n_) throw std::invalid_argument(std::string(what) + " must have " + std::to_string(n_) +
                                                 " entries, got " + std::to_string(n));
    }

    GameSpec spec_;
    i32 n_;
    StepConfig cfg_;
    std::vector<Machine> machines_;
    std::vector<u8> screens_;
    std::vector<EnvRng> rng_;
    std::vector<u8> needs_reset_;
    std::vector<Machine> pool_;
    std::vector<u8> pool_screens_;
    i32 threads_;
    // The split passes (kernels/env/env.h: env_step_logged, render_step) instead of env_step: the
    // CUDA backend's way, here to check it against the direct one.
    bool split_render_ = false;
    std::vector<LastStep> last_;   // one per env where steps draw only their last frame
    u64 redone_[2] = {0, 0};
    struct RenderStats {
        u64 replayed = 0, redone = 0, most_events = 0;
        void count(const RenderJob& job) {
            if (job.log.frames == 0 && !job.redo) return;   // a reset: nothing drawn
            (job.redo ? redone : replayed) += 1;
            most_events = std::max(most_events, (u64)job.log.count);
        }
    };
    struct ThreadJob : RenderJob {
        RenderStats stats;
    };
    std::vector<ThreadJob> jobs_;
};

py::dict machine_layout() {
    const char* const names[NUM_LAYOUT_FIELDS] = {"machine", "rng", "ram", "lives", "frame_number",
                                                  "episode_frame_number", "front", "render_job", "render_job_redo"};
    u64 values[NUM_LAYOUT_FIELDS];
    state_layout(values);
    py::dict d;
    for (i32 i = 0; i < NUM_LAYOUT_FIELDS; ++i) d[names[i]] = values[i];
    return d;
}


// A machine as an ale-py 0.12.1 state describes it (`f`: its fields by Stella's and ALE's names,
// as cule/ale_state.py reads them), over `base`, a state of the same game, which gives what ALE
// does not save: the frame buffers, the inputs prepared for the next frame, the game's display
// settings. The object masks Stella does not save are rebuilt from positions and sizes as at
// the end of a line; the game's memory is ALE's, or read from RAM where ALE keeps none.
Bytes state_from_ale(const Bytes& base, i32 game, const py::dict& f) {
    if (base.size() != (py::ssize_t)(sizeof(Machine) + SCREEN_BYTES)) throw std::invalid_argument("bad base state");
    auto get = [&](const char* name) { return f[name].cast<i64>(); };
    auto flag = [&](const char* name) { return (u8)f[name].cast<bool>(); };
    Bytes out(base.size());
    std::memcpy(out.mutable_data(), base.data(), base.size());
    Machine& m = *reinterpret_cast<Machine*>(out.mutable_data());
    Console& c = m.console;

    Cpu6502& cpu = c.cpu;
    cpu.a = (u8)get("A"); cpu.x = (u8)get("X"); cpu.y = (u8)get("Y"); cpu.sp = (u8)get("SP");
    cpu.pc = (u16)get("PC");
    cpu.p = (u8)(flag("N") << 7 | flag("V") << 6 | 0x20 | flag("B") << 4 | flag("D") << 3 | flag("I") << 2 |
                 (!flag("notZ")) << 1 | flag("C"));
    cpu.halted = 0;

    Riot& r = c.riot;
    std::string ram = f["myRAM"].cast<std::string>();
    std::memcpy(r.ram, ram.data(), 128);
    r.timer = (u32)get("myTimer");
    r.shift = (u32)get("myIntervalShift");
    r.cycles_when_set = (i32)get("myCyclesWhenTimerSet");
    r.cycles_when_int_reset = (i32)get("myCyclesWhenInterruptReset");
    r.read_after_int = flag("myTimerReadAfterInterrupt");
    r.ddra = (u8)get("myDDRA"); r.ddrb = (u8)get("myDDRB");

    Tia& t = c.tia;
    t.clock_frame_start = (i32)get("myClockWhenFrameStarted");
    t.clock_start_display = (i32)get("myClockStartDisplay");
    t.clock_stop_display = (i32)get("myClockStopDisplay");
    t.clock_last_update = (i32)get("myClockAtLastUpdate");
    t.clocks_to_end_of_line = (i32)get("myClocksToEndOfScanLine");
    t.scanlines_last_frame = (i32)get("myScanlineCountForLastFrame");
    t.vsync_finish_clock = (i32)get("myVSYNCFinishClock");
    t.last_hmove_clock = (i32)get("myLastHMOVEClock");
    t.dump_disabled_cycle = (i32)get("myDumpDisabledCycle");
    t.enabled = (u8)get("myEnabledObjects");
    t.vsync = (u8)get("myVSYNC"); t.vblank = (u8)get("myVBLANK");
    t.nusiz0 = (u8)get("myNUSIZ0"); t.nusiz1 = (u8)get("myNUSIZ1");
    t.color[BK_COLOR] = (u8)get("myCOLUBK"); t.color[PF_COLOR] = (u8)get("myCOLUPF");   // each byte of the word holds it
    t.color[P0_COLOR] = (u8)get("myCOLUP0"); t.color[P1_COLOR] = (u8)get("myCOLUP1");
    t.ctrlpf = (u8)get("myCTRLPF"); t.prio_score = (u8)get("myPlayfieldPriorityAndScore");
    t.pf_reflect = t.ctrlpf & 1;
    t.refp0 = flag("myREFP0"); t.refp1 = flag("myREFP1");
    t.pf = (u32)get("myPF");
    t.grp0 = (u8)get("myGRP0"); t.grp1 = (u8)get("myGRP1"); t.dgrp0 = (u8)get("myDGRP0"); t.dgrp1 = (u8)get("myDGRP1");
    t.cur_grp0 = (u8)get("myCurrentGRP0"); t.cur_grp1 = (u8)get("myCurrentGRP1");
    t.enam0 = (u8)(flag("myENAM0") << 1); t.enam1 = (u8)(flag("myENAM1") << 1);   // the bits as written
    t.enabl = (u8)(flag("myENABL") << 1); t.denabl = (u8)(flag("myDENABL") << 1);
    t.hmp0 = (u8)get("myHMP0"); t.hmp1 = (u8)get("myHMP1"); t.hmm0 = (u8)get("myHMM0"); t.hmm1 = (u8)get("myHMM1");
    t.hmbl = (u8)get("myHMBL");
    t.vdelp0 = flag("myVDELP0"); t.vdelp1 = flag("myVDELP1"); t.vdelbl = flag("myVDELBL");
    t.resmp0 = (u8)(flag("myRESMP0") << 1); t.resmp1 = (u8)(flag("myRESMP1") << 1);   // cule keeps the bit as written
    t.collision = (u16)get("myCollision");
    t.posp0 = (i16)get("myPOSP0"); t.posp1 = (i16)get("myPOSP1"); t.posm0 = (i16)get("myPOSM0");
    t.posm1 = (i16)get("myPOSM1"); t.posbl = (i16)get("myPOSBL");
    t.hmove_blank = flag("myHMOVEBlankEnabled");
    t.m0_ark = flag("myM0CosmicArkMotionEnabled"); t.m0_ark_counter = (u8)get("myM0CosmicArkCounter");
    t.dump_enabled = flag("myDumpEnabled");
    tia_rebuild_masks(t);
    c.cycles = (u32)get("myCycles");
    // ALE saves states between frames ended by their VSYNC write, the last access on the bus.
    c.frame_done = 1;
    c.last_access_was_read = 0;
    c.data_bus = t.vsync;
    t.partial_frame = t.frame_greyed = 0;
    const i32 into = t.clock_last_update - t.clock_start_display;   // the pixels drawn so far
    const i32 line = into / CLOCKS_PER_LINE, x = into % CLOCKS_PER_LINE - HBLANK;
    t.frame_pos = into < 0 ? 0 : std::min<i32>(SCREEN_PIXELS, line * SCREEN_WIDTH + std::max<i32>(0, std::min<i32>(SCREEN_WIDTH, x)));
    std::memset(out.mutable_data() + sizeof(Machine), 0, SCREEN_BYTES);   // nothing drawn yet: black

    Cart& cart = c.cart;
    if (cart.scheme == CART_F8 || cart.scheme == CART_F6) cart.bank[0] = (u8)get("myCurrentBank");
    if (cart.scheme == CART_E0) {
        std::vector<i64> slices = f["slices"].cast<std::vector<i64>>();
        for (i32 i = 0; i < 4; ++i) cart.bank[i] = (u8)slices[i];
    }

    m.frame_number = (i32)get("m_frame_number");
    // The frame cap counts the frames stepped since the reset, not those the reset counted.
    const i32 reset_frames = m.episode_frame_number - m.episode_steps;   // of `base`, just after its reset
    m.episode_frame_number = (i32)get("m_episode_frame_number");
    m.episode_steps = std::max(0, m.episode_frame_number - reset_frames);
    m.paddle[0] = (i32)get("m_left_paddle"); m.paddle[1] = (i32)get("m_right_paddle");
    m.difficulty = (u8)get("m_difficulty");
    m.action_a = m.action_b = NOOP;   // ALE does not save the sticky actions

    // The game's memory: what ALE saves of it (`f` names cule's flags[0], memory[0..1] where a
    // game keeps any), then the game's rules run once on this RAM, which leaves a finished
    // frame's memory as it is, for lives and terminal.
    GameState& g = m.game;
    std::memset(&g, 0, sizeof(g));
    game_reset(game, g);
    auto has = [&](const char* name) { return f.contains(name); };
    if (has("flag0")) g.flags[0] = (u8)get("flag0");
    if (has("memory0")) g.memory[0] = (i32)get("memory0");
    if (has("memory1")) g.memory[1] = (i32)get("memory1");
    if (has("m_score")) g.score = (i32)get("m_score");
    game_step(game, r.ram, g);
    g.reward = (i32)get("m_reward");
    return out;
}

}  // namespace

PYBIND11_MODULE(_cpu, m) {
    m.doc() = "cule's CPU backend: the kernels/ emulator compiled for the host";
    m.attr("STATE_SIZE") = sizeof(Machine) + SCREEN_BYTES;
    m.attr("NUM_GAMES") = (int)NUM_GAMES;
    m.attr("SCREEN_HEIGHT") = (int)SCREEN_HEIGHT;
    m.attr("SCREEN_WIDTH") = (int)SCREEN_WIDTH;
    m.attr("TIA_LOG_FRAMES") = (int)TIA_LOG_FRAMES;
    m.attr("AREA_AXES_BYTES") = (int)(2 * sizeof(AreaAxis));   // an observation's two axes
    m.def("repeat_threshold", &repeat_threshold, py::arg("repeat_action_probability"));
    m.attr("ACTION_NAMES") = py::tuple(py::cast(std::vector<std::string>(ACTION_NAMES, ACTION_NAMES + NUM_ACTIONS)));
    m.attr("CART_SCHEME_NAMES") =
        py::tuple(py::cast(std::vector<std::string>(CART_SCHEME_NAMES, CART_SCHEME_NAMES + NUM_CART_SCHEMES)));
    m.def("game_catalogue", &game_catalogue, "every game's settings, from its header, in the kernels' order");

    py::class_<GameSpec>(m, "GameSpec")
        .def(py::init(&make_spec), py::arg("rom"), py::arg("game"));

    py::class_<Console1>(m, "Console")
        .def(py::init<GameSpec>())
        .def("power_on", &Console1::power_on)
        .def("system_reset", &Console1::system_reset)
        .def("frame", &Console1::frame, py::arg("a"), py::arg("b") = (int)NOOP, py::arg("reset") = false,
             py::arg("select") = false, py::arg("settings") = true)
        .def("begin_episode", &Console1::begin_episode)
        .def("count_frame", &Console1::count_frame)
        .def("game_reset", &Console1::game_reset)
        .def("clear_actions", &Console1::clear_actions)
        .def("set_difficulty", [](Console1& c, int d) { c.m_.difficulty = (u8)d; })
        .def("ram", &Console1::ram)
        .def("screen", &Console1::screen)
        .def("cpu", &Console1::cpu)
        .def("tia", &Console1::tia)
        .def("state", &Console1::state)
        .def("set_state", &Console1::set_state)
        .def_property_readonly("reward", [](const Console1& c) { return c.m_.game.reward; })
        .def_property_readonly("terminal", [](const Console1& c) { return (bool)c.m_.game.terminal; })
        .def_property_readonly("lives", [](const Console1& c) { return c.m_.game.lives; })
        .def_property_readonly("frame_number", [](const Console1& c) { return c.m_.frame_number; })
        .def_property_readonly("episode_frame_number", [](const Console1& c) { return c.m_.episode_frame_number; });

    py::class_<VecEnv>(m, "VecEnv")
        .def(py::init<GameSpec, i32, i32, double, i32, u32, bool, bool, i32>(), py::arg("spec"),
             py::arg("num_envs"), py::arg("frameskip"), py::arg("repeat_action_probability"),
             py::arg("max_episode_frames"), py::arg("legal_actions"), py::arg("episodic_life"),
             py::arg("life_loss_info"), py::arg("num_threads"))
        .def("set_pool", &VecEnv::set_pool)
        .def("seed", &VecEnv::seed)
        .def("reset", &VecEnv::reset)
        .def("step", &VecEnv::step)
        .def("screens", &VecEnv::screens)
        .def("observe", &VecEnv::observe)
        .def("pending_resets", &VecEnv::pending_resets)
        .def("set_ram", &VecEnv::set_ram)
        .def("ram", &VecEnv::ram)
        .def("info", &VecEnv::info)
        .def("get_states", &VecEnv::get_states)
        .def("set_states", &VecEnv::set_states)
        .def_property("split_render", &VecEnv::split_render, &VecEnv::set_split_render)
        .def_property("last_frame_only", &VecEnv::last_frame_only, &VecEnv::set_last_frame_only)
        .def("render_stats", &VecEnv::render_stats)
        .def("redo_stats", &VecEnv::redo_stats)
        .def_property_readonly("num_envs", &VecEnv::num_envs);

    m.def("state_from_ale", &state_from_ale, py::arg("base"), py::arg("game"), py::arg("fields"));
    m.def("layout", &machine_layout, "sizes and field offsets of the state structs, as this compiler lays them out");

    m.def("palette_rgb", []() {
        py::array_t<u8> out({256, 3});
        for (int i = 0; i < 256; ++i) {
            out.mutable_at(i, 0) = NTSC_RGB[i] >> 16;
            out.mutable_at(i, 1) = NTSC_RGB[i] >> 8 & 0xFF;
            out.mutable_at(i, 2) = NTSC_RGB[i] & 0xFF;
        }
        return out;
    });
    m.def("palette_grey", []() { return py::array_t<u8>(256, NTSC_GREY); });

}
