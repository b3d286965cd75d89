// CUDA entry points, compiled at first use by NVRTC from the same headers as the CPU backend
// (cule/backends/cuda.py launches them). One thread per environment, or per observation byte.
// CULE_GAME, when defined, fixes the game at compile time so that the per-game settings fold to
// straight-line code.
#include "env/env.h"
#include "env/observe.h"

using namespace cule;

// The step's settings: the host's bytes of a StepConfig (cule._core.step_config; the layout check
// makes sure NVRTC lays it out as g++ does). CULE_GAME, where defined, folds the game in.
__device__ StepConfig load_step_config(const StepConfig* config) {
    StepConfig cfg = *config;
#ifdef CULE_GAME
    cfg.game = CULE_GAME;
#endif
    return cfg;
}

// Env i's two frame buffers, each screen_height x SCREEN_WIDTH (the game's display).
__device__ u8* env_screens(u8* screens, i64 i, i32 screen_height) {
    return screens + (u64)i * 2 * (u64)screen_height * SCREEN_WIDTH;
}
__device__ const u8* env_screens(const u8* screens, i64 i, i32 screen_height) {
    return env_screens(const_cast<u8*>(screens), i, screen_height);
}

#define CULE_STEP_PARAMS                                                                                        \
    Machine *machines, u8 *screens, i32 screen_height, EnvRng *rng, u8 *needs_reset, const Machine *pool,         \
        const u8 *pool_screens, u32 pool_size, const u8 *rom, const StepConfig *config, const u8 *skip, const u32 *inputs

// The TIA slots of a block of the in-passes state kernel for a frame: a lane's TiaSlot every
// TIA_LANE_WORDS words (console.h).
__shared__ u32 tia_slots[STEP_BLOCK_LANES * TIA_LANE_WORDS];

// One step of env i, its input inputs[i] (ale.h, step_input: ALE's action and paddle strength).
// LOGGED: the state-update pass of the split, which logs the frames the step shows into `jobs`
// for cule_render / cule_redo and has no drawing code; else the step draws.
// IN_PASSES: the state pass with the warp schedule (console.h, run_frame_in_passes), each warp's
// RAM in its block's tile (console.h, warp_ram_tile) and each lane's TIA in its slot of
// `tia_slots` for the frames.
template <bool LOGGED, bool IN_PASSES = false>
__device__ void step_env(CULE_STEP_PARAMS, RenderJob* jobs, TiaEvent* log_events, i32* rewards, u8* terminated,
                         u8* truncated, i32 num_envs, u32* warp_plans = nullptr) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs) return;
    if (*skip) {   // some env's action was out of range (checked on the GPU): no env steps
        rewards[i] = 0;
        terminated[i] = truncated[i] = 0;
        return;
    }
    const StepConfig cfg = load_step_config(config);
    const EnvSlot env = {machines[i], env_screens(screens, i, screen_height), rng[i], needs_reset[i]};
    const ResetPool reset_pool = {pool, pool_screens, pool_size};
    StepResult s;
    if (LOGGED) {   // the log's events: its warp's block, interleaved (tia_log.h)
        jobs[i].log.events = log_events + (u64)(i / WARP_LANES) * TIA_LOG_EVENTS * WARP_LANES + i % WARP_LANES;
        jobs[i].log.step = WARP_LANES;
    }
    if (LOGGED && IN_PASSES) {
        const LaneTiles tiles = {reinterpret_cast<TiaSlot*>(tia_slots + threadIdx.x * TIA_LANE_WORDS),
                                 reinterpret_cast<WarpPlan*>(warp_plans) + i / WARP_LANES};
        s = env_step_logged<true>(env, reset_pool, rom, cfg, inputs[i], jobs[i], tiles);
    } else if (LOGGED) s = env_step_logged(env, reset_pool, rom, cfg, inputs[i], jobs[i]);
    else s = env_step(env, reset_pool, rom, cfg, inputs[i]);
    rewards[i] = s.reward;
    terminated[i] = s.terminated;
    truncated[i] = s.truncated;
}

