// N machines stepped together on the pool's threads, with the reset pool (cule._core.VecEnv).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/observe.h"
#include "bindings/single_console.h"
#include "bindings/frame_shrink.h"
#include "bindings/state_check.h"
#include "bindings/thread_pool.h"

namespace cule::bindings {
namespace py = pybind11;

// A line of a full-size observation, observed_channel for every byte, the branches resolved
// outside.
template <bool GREY, bool POOL>
void full_line(const u8* frame, const u8* previous, bool pal, u8* dst) {
    for (i32 p = 0; p < SCREEN_WIDTH; ++p)
        for (i32 k = 0; k < (GREY ? 1 : 3); ++k) *dst++ = observed_channel(frame, previous, POOL, pal, GREY, p, k);
}

// RGB without pooling, the commonest full-size case: four pixels (a line has 160) at a time,
// their 12 bytes in one 8-byte and one 4-byte store, from a table of R, G, B in memory order
// (little-endian, as x86 and NVIDIA GPUs are).
template <>
inline void full_line<false, false>(const u8* frame, const u8*, bool pal, u8* dst) {
    using Table = std::array<u64, 256>;
    auto table = [](bool pal) {
        Table t{};
        for (i32 i = 0; i < 256; ++i)
            t[i] = palette_channel((u8)i, pal, false, 0) | palette_channel((u8)i, pal, false, 1) << 8 |
                   (u64)palette_channel((u8)i, pal, false, 2) << 16;
        return t;
    };
    static const Table ntsc = table(false), pal_table = table(true);
    const u64* rgb = (pal ? pal_table : ntsc).data();
    static_assert(SCREEN_WIDTH % 4 == 0, "whole groups of four pixels per line");
    for (const u8 *f = frame, *end = frame + SCREEN_WIDTH; f < end; f += 4, dst += 12) {
        u32 four;
        std::memcpy(&four, f, 4);
        const u64 a = rgb[four & 0xFF], b = rgb[four >> 8 & 0xFF], c = rgb[four >> 16 & 0xFF], d = rgb[four >> 24];
        const u64 low = a | b << 24 | c << 48;
        const u32 high = (u32)(c >> 16 | d << 8);
        std::memcpy(dst, &low, 8);
        std::memcpy(dst + 8, &high, 4);
    }
}

// Grey without pooling: a byte from the palette's greys for each pixel.
template <>
inline void full_line<true, false>(const u8* frame, const u8*, bool pal, u8* dst) {
    const u8* grey = pal ? PAL_GREY : NTSC_GREY;
    for (i32 p = 0; p < SCREEN_WIDTH; ++p) dst[p] = grey[frame[p]];
}

// Whether two lines of a frame hold the same pixels.
inline bool same_line(const u8* a, const u8* b) {
#if defined(__x86_64__)
    if (use_avx2()) return same_row_avx2(a, b);
#endif
    return !std::memcmp(a, b, SCREEN_WIDTH);
}

// A full-size observation (getScreenRGB's, AtariPreprocessing's getScreenGrayscale twice a
// step), line by line: a line whose pixels (and, pooled, whose previous frame's pixels) repeat
// the line above copies that line's bytes, as most lines of most frames do (backgrounds,
// playfields), for a fraction of the palette's lookups.
template <bool GREY, bool POOL>
void full_frame(const u8* frame, const u8* previous, bool pal, i32 pixels, u8* dst) {
    constexpr i32 line_bytes = SCREEN_WIDTH * (GREY ? 1 : 3);
    for (i32 p = 0; p < pixels; p += SCREEN_WIDTH, dst += line_bytes) {
        if (p && same_line(frame + p, frame + p - SCREEN_WIDTH) &&
            (!POOL || same_line(previous + p, previous + p - SCREEN_WIDTH)))
            std::memcpy(dst, dst - line_bytes, line_bytes);
        else full_line<GREY, POOL>(frame + p, POOL ? previous + p : nullptr, pal, dst);
    }
}

// An env's last full-size frame without pooling, of one kind (grey or RGB): its palette indices
// and the bytes they gave, 134 KB an env for RGB, 67 KB for grey, once used. Frames one apart
// repeat most lines (one-frame steps of the NoFrameskip-v4 ids, 2,000 random actions: Pong 96%,
// Breakout 97%, Seaquest 94%; the line above, which full_frame copies, 94%, 90%, 65%), which are
// then copied from here, not coloured again: AtariPreprocessing's Seaquest step, 3.84M host
// instructions to 3.49M (callgrind). Keyed by the indices themselves: right whatever came between.
struct FullFrameMemo {
    std::vector<u8> indices, bytes;

