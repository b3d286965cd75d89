"""`env.ale` of a CuleEnv: the vector ALE interface that ale-py's AtariVectorEnv steps and resets
through (its `env.ale`), for code that calls it directly. Its reset and step are CuleEnv's."""
from __future__ import annotations

import numpy as np
import torch

from .env import CuleEnv, step_inputs


class VectorALE:
    """reset(reset_indices, reset_seeds), send(actions, paddle_strengths), recv(),
    get_action_set(), get_num_envs(), get_observation_shape(), as AtariVectorEnv's: actions are
    indices into the env's action set, each with ALE's paddle strength; a seed of -1 resets
    without seeding. Results are the env's (numpy or torch, as its `output`)."""

    def __init__(self, env: CuleEnv):
        self._env = env
        self._sent: torch.Tensor | None = None

    def get_num_envs(self) -> int:
        return self._env.num_envs

    def get_action_set(self) -> list[int]:
        return list(self._env.action_set)

    def get_observation_shape(self) -> tuple[int, ...]:
        return self._env.single_observation_space.shape

    def reset(self, reset_indices, reset_seeds):
        """Starts new episodes in the envs `reset_indices`, each seeded with its entry of
        `reset_seeds` (-1: not seeded); gives the env's reset()."""
        n = self._env.num_envs
        ids = np.asarray(reset_indices, dtype=np.int64).reshape(-1)
        seeds = np.asarray(reset_seeds, dtype=np.int64).reshape(-1)
        if len(ids) != len(seeds):
            raise ValueError(f"reset takes one seed per env id, got {len(seeds)} seeds for {len(ids)} env ids")
        if len(np.unique(ids)) != len(ids):
            raise ValueError(f"duplicate env_id in {ids.tolist()}: each env resets once")
        if len(ids) and (ids.min() < 0 or ids.max() >= n):
            raise IndexError(f"env_id {ids[(ids < 0) | (ids >= n)][0]} is out of range: env ids are 0 .. {n - 1}")
        order = np.argsort(ids)   # CuleEnv takes a mask's seeds in the order of its env ids
        ids, seeds = ids[order], seeds[order]
        result = None
        for part in (seeds < 0, seeds >= 0):
            if part.any():
                mask = np.zeros(n, dtype=bool)
                mask[ids[part]] = True
                seed = None if seeds[part][0] < 0 else seeds[part].tolist()
                result = self._env.reset(seed=seed, options=None if mask.all() else {"reset_mask": mask})
        return result

    def send(self, actions, paddle_strengths) -> None:
        """Every env's action (an index into the action set) and paddle strength, stepped by recv()."""
        strengths = torch.as_tensor(np.asarray(paddle_strengths, dtype=np.float32)).reshape(-1)
        if strengths.shape != (self._env.num_envs,) or not torch.isfinite(strengths).all():
            raise ValueError(f"paddle_strengths must be {self._env.num_envs} finite floats, got {strengths.tolist()}")
        ale_ids = np.asarray(self._env.action_set)[self._env._action_indices(np.asarray(actions))]
        self._sent = step_inputs(ale_ids, strengths).to(self._env.device)

    def recv(self):
        """The step of the actions sent: the env's step()."""
        if self._sent is None:
            raise RuntimeError("recv() steps the actions send() gave: call send() first")
        inputs, self._sent = self._sent, None
        return self._env._step_inputs(inputs)
