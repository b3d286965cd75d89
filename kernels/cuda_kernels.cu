// CUDA entry points, compiled at first use by NVRTC from the same headers as the CPU backend
// (cule/backends/cuda.py launches them). One thread per environment, or per observation byte.
// CULE_GAME, when defined, fixes the game at compile time so that the per-game settings fold to
// straight-line code.
#include "env.h"
#include "observe.h"

using namespace cule;

// Scalars rather than a StepConfig by value: CuPy passes numpy scalars, not C structs.
extern "C" __global__ void cule_step(Machine* machines, u8* screens, EnvRng* rng, u8* needs_reset,
                                     const Machine* pool, const u8* pool_screens, u32 pool_size, const u8* rom,
                                     i32 game, u32 wiring, i32 frameskip, u64 repeat_threshold,
                                     i32 max_episode_frames, u32 legal_actions, i32 flags, const u8* skip,
                                     const u8* actions, i32* rewards, u8* terminated, u8* truncated,
                                     i32 num_envs) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs) return;
    if (*skip) {   // some env's action was out of range (checked on the GPU): no env steps
        rewards[i] = 0;
        terminated[i] = truncated[i] = 0;
        return;
    }
    StepConfig cfg;
#ifdef CULE_GAME
    cfg.game = CULE_GAME;
#else
    cfg.game = game;
#endif
    cfg.wiring = Wiring{(u8)(wiring & 1), (u8)(wiring >> 1 & 1), (u8)(wiring >> 2 & 1), (u8)(wiring >> 3 & 1),
                        (u8)(wiring >> 8)};
    cfg.frameskip = frameskip;
    cfg.repeat_threshold = repeat_threshold;
    cfg.max_episode_frames = max_episode_frames;
    cfg.legal_actions = legal_actions;
    cfg.pool_size = pool_size;
    cfg.episodic_life = flags & 1;
    cfg.life_loss_info = flags >> 1 & 1;
    StepResult s = env_step(machines[i], screens + (u64)i * 2 * SCREEN_PIXELS, rng[i], needs_reset[i], pool,
                                  pool_screens, rom, cfg, actions[i]);
    rewards[i] = s.reward;
    terminated[i] = s.terminated;
    truncated[i] = s.truncated;
}

extern "C" __global__ void cule_reset(Machine* machines, u8* screens, EnvRng* rng, u8* needs_reset,
                                      const Machine* pool, const u8* pool_screens, u32 pool_size, const u8* mask,
                                      i32 same_console, i32 num_envs) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs || !mask[i]) return;
    env_reset(machines[i], screens + (u64)i * 2 * SCREEN_PIXELS, rng[i], needs_reset[i], pool, pool_screens,
              pool_size, same_console != 0);
}

// One thread per byte of the observations, (num_envs, height, width[, 3]).
extern "C" __global__ void cule_observe(u8* out, const Machine* machines, const u8* screens, const u8* pooled,
                                        i32 grey, i32 height, i32 width, const AreaAxis* axes, i32 num_envs) {
    const ObserveConfig cfg = {height, width, (u8)grey, axes, axes + 1};
    const i64 frame_bytes = (i64)height * width * observe_channels(cfg);
    const i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= frame_bytes * num_envs) return;
    const i64 i = e / frame_bytes;
    const i32 r = (i32)(e - i * frame_bytes), channels = observe_channels(cfg);
    out[e] = observe_element(machines[i], screens + (u64)i * 2 * SCREEN_PIXELS, pooled[i], cfg, r / (channels * width),
                             r / channels % width, r % channels);
}

// The resize weights of ObserveConfig: axes[0] rows, axes[1] columns (one thread).
extern "C" __global__ void cule_area_axes(AreaAxis* axes, i32 height, i32 width) {
    if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
    area_axis(SCREEN_HEIGHT, height, axes[0]);
    area_axis(SCREEN_WIDTH, width, axes[1]);
}

extern "C" __global__ void cule_layout(u64* out) {
    if (blockIdx.x * blockDim.x + threadIdx.x == 0) state_layout(out);
}