    template <bool GREY>
    void observe(const u8* frame, bool pal, i32 pixels, u8* dst) {
        constexpr i32 line_bytes = SCREEN_WIDTH * (GREY ? 1 : 3);
        const size_t all_bytes = (size_t)pixels / SCREEN_WIDTH * line_bytes;
        if (indices.size() != (size_t)pixels) {   // the first: every line coloured
            full_frame<GREY, false>(frame, nullptr, pal, pixels, dst);
            indices.assign(frame, frame + pixels);
            bytes.assign(dst, dst + all_bytes);
            return;
        }
        u8 *known = indices.data(), *known_bytes = bytes.data();
        for (i32 p = 0; p < pixels; p += SCREEN_WIDTH, dst += line_bytes, known_bytes += line_bytes) {
            if (!same_line(frame + p, known + p)) {
                if (p && same_line(frame + p, frame + p - SCREEN_WIDTH)) std::memcpy(dst, dst - line_bytes, line_bytes);
                else full_line<GREY, false>(frame + p, nullptr, pal, dst);
                std::memcpy(known + p, frame + p, SCREEN_WIDTH);
                std::memcpy(known_bytes, dst, line_bytes);
            } else {
                std::memcpy(dst, known_bytes, line_bytes);
            }
        }
    }
};

inline void full_frame(bool grey, bool pool, const u8* frame, const u8* previous, bool pal, i32 pixels, u8* dst) {
    if (grey) pool ? full_frame<true, true>(frame, previous, pal, pixels, dst)
                   : full_frame<true, false>(frame, previous, pal, pixels, dst);
    else pool ? full_frame<false, true>(frame, previous, pal, pixels, dst)
              : full_frame<false, false>(frame, previous, pal, pixels, dst);
}

class VecEnv {
  public:
    VecEnv(GameSpec spec, i32 num_envs, i32 frameskip, double repeat_action_probability,
           i32 max_episode_frames, u32 legal_actions, bool episodic_life, bool life_loss_info, u16 resume_noop_max,
           bool resume_fire, bool sound, i32 num_threads)
        : spec_(std::move(spec)), n_(num_envs), machines_(num_envs), screens_((size_t)num_envs * spec_.screen_bytes()),
          rng_(num_envs), needs_reset_(num_envs, 0), restarted_(num_envs, 0), end_frames_(num_envs, 0),
          short_frames_(num_envs, 0),
          threads_(num_threads), full_memos_{std::vector<FullFrameMemo>(num_envs), std::vector<FullFrameMemo>(num_envs)} {
        if (num_envs <= 0) throw std::invalid_argument("num_envs must be positive, got " + std::to_string(num_envs));
        cfg_ = make_step_config(spec_.game, spec_.wiring, frameskip, repeat_action_probability, max_episode_frames,
                                legal_actions, episodic_life, life_loss_info, resume_noop_max, resume_fire, sound);
    }

    // The pool: K snapshots as made by SingleConsole.state(), shape (K, state_size).
    void set_pool(const Bytes& states) {
        check_states(spec_, states, "reset states");
        u32 k = (u32)states.shape(0);
        if (k == 0) throw std::invalid_argument("the reset pool needs at least one state");
        const size_t bytes = spec_.screen_bytes();
        pool_.resize(k);
        pool_screens_.resize((size_t)k * bytes);
        for (u32 i = 0; i < k; ++i) {
            const u8* s = states.data(i, 0);
            std::memcpy(&pool_[i], s, sizeof(Machine));
            std::memcpy(&pool_screens_[i * bytes], s + sizeof(Machine), bytes);
        }
    }

