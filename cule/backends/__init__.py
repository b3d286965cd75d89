"""The two engines behind CuleEnv, with one interface: per-environment state lives on the
backend's device, and every call takes and returns torch tensors there. (The CUDA backend's
kernels run on a GPU, or on the host for testing: cuda.py.)

    seed(keys, mask)              new RNG keys (numpy uint64, one per env) for the masked envs
    reset(mask, same_console)     new episodes from the reset pool in the masked envs
    step(actions, skip)           ALE action ids (uint8) -> rewards int32, terminated, truncated bool;
                                  no env steps where the one-byte `skip` is set (rewards 0, flags off)
    observe(grey, pooled, h, w)   the current frames, (N, h, w[, 3]) uint8
    pending_resets()              the envs whose next step starts a new episode (bool)
    ram(), screens(), info(), get_states(), set_states(states, ids), set_ram(ram, ids)
    device, asynchronous          where the tensors live; whether the host never waits for a step
                                  (then CuleEnv checks device actions and resets ended episodes
                                  on the device, reading the results back later)

Every returned tensor is fresh: a backend never writes into a tensor it has handed out.
"""
SCREEN_HEIGHT, SCREEN_WIDTH = 210, 160   # ALE's frame

from .cpu import CpuBackend  # noqa: E402  (after the constants it imports)

__all__ = ["CpuBackend"]
