// One vector-env step for one environment: frameskip frames with sticky actions, ALE's reward,
// terminal and truncation rules, and next-step autoreset from a pool of seed states. The CPU
// backend calls it in a loop over environments; the CUDA backend calls it once per thread.
#pragma once
#include "types.h"
#include "ale.h"

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
    u32 pool_size;
    u8 episodic_life;         // a lost life ends the step and the episode (AtariVectorEnv's)
    u8 life_loss_info;        // a lost life sets terminated, the game goes on
};

struct StepResult {
    i32 reward;
    u8 terminated, truncated;
};

CULE_HD bool episode_truncated(const Machine& m, const StepConfig& cfg) {
    return cfg.max_episode_frames > 0 && m.episode_steps >= cfg.max_episode_frames;
}

// Copies seed state k of the pool (machine and both frame buffers) into an environment. On the
// same console (ALE's reset_game) the frame number keeps counting, plus the frames the reset
// counted (the state's episode frame number); a fresh console (loadROM) restarts it. The frame
// cap counts the frames stepped from here, as AtariVectorEnv does.
CULE_HD void load_pool_state(Machine& m, u8* screen, const Machine* pool, const u8* pool_screens, u32 k,
                             bool same_console) {
    i32 frame_number = m.frame_number;
    m = pool[k];
    if (same_console) m.frame_number = frame_number + m.episode_frame_number;
    m.episode_steps = 0;
    const u8* src = pool_screens + (u64)k * 2 * SCREEN_PIXELS;
    for (i32 i = 0; i < 2 * SCREEN_PIXELS; ++i) screen[i] = src[i];
}

template <bool DRAW>
CULE_HD StepResult env_step(Machine& m, u8* screen, EnvRng& rng, u8& needs_reset, const Machine* pool,
                            const u8* pool_screens, const u8* rom, const StepConfig& cfg, u8 action) {
    StepResult out = {0, 0, 0};
    if (needs_reset) {   // the step after an episode's end returns the next episode's first frame
        u32 k = cfg.pool_size > 1 ? rng_u32(rng) % cfg.pool_size : 0;
        load_pool_state(m, screen, pool, pool_screens, k, true);
        needs_reset = 0;
        return out;
    }
    // As AtariVectorEnv: a life counts as lost while the lives are below the last step's and
    // above zero (a game over is not a lost life).
    i32 lives_before = m.game.lives;
    bool life_lost = false;
    for (i32 f = 0; f < cfg.frameskip; ++f) {
        // ALE draws for both players on every frame, emulated or not.
        if (rng_u32(rng) >= cfg.repeat_threshold) m.action_a = action;
        if (rng_u32(rng) >= cfg.repeat_threshold) m.action_b = NOOP;
        if (m.game.terminal || episode_truncated(m, cfg) || (cfg.episodic_life && life_lost)) continue;
        u8 a = (cfg.legal_actions >> m.action_a & 1) ? m.action_a : (u8)NOOP;
        ale_frame<DRAW>(m, cfg.wiring, cfg.game, screen, rom, a, m.action_b, false, false, true);
        m.frame_number += 1;
        m.episode_frame_number += 1;
        m.episode_steps += 1;
        out.reward += m.game.reward;
        life_lost = m.game.lives < lives_before && m.game.lives > 0;
    }
    out.terminated = m.game.terminal || ((cfg.life_loss_info || cfg.episodic_life) && life_lost);
    out.truncated = !out.terminated && episode_truncated(m, cfg);
    needs_reset = m.game.terminal || episode_truncated(m, cfg) || (cfg.episodic_life && life_lost);
    return out;
}

}  // namespace cule