    // Each env's random stream (EnvRng: key, counter), (N, 2); and some envs' set back.
    py::array_t<u64> rngs() const {
        py::array_t<u64> out({(py::ssize_t)n_, (py::ssize_t)2});
        for (i32 i = 0; i < n_; ++i) {
            out.mutable_at(i, 0) = rng_[i].key;
            out.mutable_at(i, 1) = rng_[i].counter;
        }
        return out;
    }
    void set_rngs(const py::array_t<u64, py::array::c_style>& rngs,
                  const py::array_t<i64, py::array::c_style>& env_ids) {
        if (rngs.ndim() != 2 || rngs.shape(1) != 2 || rngs.shape(0) != env_ids.size())
            throw std::invalid_argument("rngs must have shape (len(env_ids), 2)");
        for (py::ssize_t j = 0; j < env_ids.size(); ++j) {
            const i64 i = env_ids.data()[j];
            if (i < 0 || i >= n_) throw std::invalid_argument("env id " + std::to_string(i) + " is out of range");
            rng_[i] = EnvRng{rngs.at(j, 0), rngs.at(j, 1)};
        }
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
        if (pool_.empty()) throw std::logic_error("reset pool is empty");
        const u8* m = mask.data();
        for (i32 i = 0; i < n_; ++i) {
            if (m[i]) {
                env_reset(slot(i), reset_pool(), same_console);
                if (last_frame_only()) last_[i].buffer_behind = 0;
            }
        }
    }

    // One step of every env, each given its input (kernels/ale/ale.h, step_input: ALE's action
    // and paddle strength).
    void step(const py::array_t<u32, py::array::c_style>& inputs, py::array_t<i32, py::array::c_style>& rewards,
              py::array_t<u8, py::array::c_style>& terminated, py::array_t<u8, py::array::c_style>& truncated) {
        step_envs(inputs, rewards, terminated, truncated, nullptr);
    }

    // step() and advance_stacks() in one task per env: its frames are observed while they are in
    // its core's caches, and the step waits for the pool's threads once, not twice.
    void step_and_stack(const py::array_t<u32, py::array::c_style>& inputs,
                        py::array_t<i32, py::array::c_style>& rewards, py::array_t<u8, py::array::c_style>& terminated,
                        py::array_t<u8, py::array::c_style>& truncated, py::array_t<u8, py::array::c_style>& out) {
        step_envs(inputs, rewards, terminated, truncated, stack_buffer(out));
    }