extern "C" __global__ void cule_step(CULE_STEP_PARAMS, i32* rewards, u8* terminated, u8* truncated, i32 num_envs) {
    step_env<false>(machines, screens, screen_height, rng, needs_reset, pool, pool_screens, pool_size, rom,
                    config, skip, inputs, nullptr, nullptr, rewards, terminated, truncated, num_envs);
}

extern "C" __global__ void cule_step_logged(CULE_STEP_PARAMS, RenderJob* jobs, TiaEvent* log_events, i32* rewards,
                                            u8* terminated, u8* truncated, i32 num_envs) {
    step_env<true>(machines, screens, screen_height, rng, needs_reset, pool, pool_screens, pool_size, rom,
                   config, skip, inputs, jobs, log_events, rewards, terminated, truncated, num_envs);
}

// The state pass with the warp schedule and the RAM in warp tiles (`warp_plans`: a WarpPlan,
// PLAN_WORDS words, for each warp of the launch, num_envs rounded up to whole warps, zeros at
// first): the same results as cule_step_logged's. Bounded to IN_PASSES_WARPS_PER_SM warps an SM
// (console.h).
extern "C" __global__ void __launch_bounds__(STEP_BLOCK_LANES, IN_PASSES_WARPS_PER_SM * WARP_LANES / STEP_BLOCK_LANES)
cule_step_in_passes(CULE_STEP_PARAMS, RenderJob* jobs, TiaEvent* log_events, i32* rewards, u8* terminated,
                    u8* truncated, i32 num_envs, u32* warp_plans) {
    step_env<true, true>(machines, screens, screen_height, rng, needs_reset, pool, pool_screens, pool_size, rom,
                         config, skip, inputs, jobs, log_events, rewards, terminated, truncated, num_envs, warp_plans);
}

// The render pass, replay half: one thread per env and shown frame, each frame drawn from its own
// copy of the TIA into its own buffer. BY_CLOCK: with the warp schedule (cuda_step="in-passes"), the
// lanes of a warp take their accesses in the order of their clocks (tia_log.h,
// tia_replay_frame_by_clock).
template <bool BY_CLOCK>
__device__ void render_frame(const RenderJob* jobs, u8* screens, i32 screen_height, const u8* skip, i32 num_envs) {
    i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    i64 i = t / TIA_LOG_FRAMES;
    u32 k = (u32)(t % TIA_LOG_FRAMES);
    if (i >= num_envs || *skip || jobs[i].redo || k >= jobs[i].log.frames) return;
    u8* screen = env_screens(screens, i, screen_height);
    if constexpr (BY_CLOCK) tia_replay_frame_by_clock(jobs[i].log, k, screen);
    else tia_replay_frame(jobs[i].log, k, screen);
}

extern "C" __global__ void cule_render(const RenderJob* jobs, u8* screens, i32 screen_height, const u8* skip,
                                       i32 num_envs) {
    render_frame<false>(jobs, screens, screen_height, skip, num_envs);
}

extern "C" __global__ void cule_render_by_clock(const RenderJob* jobs, u8* screens, i32 screen_height,
                                                const u8* skip, i32 num_envs) {
    render_frame<true>(jobs, screens, screen_height, skip, num_envs);
}

// The render pass, other half: the few steps the log cannot draw run again, drawing, and the
// games that resume after a lost life (env.h, redo_step). A kernel of its own keeps the
// emulator's registers out of cule_render.
extern "C" __global__ void cule_redo(const RenderJob* jobs, Machine* machines, u8* screens, i32 screen_height,
                                     EnvRng* rng, u8* needs_reset, const u8* rom, const StepConfig* config,
                                     const u8* skip, i32 num_envs) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs || *skip || !jobs[i].redo) return;
    const EnvSlot env = {machines[i], env_screens(screens, i, screen_height), rng[i], needs_reset[i]};
    redo_step(jobs[i], env, rom, load_step_config(config));
}

