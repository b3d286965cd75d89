"""Stable-Baselines3 on cule: a CuleEnv as SB3's VecEnv.

    import cule
    from cule.sb3 import CuleVecEnv
    from stable_baselines3 import PPO

    PPO("CnnPolicy", CuleVecEnv("pong", num_envs=8)).learn(100_000)   # AtariVectorEnv's defaults

Needs stable-baselines3 (`pip install '.[sb3]'`). SB3 steps on the host with numpy, so the env
gives numpy arrays (output="numpy"), and it expects an ended episode's next observation at once,
the last one in the info (autoreset_mode="SameStep").
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from .env import CuleEnv


# What SB3 steps: numpy arrays on the host, an ended episode's next observation at once.
SB3_NEEDS = {"output": "numpy", "autoreset_mode": "SameStep"}


class CuleVecEnv(VecEnv):
    """SB3's VecEnv over one CuleEnv: observations (N, stack, H, W) uint8 (channels first, as SB3's
    CnnPolicy takes them), rewards float32, `dones` (terminated or truncated), and per env an info
    dict that, where an episode ended, holds its last observation ("terminal_observation") and
    whether it was cut by the frame cap ("TimeLimit.truncated"). Attributes and methods asked of
    "each env" are the CuleEnv's, once per index."""

    def __init__(self, env: CuleEnv | str, num_envs: int = 1, **options):
        """`env`: a game, made here as `cule.atari_vector_env(env, num_envs, **options)` with what
        SB3 needs (numpy outputs, SameStep autoresets); or a CuleEnv, taken as it is if made with
        them, else made again with its options and those two (and the one given closed)."""
        if isinstance(env, str):
            from .registration import atari_vector_env
            env = atari_vector_env(env, num_envs, **{**options, **SB3_NEEDS})
        elif options or num_envs != 1:
            raise TypeError("num_envs and options make a new env: give a game's name with them, not a CuleEnv")
        elif env.output != SB3_NEEDS["output"] or env.autoreset_mode.value != SB3_NEEDS["autoreset_mode"]:
            given, env = env, CuleEnv(**{**env.options, **SB3_NEEDS})
            given.close()
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seeds = None if any(s is None for s in self._seeds) else self._seeds   # seed(): one per env
        obs, _ = self.env.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.env.close()

    def get_images(self) -> Sequence[np.ndarray]:
        return list(self.env.render())

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.env, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> list[int]:
        return list(self._get_indices(indices))
