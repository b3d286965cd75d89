"""Vector wrappers for cule's default torch outputs, kept on the env's device.

gymnasium's own vector wrappers work on numpy arrays: they take `output="numpy"`, or torch
outputs through `gymnasium.wrappers.vector.ArrayConversion(env, env_xp=torch, target_xp=numpy)`,
both of which copy every step to the host. What a training loop on the GPU needs every step is
here instead, on the device, without making the host wait for it.
"""
from __future__ import annotations

import time
from typing import Any

import gymnasium
import torch
from gymnasium.vector import AutoresetMode


class RecordEpisodeStatistics(gymnasium.vector.VectorWrapper):
    """gymnasium's vector RecordEpisodeStatistics on torch tensors, on the env's device (as
    CleanRL's EnvPool loops keep their sums): `info["episode"]` holds "r" (the episode's return,
    float64), "l" (its length in steps, int64) and "t" (seconds since it started, float64) for the
    envs whose episode ended at this step, 0 for the others, and `info["_episode"]` says which
    ended (bool). The values are gymnasium's, step for step, under either autoreset mode. Unlike
    gymnasium's, the two keys are in every step's info (knowing whether an episode ended would
    make the host wait for the GPU), and there are no return or length queues, for the same
    reason: read info["episode"] where `_episode` is set, when the loop logs.

        env = RecordEpisodeStatistics(cule.atari_vector_env("pong", num_envs=4096))
    """

    def __init__(self, env: gymnasium.vector.VectorEnv, stats_key: str = "episode"):
        super().__init__(env)
        output = getattr(env.unwrapped, "output", "torch")
        if output != "torch":
            raise ValueError(f"cule.wrappers.RecordEpisodeStatistics takes torch outputs, got output={output!r}: "
                             "for numpy outputs use gymnasium.wrappers.vector.RecordEpisodeStatistics")
        mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be NextStep or SameStep, got {mode!r}")
        self._same_step = mode == AutoresetMode.SAME_STEP
        self._stats_key = stats_key
        self._returns = self._lengths = self._start_times = self._prev_dones = None   # by reset()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        mask = (options or {}).get("reset_mask")
        if self._returns is None or mask is None:
            n, device = self.num_envs, obs.device
            self._returns = torch.zeros(n, dtype=torch.float64, device=device)
            self._lengths = torch.zeros(n, dtype=torch.int64, device=device)
            self._start_times = torch.full((n,), time.perf_counter(), dtype=torch.float64, device=device)
            self._prev_dones = torch.zeros(n, dtype=torch.bool, device=device)
        else:
            mask = torch.as_tensor(mask, dtype=torch.bool).to(self._returns.device, non_blocking=True)
            self._returns.masked_fill_(mask, 0)
            self._lengths.masked_fill_(mask, 0)
            self._start_times.masked_fill_(mask, time.perf_counter())
            self._prev_dones = self._prev_dones & ~mask   # not in place: the last info["_episode"] is it
        return obs, info

    def step(self, actions):
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        if self._returns is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._stats_key in info or f"_{self._stats_key}" in info:
            raise ValueError(f"info already has the key {self._stats_key!r}: {sorted(info)}")
        now = time.perf_counter()   # a host number handed to the kernels: nothing waits
        if self._same_step:
            self._returns += rewards
            self._lengths += 1
        else:
            # NextStep: the step after an episode's end starts the next one and does not count.
            prev = self._prev_dones
            self._returns = torch.where(prev, 0.0, self._returns + rewards)
            self._lengths = torch.where(prev, 0, self._lengths + 1)
            self._start_times.masked_fill_(prev, now)
        dones = terminated | truncated
        elapsed = torch.round(now - self._start_times, decimals=6)
        info[self._stats_key] = {"r": torch.where(dones, self._returns, 0.0),
                                 "l": torch.where(dones, self._lengths, 0),
                                 "t": torch.where(dones, elapsed, 0.0)}
        info[f"_{self._stats_key}"] = dones
        self._prev_dones = dones
        if self._same_step:   # the ended envs have already started their next episode
            self._returns.masked_fill_(dones, 0)
            self._lengths.masked_fill_(dones, 0)
            self._start_times.masked_fill_(dones, now)
        return obs, rewards, terminated, truncated, info