// Between the state and render passes of a split step, where the step ended an env's episode
// (`ended`): the env's frame before the step, pooled where `pooled` says and before shrinking,
// into `held` (screen_height x SCREEN_WIDTH x channels each), for observe_end_element. Its frame
// buffers still hold the last step's frames; which is the newer, the step's start says. One
// thread per env and row: the other envs cost a read.
extern "C" __global__ void cule_hold_frames(u8* held, const RenderJob* jobs, const u8* screens, i32 screen_height,
                                            const u8* pooled, const u8* ended, i32 grey, const u8* skip,
                                            i32 num_envs) {
    const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    const i64 i = t / screen_height;
    const i32 y = (i32)(t - i * screen_height), channels = grey ? 1 : 3;
    if (i >= num_envs || *skip || !ended[i]) return;
    const Tia& start = jobs[i].start.console.tia;
    const u8* env = env_screens(screens, i, screen_height);
    const u8 *frame = env + start.front * (i64)screen_height * SCREEN_WIDTH,
             *previous = env + (1 - start.front) * (i64)screen_height * SCREEN_WIDTH;
    u8* out = held + (i * screen_height + y) * (i64)SCREEN_WIDTH * channels;
    for (i32 x = 0; x < SCREEN_WIDTH; ++x)
        for (i32 c = 0; c < channels; ++c)
            *out++ = observed_channel(frame, previous, pooled[i], start.pal, grey, y * SCREEN_WIDTH + x, c);
}

extern "C" __global__ void cule_reset(Machine* machines, u8* screens, i32 screen_height, EnvRng* rng,
                                      u8* needs_reset, const Machine* pool, const u8* pool_screens, u32 pool_size,
                                      const u8* mask, i32 same_console, i32 num_envs) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs || !mask[i]) return;
    const EnvSlot env = {machines[i], env_screens(screens, i, screen_height), rng[i], needs_reset[i]};
    env_reset(env, ResetPool{pool, pool_screens, pool_size}, same_console != 0);
}

// One thread per byte of the observations, (num_envs, height, width[, 3]). `sources`: each env's
// FROM_FRAMES, END_REPEATED (then `previous`, observations of this shape, gives it) or END_POOLED
// (from `held`, each env's pooled frame before shrinking, screen_height x SCREEN_WIDTH x channels).
extern "C" __global__ void cule_observe(u8* out, const Machine* machines, const u8* screens, i32 screen_height,
                                        const u8* pooled, const u8* sources, const u8* previous, const u8* held,
                                        i32 grey, i32 height, i32 width, const AreaAxis* axes, i32 num_envs) {
    const ObserveConfig cfg = {height, width, (u8)grey, axes, axes + 1};
    const i64 frame_bytes = (i64)height * width * observe_channels(cfg);
    const i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= frame_bytes * num_envs) return;
    const i64 i = e / frame_bytes;
    const i32 r = (i32)(e - i * frame_bytes), channels = observe_channels(cfg);
    const i32 y = r / (channels * width), x = r / channels % width, c = r % channels;
    const u8* env = env_screens(screens, i, screen_height);
    if (sources[i] == END_REPEATED) out[e] = previous[e];
    else if (sources[i] == END_POOLED)
        out[e] = observe_end_element(held + i * (i64)screen_height * SCREEN_WIDTH * channels,
                                     console_previous_screen(machines[i].console, env), machines[i].console.tia.pal,
                                     cfg, screen_height, y, x, c);
    else out[e] = observe_element(machines[i], env, pooled[i], cfg, y, x, c);
}

// The resize weights of ObserveConfig: axes[0] rows, axes[1] columns (one thread).
extern "C" __global__ void cule_area_axes(AreaAxis* axes, i32 screen_height, i32 height, i32 width) {
    if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
    area_axis(screen_height, height, axes[0]);
    area_axis(SCREEN_WIDTH, width, axes[1]);
}

extern "C" __global__ void cule_layout(u64* out) {
    if (blockIdx.x * blockDim.x + threadIdx.x == 0) state_layout(out);
}

// Every entry point above, for the host launcher (bindings/module_cuda_host.cpp);
// cule/backends/cuda.py takes their names from the definitions themselves.
#define CULE_FOR_EACH_KERNEL(X)                                                                        \
    X(cule_step) X(cule_step_logged) X(cule_step_in_passes) X(cule_render) X(cule_render_by_clock) \
    X(cule_redo) X(cule_hold_frames) X(cule_reset) X(cule_observe) X(cule_area_axes) X(cule_layout)
