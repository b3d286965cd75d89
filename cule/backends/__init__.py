"""The two engines behind CuleEnv, with one interface: per-environment state lives on the
backend's device, and every call takes and returns torch tensors there. (The CUDA backend's
kernels run on a GPU, or on the host for testing: cuda.py.) Both are built from the game, its
GameSpec (the ROM and what states must be), the reset pool (states as get_states gives them),
the StepSettings and the ObservationSettings, then what runs them:

    CpuBackend(game, spec, pool, settings, observations, num_threads)
    CudaBackend(game, spec, pool, settings, observations, kernels)   kernels: GpuKernels or HostKernels

    seed(keys, mask)              new RNG keys (numpy uint64, one per env) for the masked envs
    rngs(), set_rngs(rngs, ids)   each env's random stream (key, counter) as (N, 2) int64; some set back
    reset(mask, same_console)     new episodes from the reset pool in the masked envs
    step(inputs, skip)            each env's input (int32: ALE's action id | paddle strength << 8,
                                  kernels/ale/ale.h step_input) -> rewards int32, terminated, truncated bool;
                                  no env steps where the one-byte `skip` is set (rewards 0, flags off)
    advance_stacks()              after a step: each env's newest observation onto its stack,
                                  max-pooled unless its episode restarted in the step (its stack
                                  then restarts: zeros, then the frame, or filled with it; not
                                  where its game resumed after a lost life), AtariVectorEnv's (or
                                  EnvPool's) where the step ended the episode (unless
                                  show_end_frame); the stacks (N, stack_num, ...)
    step_and_stack(inputs, skip)  step() then advance_stacks(): (rewards, terminated, truncated,
                                  stacks); the CPU backend's in one task per env
    restart_stacks(mask)          after a reset: the masked envs' stacks restart, the others'
                                  newest observation is taken again (kept where an episode ended);
                                  the stacks
    observe(grey, pooled, h, w)   the current frames, (N, h, w[, 3]) uint8 (for render)
    pending_resets()              the envs whose next step starts a new episode (bool)
    episode_state()               each env's game_over (bool) and episode_steps (int32: the frames
                                  its frame cap has counted)
    ram(), screens(), info(), get_states(), set_states(states, ids), set_ram(ram, ids)
    the CPU backend's alone, for the single env (CuleAtariEnv) without tensors:
      step_one(input)             step() and advance_stacks() of its one env in one engine call ->
                                  (stack, reward, terminated, truncated, lives, frame_number,
                                  episode_frame_number), numpy and Python values
      observe_into(out, grey[, pooled])  observe() into a numpy array, pooled a uint8 mask
    device, asynchronous          where the tensors live; whether the host never waits for a step
                                  (then CuleEnv checks device actions and resets ended episodes
                                  on the device, reading the results back later)

Every returned tensor is fresh: a backend never writes into a tensor it has handed out.
"""
from dataclasses import dataclass

from .. import _core

SCREEN_WIDTH = _core.SCREEN_WIDTH   # ALE's frames: this wide, Game.screen_height high
RAM_BYTES = _core.RAM_BYTES         # the RIOT's RAM, ALE's getRAM


@dataclass(frozen=True)
class StepSettings:
    """What every step of a backend does (the kernels' StepConfig, kernels/env/env.h)."""

    num_envs: int
    frameskip: int
    repeat_action_probability: float
    max_episode_frames: int            # frames before truncation; 0: none
    legal_actions: tuple[int, ...]     # ALE plays these; the others as NOOP
    episodic_life: bool
    life_loss_info: bool
    resume_noop_max: int = 0           # EnvPool's episodic life: the game resumes after no-ops
    resume_fire: bool = False          # ... the last of them FIRE
    sound: bool = False                # the sound generator runs (ALE's sound_obs: kernels/atari/tia_sound.h)

    @property
    def legal_action_mask(self) -> int:
        return sum(1 << a for a in self.legal_actions)


@dataclass(frozen=True)
class ObservationSettings:
    """What an observation is: a stack of the last stack_num frames (grey or RGB, height x width,
    max-pooled over a step's last two frames where maxpool is set) or RAMs. show_end_frame: the
    step that ends an episode shows the frame it ended on (ale-py's AtariEnv), else what
    AtariVectorEnv shows (kernels/env/observe.h). envpool: EnvPool's instead, and a new episode's
    stack holds its first frame throughout, where AtariVectorEnv's has zeros before it."""

    ram: bool
    grey: bool
    height: int
    width: int
    stack_num: int
    maxpool: bool
    show_end_frame: bool
    envpool: bool = False

    @property
    def vector_env_end(self) -> bool:
        """Whether the step that ends an episode shows AtariVectorEnv's frame (pixels only)."""
        return not (self.ram or self.show_end_frame or self.envpool)

    @property
    def envpool_end(self) -> bool:
        """Whether the step that ends an episode shows EnvPool's frame (pixels only)."""
        return self.envpool and not (self.ram or self.show_end_frame)

    @property
    def frame_shape(self) -> tuple[int, ...]:
        if self.ram:
            return (RAM_BYTES,)
        return (self.height, self.width) + (() if self.grey else (3,))


from .cpu import CpuBackend  # noqa: E402  (after the constants it imports)

__all__ = ["CpuBackend", "ObservationSettings", "StepSettings"]
