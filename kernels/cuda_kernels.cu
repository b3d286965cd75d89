// CUDA entry points, compiled at first use by NVRTC from the same headers as the CPU backend.
// One thread per environment. CULE_GAME, when defined, fixes the game at compile time so that
// the per-game settings fold to straight-line code.
#include "env.h"

using namespace cule;

extern "C" __global__ void cule_step(Machine* machines, u8* screens, EnvRng* rng, u8* needs_reset,
                                     const Machine* pool, const u8* pool_screens, const u8* rom,
                                     StepConfig cfg, const u8* actions, i32* rewards, u8* terminated,
                                     u8* truncated, i32 num_envs) {
    i32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_envs) return;
#ifdef CULE_GAME
    cfg.game = CULE_GAME;
#endif
    StepResult s = env_step<true>(machines[i], screens + (u64)i * 2 * SCREEN_PIXELS, rng[i], needs_reset[i], pool,
                                  pool_screens, rom, cfg, actions[i]);
    rewards[i] = s.reward;
    terminated[i] = s.terminated;
    truncated[i] = s.truncated;
}
