// One vector-env step for one environment: frameskip frames with sticky actions, ALE's reward,
// terminal and truncation rules, and next-step autoreset from a pool of seed states. The CPU
// backend calls it in a loop over environments; the CUDA backend calls it once per thread.
#pragma once
#include "types.h"
#include "ale/ale.h"

namespace cule {

// Counter-based random numbers (SplitMix64 of key + counter): an environment's stream depends
// only on its key and how many numbers it has drawn, so CPU and GPU give the same draws.
struct EnvRng {
    u64 key;
    u64 counter;
};

CULE_HD u64 mix64(u64 z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

CULE_HD u32 rng_u32(EnvRng& r) {
    r.counter += 1;
    return (u32)(mix64(r.key + 0x9E3779B97F4A7C15ull * r.counter) >> 32);
}

struct StepConfig {
    i32 game;
    Wiring wiring;
    i32 frameskip;
    u64 repeat_threshold;     // a stored action changes when a draw is >= this (p * 2^32)
    i32 max_episode_frames;   // 0: no cap
    u32 legal_actions;        // bit a: ALE plays action a; illegal ones become NOOP
    u8 episodic_life;         // a lost life ends the step and the episode (AtariVectorEnv's)
    u8 life_loss_info;        // a lost life sets terminated, the game goes on
    // EnvPool's episodic life instead, where not 0: a lost life ends the episode but not the
    // step, and the next step resumes the same game after 1 .. resume_noop_max frames of NOOP
    // (the last one FIRE where resume_fire).
    u8 resume_fire;
    u8 sound;                 // the sound generator runs after every frame (ALE's sound_obs)
    u16 resume_noop_max;
};

// What an environment's next step does (EnvSlot.needs_reset): play, start a new episode from the
// reset pool, or go on with the game after a lost life (StepConfig.resume_noop_max).
enum : u8 { PLAYING = 0, NEW_EPISODE = 1, RESUME_GAME = 2 };

struct StepResult {
    i32 reward;
    u8 terminated, truncated;
    u8 redone;   // the step ran again from its start, drawing every frame
};

CULE_HD bool episode_truncated(const Machine& m, const StepConfig& cfg) {
    return cfg.max_episode_frames > 0 && m.episode_steps >= cfg.max_episode_frames;
}

// One environment in the backends' arrays: its machine, both frame buffers, its RNG, and whether
// its next step starts a new episode.
struct EnvSlot {
    Machine& machine;
    u8* screens;
    EnvRng& rng;
    u8& needs_reset;
};

// The reset pool: the seed states (machines and both frame buffers of each) episodes start from.
struct ResetPool {
    const Machine* machines;
    const u8* screens;
    u32 size;
};

// Copies seed state k of the pool (machine and both frame buffers) into an environment. On the
// same console (ALE's reset_game) the frame number keeps counting, plus the frames the reset
// counted (the state's episode frame number); a fresh console (loadROM) restarts it. The frame
// cap counts the frames stepped from here, as AtariVectorEnv does.
CULE_HD void load_pool_state(EnvSlot env, const ResetPool& pool, u32 k, bool same_console) {
    Machine& m = env.machine;
    i32 frame_number = m.frame_number;
    m = pool.machines[k];
    if (same_console) m.frame_number = count_up(frame_number, m.episode_frame_number);
    m.episode_steps = 0;
    const u64 screen_bytes = 2 * (u64)frame_pixels(m.console.tia);
    copy_words(env.screens, pool.screens + k * screen_bytes, screen_bytes);
}

// A new episode from a pool state picked by the environment's RNG.
CULE_HD void env_reset(EnvSlot env, const ResetPool& pool, bool same_console) {
    u32 k = pool.size > 1 ? rng_u32(env.rng) % pool.size : 0;
    load_pool_state(env, pool, k, same_console);
    env.needs_reset = 0;
}

// The threshold for a repeat probability p: ceil(p * 2^32), so that p = 0 never repeats and a
// draw repeats with probability p as ALE's does. Host only: the backends compute it once.
inline u64 repeat_threshold(double p) {
    u64 threshold = (u64)(p * 4294967296.0);
    return (double)threshold < p * 4294967296.0 ? threshold + 1 : threshold;
}

// The step's settings, made here for every backend: the CPU backend's VecEnv holds one, and the
// CUDA backend hands its bytes to the kernels (cule._core.step_config; the layout check covers it).
// Host only; padding bytes zeroed, so that equal settings have equal bytes.
#ifndef __CUDACC_RTC__
inline StepConfig make_step_config(i32 game, Wiring wiring, i32 frameskip, double repeat_action_probability,
                                   i32 max_episode_frames, u32 legal_actions, bool episodic_life,
                                   bool life_loss_info, u16 resume_noop_max, bool resume_fire, bool sound) {
    StepConfig cfg;
    __builtin_memset(&cfg, 0, sizeof cfg);
    cfg.game = game;
    cfg.wiring.left_paddles = wiring.left_paddles;   // member by member: a struct copy may copy padding
    cfg.wiring.right_paddles = wiring.right_paddles;
    cfg.wiring.swap_ports = wiring.swap_ports;
    cfg.wiring.swap_paddles = wiring.swap_paddles;
    cfg.wiring.power_on_switches = wiring.power_on_switches;
    cfg.wiring.paddle_max = wiring.paddle_max;
    cfg.frameskip = frameskip;
    cfg.repeat_threshold = repeat_threshold(repeat_action_probability);
    cfg.max_episode_frames = max_episode_frames;
    cfg.legal_actions = legal_actions;
    cfg.episodic_life = episodic_life && !resume_noop_max;
    cfg.life_loss_info = life_loss_info;
    cfg.resume_noop_max = episodic_life ? resume_noop_max : 0;
    cfg.resume_fire = resume_fire;
    cfg.sound = sound;
    return cfg;
}
#endif

// ALE's sticky actions, drawn for both players before every frame, emulated or not: player A
// takes the step's input unless its draw falls below the threshold, and then keeps the last;
// player B plays NOOP.
CULE_HD void latch_actions(Machine& m, EnvRng& rng, const StepConfig& cfg, u32 input) {
    if (rng_u32(rng) >= cfg.repeat_threshold) m.input_a = input;
    if (rng_u32(rng) >= cfg.repeat_threshold) m.action_b = NOOP;
}

// ALE's sound observation after a frame (tia_sound.h): the audio writes since the last applied,
// then a frame's samples, which the host makes again from `sound_shown`.
CULE_HD void sound_frame(Machine& m) {
    sound_apply(m.sound, m.console.tia);
    m.sound_shown = m.sound;
    sound_samples(m.sound, nullptr, SOUND_SAMPLES);
}

// Player A's action as ALE plays it: one the game does not take is NOOP.
CULE_HD u8 played_action(const Machine& m, const StepConfig& cfg) {
    const u8 a = input_action(m.input_a);
    return (cfg.legal_actions >> a & 1) ? a : (u8)NOOP;
}

// The frames of one step, with sticky actions. Frames before `draw_from` only latch collisions
// (their pixels are never observed); the others are drawn, or where LOGGED logged into `log` for
// the render pass (then no drawing code is compiled in); IN_PASSES: the GPU's warp schedule
// (console.h, run_frame_in_passes), the RAM and the TIA in the lane's `tiles`. Returns the reward, and in
// `buffers_exact` whether the frame buffers now hold what ALE's would, so that no row of an
// undrawn frame shows through: the last two frames emulated were drawn in full, or (drawing
// only the last frame) the step ran to its end and its last two frames were whole, the one
// before the last undrawn but drawn whole by running the step again (redraw_behind_buffer).
// `ends_whole`: the last two frames emulated were whole, drawn or not.
template <bool LOGGED, bool IN_PASSES = false>
CULE_HD i32 step_frames(Machine& m, u8* screen, EnvRng& rng, const u8* rom, const StepConfig& cfg, u32 input,
                        i32 draw_from, TiaLog* log, bool& life_lost, bool& buffers_exact, bool& ends_whole,
                        LaneTiles tiles = {}) {
    // As AtariVectorEnv: a life counts as lost while the lives are below the last step's and
    // above zero (a game over is not a lost life).
    i32 lives_before = m.game.lives, reward = 0, drawn_in_full = 0, whole_in_a_row = 0;
    life_lost = false;
    for (i32 f = 0; f < cfg.frameskip; ++f) {
        latch_actions(m, rng, cfg, input);
        if (!m.game.terminal && !episode_truncated(m, cfg) && !(cfg.episodic_life && life_lost)) {
            const u8 a = played_action(m, cfg);
            bool draw = f >= draw_from;
            if (draw && !LOGGED)
                ale_frame<true>(m, cfg.wiring, cfg.game, screen, rom, a, m.action_b, false, false, true);
            else
                ale_frame<false, IN_PASSES>(m, cfg.wiring, cfg.game, screen, rom, a, m.action_b, false, false, true,
                                            draw ? log : nullptr, tiles);
            const Tia& t = m.console.tia;
            bool whole = !t.partial_frame && t.frame_pos >= frame_pixels(t);   // every pixel written
            whole_in_a_row = whole ? whole_in_a_row + 1 : 0;
            drawn_in_full = draw && whole ? drawn_in_full + 1 : 0;
            m.frame_number = count_up(m.frame_number);
            m.episode_frame_number = count_up(m.episode_frame_number);
            m.episode_steps = count_up(m.episode_steps);
            reward += m.game.reward;
            life_lost = m.game.lives < lives_before && m.game.lives > 0;
        }
        if (cfg.sound) sound_frame(m);   // as ALE, after every frame of a step, played or not
    }
    buffers_exact = draw_from == 0 || drawn_in_full >= 2 ||
                    (draw_from == cfg.frameskip - 1 && drawn_in_full == 1 && whole_in_a_row >= 2);
    ends_whole = whole_in_a_row >= 2;
    return reward;
}

// A step's flags from the machine after its frames; whether the next step starts an episode.
CULE_HD void finish_step(const Machine& m, const StepConfig& cfg, bool life_lost, StepResult& out, u8& needs_reset) {
    const bool resumes = cfg.resume_noop_max && life_lost;
    out.terminated = m.game.terminal || ((cfg.life_loss_info || cfg.episodic_life || cfg.resume_noop_max) && life_lost);
    out.truncated = !out.terminated && episode_truncated(m, cfg);
    needs_reset = m.game.terminal || episode_truncated(m, cfg) ? NEW_EPISODE
                  : resumes                                    ? RESUME_GAME
                  : cfg.episodic_life && life_lost             ? NEW_EPISODE
                                                               : PLAYING;
}

// EnvPool's reset after a lost life (StepConfig.resume_noop_max): the same game goes on after
// 1 .. resume_noop_max frames, NOOP but the last FIRE where resume_fire, with sticky actions as in
// a step; nothing is rewarded. Every frame is drawn: the frame shown then needs no pooling, and
// rows a frame leaves show the buffers as ALE's. As EnvPool's steps, these frames do not count
// towards the frame cap. A game that ends in them starts a new episode at the next step.
CULE_HD void resume_game(Machine& m, u8* screen, EnvRng& rng, const u8* rom, const StepConfig& cfg, u8& needs_reset) {
    const i32 frames = (i32)(rng_u32(rng) % cfg.resume_noop_max) + 1;
    for (i32 f = 0; f < frames && !m.game.terminal; ++f) {
        const u8 action = cfg.resume_fire && f == frames - 1 ? (u8)FIRE : (u8)NOOP;
        latch_actions(m, rng, cfg, step_input(action, PADDLE_DELTA));
        ale_frame<true>(m, cfg.wiring, cfg.game, screen, rom, played_action(m, cfg), m.action_b, false, false, true);
        m.frame_number = count_up(m.frame_number);
        m.episode_frame_number = count_up(m.episode_frame_number);
    }
    needs_reset = m.game.terminal ? NEW_EPISODE : PLAYING;
}

// The frames a step shows: its last two (the observation and the one it is max-pooled with).
CULE_HD i32 first_shown_frame(const StepConfig& cfg) { return cfg.frameskip > 2 ? cfg.frameskip - 2 : 0; }

// Where the last step started, for a step that draws only its last frame (observations without
// max-pooling): the buffer of the frame before it, which then still holds an older frame, can
// be drawn when something needs it by running the step again from here.
struct LastStep {
    Machine start;
    EnvRng start_rng;
    u32 input;          // step_input
    u8 buffer_behind;   // the other frame buffer does not hold the step's next-to-last frame yet
    u8 padding[3];
};

// Runs a step again from its start for its pixels, drawing from frame `draw_from`; the machine
// it reaches is dropped (the step's own run already reached it).
CULE_HD void redo_step(const Machine& start, const EnvRng& start_rng, u32 input, i32 draw_from, u8* screen,
                       const u8* rom, const StepConfig& cfg) {
    Machine m = start;
    EnvRng rng = start_rng;
    bool life_lost, exact, whole;
    step_frames<false>(m, screen, rng, rom, cfg, input, draw_from, nullptr, life_lost, exact, whole);
}

// Brings the buffer left behind up to date: both buffers then hold what ALE's do. The step's
// last two frames were whole, so drawing them from its start rewrites every pixel of both.
CULE_HD void redraw_behind_buffer(LastStep& last, u8* screen, const u8* rom, const StepConfig& cfg) {
    if (!last.buffer_behind) return;
    redo_step(last.start, last.start_rng, last.input, cfg.frameskip - 2, screen, rom, cfg);
    last.buffer_behind = 0;
}

// One vector-env step, drawing as it goes. Only the last two frames are drawn, or with `last`
// only the last one; where that would not leave ALE's pixels (a frame cut short, an episode
// ending early) the step runs again from its start, drawing every frame. With `short_frames`,
// a step whose last two frames were not both whole predicts the same of the next, which then
// draws every frame at once instead of running twice: a game whose frames all end before the
// display's last row (Journey Escape's are 263 lines; its 230 rows from line 34 need 264) would
// otherwise run every step twice.
CULE_HD StepResult env_step(EnvSlot env, const ResetPool& pool, const u8* rom, const StepConfig& cfg, u32 input,
                            LastStep* last = nullptr, u8* short_frames = nullptr) {
    Machine& m = env.machine;
    u8* screen = env.screens;
    EnvRng& rng = env.rng;
    StepResult out = {0, 0, 0, 0};
    if (env.needs_reset == RESUME_GAME) {   // drawing every frame over both buffers as ALE's
        if (last) redraw_behind_buffer(*last, screen, rom, cfg);
        resume_game(m, screen, rng, rom, cfg, env.needs_reset);
        return out;
    }
    if (env.needs_reset) {   // the step after an episode's end returns the next episode's first frame
        env_reset(env, pool, true);
        if (last) last->buffer_behind = 0;
        return out;
    }
    bool life_lost, exact = false, whole;
    i32 first = last && cfg.frameskip >= 2 ? cfg.frameskip - 1 : first_shown_frame(cfg);
    const bool at_once = short_frames && *short_frames;
    if (first > 0 && !at_once) {
        const Machine start = m;
        const EnvRng start_rng = rng;
        out.reward = step_frames<false>(m, screen, rng, rom, cfg, input, first, nullptr, life_lost, exact, whole);
        if (!exact) {
            m = start;
            rng = start_rng;
        } else if (last) {
            *last = LastStep{start, start_rng, input, 1, {}};   // frame frameskip - 2 went undrawn
        }
    }
    if (!exact) {
        // Rows its frames do not reach show the buffers as the step found them: bring the one
        // the last step left behind up to date first.
        if (last) redraw_behind_buffer(*last, screen, rom, cfg);
        out.reward = step_frames<false>(m, screen, rng, rom, cfg, input, 0, nullptr, life_lost, exact, whole);
        out.redone = first > 0 && !at_once;
        if (last) last->buffer_behind = 0;
    }
    if (short_frames) *short_frames = !whole;
    finish_step(m, cfg, life_lost, out, env.needs_reset);
    return out;
}

// What the state-update pass leaves the render pass for one environment: the log of the frames
// the step shows and the step's start, run again where the log cannot give ALE's pixels (`redo`).
// RenderJob.input of a step that resumed a game after a lost life (no ALE action is 255).
constexpr u32 RESUME_JOB = 255;

struct RenderJob {
    TiaLog log;
    Machine start;
    EnvRng start_rng;
    u32 input;   // step_input
    u8 redo;
    u8 padding[3];
};

// One vector-env step without pixels (the state-update pass): as env_step, but the frames it
// shows are logged into `job` for render_step instead of drawn. IN_PASSES and `tiles`:
// step_frames'.
template <bool IN_PASSES = false>
CULE_HD StepResult env_step_logged(EnvSlot env, const ResetPool& pool, const u8* rom, const StepConfig& cfg,
                                   u32 input, RenderJob& job, LaneTiles tiles = {}) {
    Machine& m = env.machine;
    EnvRng& rng = env.rng;
    StepResult out = {0, 0, 0, 0};
    tia_log_clear(job.log);
    job.redo = 0;
    CULE_TRACE_EVENT(STEP, env.needs_reset, 0, 0);
    if (env.needs_reset) {
        if (env.needs_reset == RESUME_GAME) {   // rare: left to the render pass, which draws it (redo_step)
            job.input = RESUME_JOB;
            job.redo = 1;
        } else {   // the reset copies its frames from the pool: nothing to draw
            env_reset(env, pool, true);
        }
        return out;
    }
    // The start goes to the job before it is known to be needed: a copy held through the frames
    // would cost the GPU thread registers and local memory.
    job.start = m;
    job.start_rng = rng;
    job.input = input;
    bool life_lost, exact, whole;
    i32 first = first_shown_frame(cfg);
    out.reward = step_frames<true, IN_PASSES>(m, env.screens, rng, rom, cfg, input, first, &job.log, life_lost, exact,
                                              whole, tiles);
    job.redo = !tia_log_replayable(job.log, first == 0);
    finish_step(m, cfg, life_lost, out, env.needs_reset);
    return out;
}

// A step the log cannot draw, run again from its start drawing every frame (the machine it
// reaches is the state-update pass's); or a game resumed after a lost life, which the state
// pass leaves to this pass (its frames would cost the state kernels registers), run here on the
// env itself, drawing.
CULE_HD void redo_step(const RenderJob& job, EnvSlot env, const u8* rom, const StepConfig& cfg) {
    if (job.input == RESUME_JOB) resume_game(env.machine, env.screens, env.rng, rom, cfg, env.needs_reset);
    else redo_step(job.start, job.start_rng, job.input, 0, env.screens, rom, cfg);
}

// The render pass of one environment's step (the GPU runs its two halves as two kernels).
CULE_HD void render_step(const RenderJob& job, EnvSlot env, const u8* rom, const StepConfig& cfg) {
    if (job.redo) redo_step(job, env, rom, cfg);
    else tia_replay(job.log, env.screens);
}

// States are copied, compared and moved between backends as bytes: every byte must be a member.
#ifndef __CUDACC_RTC__
static_assert(__has_unique_object_representations(Machine) && __has_unique_object_representations(EnvRng),
              "the state structs must have no implicit padding");
static_assert(__builtin_offsetof(Machine, console.riot.ram) % 8 == 0, "ram_to_warp_tile copies the RAM 8 bytes at a time");
#endif

// The sizes and offsets that the Python side reads states by (cule._core.layout(), named as
// here), as this compiler lays them out; the CUDA backend checks at start that NVRTC's layout is
// the host's. Each field's value given `m`, a Machine at `base`, and `job`, a RenderJob there:
// the state's machine and RNG sizes, offsets in Machine, the TIA's front buffer (which of the two
// frame buffers holds the frame shown), the RenderJob's size and its redo flag's offset; and,
// given `cfg`, a StepConfig there, the StepConfig's size and its fields' offsets (the kernels
// read the host's bytes of it).
#define CULE_FOR_EACH_LAYOUT_FIELD(X)                                                            \
    X(machine, sizeof(Machine))                                                                   \
    X(rng, sizeof(EnvRng))                                                                        \
    X(ram, (const u8*)m.console.riot.ram - base)                                                  \
    X(lives, (const u8*)&m.game.lives - base)                                                     \
    X(terminal, (const u8*)&m.game.terminal - base)                                               \
    X(frame_number, (const u8*)&m.frame_number - base)                                            \
    X(episode_frame_number, (const u8*)&m.episode_frame_number - base)                            \
    X(episode_steps, (const u8*)&m.episode_steps - base)                                          \
    X(front, (const u8*)&m.console.tia.front - base)                                              \
    X(input_a, (const u8*)&m.input_a - base)                                                      \
    X(render_job, sizeof(RenderJob))                                                              \
    X(render_job_redo, (const u8*)&job->redo - base)                                              \
    X(step_config, sizeof(StepConfig))                                                            \
    X(step_config_wiring, (const u8*)&cfg->wiring - base)                                         \
    X(step_config_paddle_max, (const u8*)&cfg->wiring.paddle_max - base)                          \
    X(step_config_frameskip, (const u8*)&cfg->frameskip - base)                                   \
    X(step_config_repeat_threshold, (const u8*)&cfg->repeat_threshold - base)                     \
    X(step_config_max_episode_frames, (const u8*)&cfg->max_episode_frames - base)                 \
    X(step_config_legal_actions, (const u8*)&cfg->legal_actions - base)                           \
    X(step_config_episodic_life, (const u8*)&cfg->episodic_life - base)                           \
    X(step_config_life_loss_info, (const u8*)&cfg->life_loss_info - base)                         \
    X(step_config_resume_fire, (const u8*)&cfg->resume_fire - base)                               \
    X(step_config_sound, (const u8*)&cfg->sound - base)                                           \
    X(step_config_resume_noop_max, (const u8*)&cfg->resume_noop_max - base)

#define CULE_COUNT_FIELD(name, value) +1
enum : i32 { NUM_LAYOUT_FIELDS = 0 CULE_FOR_EACH_LAYOUT_FIELD(CULE_COUNT_FIELD) };
#undef CULE_COUNT_FIELD

CULE_HD void state_layout(u64* out) {
    Machine m;
    const u8* base = (const u8*)&m;
    const RenderJob* job = (const RenderJob*)base;   // for offsets alone (NVRTC has no offsetof)
    const StepConfig* cfg = (const StepConfig*)base;
    i32 i = 0;
#define CULE_LAYOUT_VALUE(name, value) out[i++] = (u64)(value);
    CULE_FOR_EACH_LAYOUT_FIELD(CULE_LAYOUT_VALUE)
#undef CULE_LAYOUT_VALUE
}

}  // namespace cule