    // The single env's step (CuleAtariEnv's): env 0's step and its stack advanced in one call, the
    // results as Python values, (reward, terminated, truncated, lives, frame_number,
    // episode_frame_number), the reward a float as AtariEnv's, where step() and advance_stacks()
    // fill arrays for N envs.
    py::tuple step_one(u32 input, py::array_t<u8, py::array::c_style>& out) {
        if (n_ != 1) throw std::logic_error("step_one steps a VecEnv of one env, this one has " + std::to_string(n_));
        u8* stacks = stack_buffer(out);
        make_jobs();
        make_scratch();
        StepResult s;
        {
            py::gil_scoped_release release;
            s = step_env(0, input, 0);
            const i32 newest = next_newest();
            advance_env(0, newest, 0, stacks);
            stacks_.newest = newest;
        }
        const Machine& m = machines_[0];
        return py::make_tuple((double)s.reward, (bool)s.terminated, (bool)s.truncated, (i32)m.game.lives, m.frame_number,
                              m.episode_frame_number);
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
    py::tuple redo_stats() const { return py::make_tuple(redone_[0].load(), redone_[1].load()); }

    // Current frames as palette indices, shape (N, height, 160).
    void screens(py::array_t<u8, py::array::c_style>& out) const {
        const i32 pixels = frame_pixels();
        check_length(out.size() / pixels, "screen buffer");
        u8* o = out.mutable_data();
        for (i32 i = 0; i < n_; ++i)
            std::memcpy(o + (size_t)i * pixels, console_screen(machines_[i].console, screen(i)), pixels);
    }

    // The current frames in RGB or grey, height x width (shrunk as OpenCV's INTER_AREA does);
    // where `maxpool` is set, the channel-wise maximum of the last two frames.
    void observe(py::array_t<u8, py::array::c_style>& out, bool grey,
                 const py::array_t<u8, py::array::c_style>& maxpool, i32 height, i32 width) {
        const Observer observer(spec_.display.height, grey, height, width);
        check_length(out.size() / observer.frame_bytes, "observation buffer");
        check_length(maxpool.size(), "maxpool mask");
        u8* o = out.mutable_data();
        const u8* pool = maxpool.data();
        make_scratch();
        py::gil_scoped_release release;
        threads_.for_each(n_, [&](i32 i, i32 thread) {
            observe_env(i, pool[i], observer, scratch_[thread], o + (size_t)i * observer.frame_bytes);
        });
    }

    // The observations CuleEnv hands out: each env's last `depth` frames (observed as `observe`
    // does, max-pooled where `maxpool` is set), or RAMs, oldest first. `vector_env_end`: the
    // frame of a step that ends an episode is AtariVectorEnv's (kernels/env/observe.h), else the
    // frame the episode ended on.
    void set_stacks(bool ram, bool grey, i32 height, i32 width, i32 depth, bool maxpool, bool vector_env_end,
                    bool envpool_end, bool fill) {
        if (depth < 1) throw std::invalid_argument("stacks need at least one frame, got " + std::to_string(depth));
        Stacks& s = stacks_;
        s.observer = ram ? nullptr : std::make_unique<Observer>(spec_.display.height, grey, height, width);
        s.frame_bytes = ram ? RAM_BYTES : s.observer->frame_bytes;
        s.depth = depth;
        s.maxpool = maxpool;
        s.fill = fill;
        s.vector_env_end = vector_env_end && !ram;
        s.envpool_end = envpool_end && !ram;
        s.newest = 0;
        // One frame needs no ring (it is observed straight into the caller's array), unless the
        // step that ends an episode shows the one before.
        s.ring.assign(depth > 1 || s.vector_env_end || s.envpool_end ? (size_t)n_ * depth * s.frame_bytes : 0, 0);
        s.pooled.assign(n_, 0);
        // The pooled frame before shrinking, for a step ending on its last frame; at full size
        // the ring holds it.
        s.held_bytes = s.vector_env_end && maxpool && s.observer->resize
                           ? frame_pixels() * observe_channels(s.observer->cfg) : 0;
        s.held.assign((size_t)n_ * s.held_bytes, 0);
    }

    // After a step: each env's newest frame onto its stack, max-pooled unless its episode
    // restarted in the step (then its stack restarts too: zeros, then the frame; not where the
    // game resumed after a lost life, StepConfig.resume_noop_max), or where
    // the step ended the episode AtariVectorEnv's; the stacks into `out`, (N, depth, frame...).
    void advance_stacks(py::array_t<u8, py::array::c_style>& out) {
        u8* o = stack_buffer(out);
        const i32 newest = next_newest();
        make_scratch();
        py::gil_scoped_release release;
        threads_.for_each(n_, [&](i32 i, i32 thread) { advance_env(i, newest, thread, o); });
        stacks_.newest = newest;
    }

    // After a reset: the masked envs' stacks restart, zeros then their current frame; every
    // other env's newest frame is observed again as it was (a state set since shows), but for
    // AtariVectorEnv's end of an episode, kept. The stacks into `out`.
    void restart_stacks(const py::array_t<u8, py::array::c_style>& mask, py::array_t<u8, py::array::c_style>& out) {
        Stacks& s = stacks_;
        u8* o = stack_buffer(out);
        check_length(mask.size(), "restart mask");
        const u8* m = mask.data();
        make_scratch();
        py::gil_scoped_release release;
        threads_.for_each(n_, [&](i32 i, i32 thread) {
            if (m[i]) s.pooled[i] = 0;
            const bool ended = (s.vector_env_end || s.envpool_end) && needs_reset_[i];
            const Newest how = m[i] ? Newest::RESTART : ended ? Newest::KEEP : Newest::OBSERVE;
            stack_frame(i, s.newest, how, thread, o + (size_t)i * s.depth * s.frame_bytes);
        });
    }

    // Which environments start a new episode at their next step.
    void pending_resets(py::array_t<u8, py::array::c_style>& out) const {
        check_length(out.size(), "pending resets");
        std::memcpy(out.mutable_data(), needs_reset_.data(), (size_t)n_);
    }

    void ram(py::array_t<u8, py::array::c_style>& out) const {
        check_length(out.size() / RAM_BYTES, "ram buffer");
        for (i32 i = 0; i < n_; ++i)
            std::memcpy(out.mutable_data() + (size_t)i * RAM_BYTES, machines_[i].console.riot.ram, RAM_BYTES);
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

    // Where each env's episode stands: whether its game is over (ALE's game_over), and the frames
    // its frame cap has counted (Machine.episode_steps).
    py::dict episode_state() const {
        py::array_t<u8> over(n_);
        py::array_t<i32> steps(n_);
        for (i32 i = 0; i < n_; ++i) {
            over.mutable_data()[i] = machines_[i].game.terminal;
            steps.mutable_data()[i] = machines_[i].episode_steps;
        }
        py::dict d;
        d["game_over"] = over;
        d["episode_steps"] = steps;
        return d;
    }

    Bytes get_states() {
        Bytes out({(py::ssize_t)n_, (py::ssize_t)spec_.state_bytes()});
        for (i32 i = 0; i < n_; ++i) {
            draw_left_behind(i);
            u8* o = out.mutable_data(i, 0);
            std::memcpy(o, &machines_[i], sizeof(Machine));
            std::memcpy(o + sizeof(Machine), screen(i), spec_.screen_bytes());
        }
        return out;
    }

    void set_states(const Bytes& states, const py::array_t<i64, py::array::c_style>& env_ids) {
        if (states.ndim() != 2 || states.shape(0) != env_ids.size())
            throw std::invalid_argument("states must have shape (len(env_ids), state_size)");
        check_states(spec_, states, "states");
        for (py::ssize_t j = 0; j < env_ids.size(); ++j) {
            i64 i = env_ids.data()[j];
            if (i < 0 || i >= n_) throw std::invalid_argument("env id out of range: " + std::to_string(i));
            const u8* s = states.data(j, 0);
            std::memcpy(&machines_[i], s, sizeof(Machine));
            std::memcpy(screen(i), s + sizeof(Machine), spec_.screen_bytes());
            needs_reset_[i] = 0;
            if (last_frame_only()) last_[i].buffer_behind = 0;
        }
    }

    // ALE's setRAM for all RAM_BYTES bytes of each listed environment; nothing else changes.
    void set_ram(const py::array_t<u8, py::array::c_style>& ram, const py::array_t<i64, py::array::c_style>& env_ids) {
        if (ram.ndim() != 2 || ram.shape(1) != RAM_BYTES || ram.shape(0) != env_ids.size())
            throw std::invalid_argument("ram must have shape (len(env_ids), 128)");
        for (py::ssize_t j = 0; j < env_ids.size(); ++j) {
            i64 i = env_ids.data()[j];
            if (i < 0 || i >= n_) throw std::invalid_argument("env id out of range: " + std::to_string(i));
            std::memcpy(machines_[i].console.riot.ram, ram.data(j, 0), RAM_BYTES);
        }
    }

    i32 num_envs() const { return n_; }
#ifdef CULE_TRACE
    // Traces of the split step's passes (kernels/testing/trace.h): start_trace(k) records the
    // first k envs' steps after it; take_trace() gives the state pass's events, (events, 8) bytes,
    // and each env's count, take_render_trace() the same of the render pass's replay.
    void start_trace(i32 envs) {
        if (!split_render_) throw std::logic_error("traces follow the split step: set split_render first");
        if (envs < 0 || envs > n_) throw std::invalid_argument("envs to trace: 0 to num_envs");
        traces_.assign(envs, {});
        render_traces_.assign(envs, {});
        trace::tracing = envs > 0;
    }
    py::tuple take_trace() { return take(traces_); }
    py::tuple take_render_trace() { return take(render_traces_); }
#endif
    i32 num_threads() const { return threads_.size(); }
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
    // How frames become observations of one size: its weights worked out once.
    struct Observer {
        ObserveConfig cfg;   // points at ys and xs: an Observer is never copied
        AreaAxis ys, xs;
        bool resize;
        RowWeights row_weights;   // the area case, a whole frame at once (else empty)
        i32 frame_bytes;

        Observer(i32 source_height, bool grey, i32 height, i32 width) {
            if (height < 1 || height > source_height || width < 1 || width > SCREEN_WIDTH)
                throw std::invalid_argument("observations can be 1.." + std::to_string(source_height) + " x 1.." +
                                            std::to_string(SCREEN_WIDTH) + " pixels, got " + std::to_string(height) +
                                            " x " + std::to_string(width));
            resize = height != source_height || width != SCREEN_WIDTH;
            if (resize) {   // the weights only where frames shrink: the full-size path stays lean
                area_axis(source_height, height, ys);
                area_axis(SCREEN_WIDTH, width, xs);
                if (!(ys.block && xs.block)) row_weights = RowWeights(xs, width);
            }
            cfg = {height, width, (u8)grey, &ys, &xs};
            frame_bytes = height * width * observe_channels(cfg);
        }
        Observer(const Observer&) = delete;
        Observer& operator=(const Observer&) = delete;
    };

    // Each env's ring of its last `depth` observations; the newest slot is the same for all.
    struct Stacks {
        std::unique_ptr<Observer> observer;   // null: the stacks hold RAMs
        i32 depth = 1, frame_bytes = 0, newest = 0, held_bytes = 0;
        bool maxpool = false, vector_env_end = false, envpool_end = false;
        bool fill = false;        // a restarted stack holds its first frame throughout (EnvPool's), not zeros
        std::vector<u8> ring;     // [env][slot][frame_bytes], where depth > 1 or either end needs it
        std::vector<u8> pooled;   // whether each env's newest frame is max-pooled
        std::vector<u8> held;     // [env][held_bytes]: the newest frame, pooled, before shrinking
    };

    // How stack_frame makes an env's newest frame: observed from its frame buffers (RESTART: its
    // stack restarts, zeros before it), AtariVectorEnv's at the end of an episode, or as it is.
    enum class Newest { OBSERVE, RESTART, END, KEEP };

    // step() of every env, each env's stack advanced in the same task where `stacks` (the
    // stacks' bytes, stack_buffer) is given.
    void step_envs(const py::array_t<u32, py::array::c_style>& inputs, py::array_t<i32, py::array::c_style>& rewards,
                   py::array_t<u8, py::array::c_style>& terminated, py::array_t<u8, py::array::c_style>& truncated,
                   u8* stacks) {
        check_length(inputs.size(), "inputs");
        check_length(rewards.size(), "rewards");
        check_length(terminated.size(), "terminated");
        check_length(truncated.size(), "truncated");
        const u32* a = inputs.data();
        i32* r = rewards.mutable_data();
        u8* te = terminated.mutable_data();
        u8* tr = truncated.mutable_data();
        const i32 newest = stacks ? next_newest() : 0;
        make_jobs();
        if (stacks) make_scratch();
        py::gil_scoped_release release;
        threads_.for_each(n_, [&](i32 i, i32 thread) {
            const StepResult s = step_env(i, a[i], thread);
            r[i] = s.reward;
            te[i] = s.terminated;
            tr[i] = s.truncated;
            if (stacks) advance_env(i, newest, thread, stacks);
        });
        if (stacks) stacks_.newest = newest;
    }

    // Env i's step with `input`, on thread `thread`.
    StepResult step_env(i32 i, u32 input, i32 thread) {
        StepResult s;
        restarted_[i] = needs_reset_[i];
        const i32 frames_before = machines_[i].episode_frame_number;
        if (split_render_) {   // the GPU's two passes, one env at a time
            draw_left_behind(i);   // a step run again draws over both buffers as they were
            ThreadJob& job = jobs_[thread];
            job.log.events = job.events;   // each log its own run (tia_log.h)
            job.log.step = 1;
#ifdef CULE_TRACE   // each pass apart, as the GPU's kernels run them: the state pass, the replay
            bool traced = (size_t)i < traces_.size();
            trace::sink = traced ? &traces_[i] : nullptr;
#endif
            s = env_step_logged(slot(i), reset_pool(), spec_.rom.data(), cfg_, input, job);
#ifdef CULE_TRACE   // (a step run again drawing is cule_redo's, not the replay's)
            trace::sink = traced && !job.redo ? &render_traces_[i] : nullptr;
#endif
            render_step(job, slot(i), spec_.rom.data(), cfg_);
#ifdef CULE_TRACE
            trace::sink = nullptr;
#endif
            job.stats.count(job);
        } else {
            bool behind = last_frame_only() && last_[i].buffer_behind;
            s = env_step(slot(i), reset_pool(), spec_.rom.data(), cfg_, input,
                         last_frame_only() ? &last_[i] : nullptr, &short_frames_[i]);
            if (s.redone) redone_[behind] += 1;
        }
        end_frames_[i] = needs_reset_[i] ? machines_[i].episode_frame_number - frames_before : 0;
        return s;
    }

    // Env i's newest frame onto its stack as advance_stacks says, the ring's newest slot now
    // `newest`; the stack into its place in `out`, the stacks of every env.
    void advance_env(i32 i, i32 newest, i32 thread, u8* out) {
        Stacks& s = stacks_;
        s.pooled[i] = s.maxpool && !restarted_[i];
        Newest how = restarted_[i] == NEW_EPISODE ? Newest::RESTART
                     : at_end(i)                    ? Newest::END
                                                    : Newest::OBSERVE;
        // EnvPool's step stops at a game over, capturing only the step's last two frames:
        // ended on its last frame, the frame pooled; on the next-to-last, that frame alone;
        // earlier, the newest before again.
        if (s.envpool_end && needs_reset_[i]) {
            const i32 k = end_frames_[i], f = cfg_.frameskip;
            if (k < f) s.pooled[i] = 0;
            if (k < f - 1) how = Newest::END;
        }
        stack_frame(i, newest, how, thread, out + (size_t)i * s.depth * s.frame_bytes);
    }

    // `out` checked as the stacks of every env; its bytes.
    u8* stack_buffer(py::array_t<u8, py::array::c_style>& out) {
        if (!stacks_.frame_bytes) throw std::logic_error("set_stacks comes first");
        check_length(out.size() / ((size_t)stacks_.depth * stacks_.frame_bytes), "observation buffer");
        return out.mutable_data();
    }

    // The ring slot an advance of the stacks makes the newest.
    i32 next_newest() const { return (stacks_.newest + 1) % stacks_.depth; }

    void make_jobs() {
        if (split_render_ && jobs_.size() < (size_t)threads_.size()) jobs_.resize(threads_.size());
    }

    // Whether env i's last step ended its episode, shown as AtariVectorEnv shows it.
    bool at_end(i32 i) const { return stacks_.vector_env_end && needs_reset_[i]; }

    void make_scratch() {
        if (scratch_.size() < (size_t)threads_.size()) scratch_.resize(threads_.size());
    }

    // Env i's observation of its current frame into dst; where `held` is given, the frame before
    // shrinking into it too.
    void observe_env(i32 i, bool pool, const Observer& ob, ShrinkScratch& scratch, u8* dst, u8* held = nullptr) {
        if (pool) draw_left_behind(i);
        const Console& c = machines_[i].console;
        const u8 *frame = console_screen(c, screen(i)), *previous = console_previous_screen(c, screen(i));
        const bool grey = ob.cfg.grey, pal = spec_.display.pal;
        if (!ob.resize && !pool) {
            FullFrameMemo& memo = full_memos_[grey][i];
            return grey ? memo.observe<true>(frame, pal, frame_pixels(), dst)
                        : memo.observe<false>(frame, pal, frame_pixels(), dst);
        }
        if (!ob.resize) return full_frame(grey, pool, frame, previous, pal, frame_pixels(), dst);
        if (ob.row_weights.width)   // observe_element's area case, a whole frame at once
            return shrink_frame(grey, pool, frame, previous, pal, spec_.display.height, ob.ys, ob.cfg.height,
                                ob.row_weights, scratch, dst, held);
        const i32 channels = observe_channels(ob.cfg);
        for (i32 y = 0; y < ob.cfg.height; ++y)   // whole scales: block sums
            for (i32 x = 0; x < ob.cfg.width; ++x)
                for (i32 k = 0; k < channels; ++k)
                    *dst++ = observe_element(machines_[i], screen(i), pool, ob.cfg, y, x, k);
        if (held) full_frame(grey, pool, frame, previous, pal, frame_pixels(), held);
    }

    // Env i's newest frame (or RAM) into its stack's slot `newest` as `how` says, the others
    // zeroed where it restarts; the stack, oldest first, into `out`.
    void stack_frame(i32 i, i32 newest, Newest how, i32 thread, u8* out) {
        Stacks& s = stacks_;
        const size_t bytes = s.frame_bytes;
        const bool restart = how == Newest::RESTART;
        auto observe_into = [&](u8* dst) {
            if (!s.observer) return (void)std::memcpy(dst, machines_[i].console.riot.ram, 128);
            observe_env(i, s.pooled[i], *s.observer, scratch_[thread], dst,
                        s.held_bytes ? s.held.data() + (size_t)i * s.held_bytes : nullptr);
        };
        if (s.ring.empty()) return observe_into(out);
        u8* ring = s.ring.data() + (size_t)i * s.depth * bytes;
        if (how == Newest::END) end_frame(i, ring + s.newest * bytes, ring + newest * bytes);
        else if (how != Newest::KEEP) observe_into(ring + newest * bytes);
        for (i32 k = 1; k <= s.depth; ++k) {   // oldest first: the slot after the newest
            const i32 slot = (newest + k) % s.depth;
            if (restart && slot != newest && s.fill) std::memcpy(ring + slot * bytes, ring + newest * bytes, bytes);
            else if (restart && slot != newest) std::memset(ring + slot * bytes, 0, bytes);
            std::memcpy(out + (size_t)(k - 1) * bytes, ring + slot * bytes, bytes);
        }
    }

    // AtariVectorEnv's newest frame for env i, whose last step ended its episode, into `dst`:
    // `previous`, the newest before the step, again, or where the episode ended on the step's
    // last frame under max-pooling, its pooled frame before shrinking max-pooled with the step's
    // next-to-last (`previous` and `dst` may be one slot).
    void end_frame(i32 i, const u8* previous, u8* dst) {
        const Stacks& s = stacks_;
        if (!(s.maxpool && end_frames_[i] == cfg_.frameskip)) {
            if (dst != previous) std::memcpy(dst, previous, s.frame_bytes);
            return;
        }
        const u8* held = s.held_bytes ? s.held.data() + (size_t)i * s.held_bytes : previous;
        const u8* next_to_last = console_previous_screen(machines_[i].console, screen(i));
        const ObserveConfig& o = s.observer->cfg;
        const i32 channels = observe_channels(o);
        for (i32 y = 0; y < o.height; ++y)
            for (i32 x = 0; x < o.width; ++x)
                for (i32 k = 0; k < channels; ++k)
                    *dst++ = observe_end_element(held, next_to_last, spec_.display.pal, o, spec_.display.height, y,
                                                 x, k);
    }

    i32 frame_pixels() const { return display_pixels(spec_.display); }
    u8* screen(i32 i) { return screens_.data() + (size_t)i * spec_.screen_bytes(); }
    EnvSlot slot(i32 i) { return EnvSlot{machines_[i], screen(i), rng_[i], needs_reset_[i]}; }
    ResetPool reset_pool() const { return ResetPool{pool_.data(), pool_screens_.data(), (u32)pool_.size()}; }
    const u8* screen(i32 i) const { return screens_.data() + (size_t)i * spec_.screen_bytes(); }
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
    std::vector<u8> restarted_;      // what each env's last step began: NEW_EPISODE, RESUME_GAME or PLAYING
    std::vector<i32> end_frames_;    // where it ended its episode, the frames it ran (else 0)
    std::vector<u8> short_frames_;   // env_step's prediction: the next step draws every frame at once
    std::vector<Machine> pool_;
    std::vector<u8> pool_screens_;
    ThreadPool threads_;
    // The split passes (kernels/env/env.h: env_step_logged, render_step) instead of env_step: the
    // CUDA backend's way, here to check it against the direct one.
    bool split_render_ = false;
#ifdef CULE_TRACE
    std::vector<std::vector<trace::Event>> traces_, render_traces_;   // per env, while tracing

    static py::tuple take(std::vector<std::vector<trace::Event>>& traces) {
        std::vector<i64> counts(traces.size());
        size_t total = 0;
        for (size_t i = 0; i < traces.size(); ++i) total += (counts[i] = (i64)traces[i].size());
        py::array_t<u8> events({(py::ssize_t)total, (py::ssize_t)sizeof(trace::Event)});
        u8* out = events.mutable_data();
        for (auto& t : traces) {
            std::memcpy(out, t.data(), t.size() * sizeof(trace::Event));
            out += t.size() * sizeof(trace::Event);
        }
        traces.clear();
        trace::tracing = false;
        return py::make_tuple(events, py::array_t<i64>(counts.size(), counts.data()));
    }
#endif
    std::vector<LastStep> last_;   // one per env where steps draw only their last frame
    std::atomic<u64> redone_[2] = {{0}, {0}};
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
        TiaEvent events[TIA_LOG_EVENTS];
    };
    std::vector<ThreadJob> jobs_;
    std::vector<ShrinkScratch> scratch_;   // one per thread
    std::vector<FullFrameMemo> full_memos_[2];   // one per env, RGB and grey (each empty until used)
    Stacks stacks_;
};


inline py::dict machine_layout() {
#define CULE_LAYOUT_NAME(name, value) #name,
    const char* const names[NUM_LAYOUT_FIELDS] = {CULE_FOR_EACH_LAYOUT_FIELD(CULE_LAYOUT_NAME)};
#undef CULE_LAYOUT_NAME
    u64 values[NUM_LAYOUT_FIELDS];
    state_layout(values);
    py::dict d;
    for (i32 i = 0; i < NUM_LAYOUT_FIELDS; ++i) d[names[i]] = values[i];
    return d;
}

}  // namespace cule::bindings
