"""AtariVectorEnv's and EnvPool's batches: `batch_size` of a CuleEnv's `num_envs` envs at a time.

With batch_size < num_envs, AtariVectorEnv and EnvPool return the first batch_size envs to finish
a step (info["env_id"] names them) and take actions for those alone. cule steps every env in one
call, so here the envs come back in turns of batch_size, in env order: a step of all of them runs
when every env has its action (`send`), and each `recv` hands out the next batch of its results.
The same actions give each env the results the whole CuleEnv would give it; nothing overlaps.

    env = BatchedEnv(CuleEnv("pong", 8, frameskip=4), batch_size=4)
    obs, info = env.reset(seed=0)          # envs info["env_id"] = 0..3
    obs, rewards, terminated, truncated, info = env.step(actions)   # actions for 0..3; 4..7 back
"""
from __future__ import annotations

import gymnasium
import numpy as np
import torch
from gymnasium.vector.utils import batch_space

from .env import CuleEnv


def check_batch_size(batch_size, num_envs: int) -> bool:
    """Whether `batch_size` asks for batches (0 and num_envs: every env at once); refuses what
    cule cannot batch, naming the value."""
    if type(batch_size) is not int or not 0 <= batch_size <= num_envs or (batch_size and num_envs % batch_size):
        raise ValueError(f"batch_size must be 0, num_envs ({num_envs}) or a divisor of it: cule steps every env "
                         f"at once, when each has its action, got {batch_size!r}")
    return 0 < batch_size < num_envs


class BatchedEnv(gymnasium.vector.VectorEnv):
    """`env`'s envs batch_size at a time (a divisor of env.num_envs, below it): reset() and step()
    return one batch (info["env_id"] names its envs), and step() takes the actions of the batch
    returned last. EnvPool's calls too: async_reset(), send(actions, env_id) and recv()."""

    def __init__(self, env: CuleEnv, batch_size: int):
        n = env.num_envs
        if not check_batch_size(batch_size, n):
            raise ValueError(f"batch_size must be below num_envs ({n}) to batch, got {batch_size}")
        self.env, self.batch_size, self.num_envs = env, batch_size, n
        self.metadata = env.metadata
        self.render_mode = env.render_mode
        self.single_observation_space = env.single_observation_space
        self.single_action_space = env.single_action_space
        self.observation_space = batch_space(self.single_observation_space, batch_size)
        self.action_space = batch_space(self.single_action_space, batch_size)
        self._results = None   # the last step or reset of all envs: (obs, rewards, terminated, truncated, info)
        self._handed = 0       # how many of its envs recv() has handed out
        space = env.single_action_space   # Discrete, or continuous actions' Box
        self._actions = np.zeros((n, *space.shape), dtype=np.int64 if space.shape == () else space.dtype)
        self._has_action = np.zeros(n, dtype=bool)
        self._last_ids = None

    def reset(self, *, seed=None, options=None):
        if options and options.get("reset_mask") is not None:
            raise ValueError(f"reset_mask needs every env's observation, which batch_size < num_envs "
                             f"({self.batch_size} < {self.num_envs}) does not give")
        self.async_reset(seed=seed)
        obs, _, _, _, info = self.recv()
        return obs, info

    def async_reset(self, seed=None) -> None:
        """EnvPool's: resets every env; recv() then hands out their first observations (actions
        sent before are dropped)."""
        obs, info = self.env.reset(seed=seed)
        self._has_action[:] = False
        self._start(obs, None, None, None, info)

    def step(self, actions):
        self.send(actions)
        return self.recv()

    def send(self, actions, env_id=None) -> None:
        """Actions for the envs `env_id` (default: the batch recv() handed out last); once every
        env has one, all of them step."""
        ids = self._last_ids if env_id is None else np.asarray(env_id, dtype=np.int64).reshape(-1)
        if ids is None:
            raise gymnasium.error.ResetNeeded("call reset() or async_reset() before send()")
        actions = np.asarray(actions.cpu() if hasattr(actions, "cpu") else actions)
        actions = actions.reshape(-1, *self._actions.shape[1:])
        if len(actions) != len(ids) or ids.min(initial=0) < 0 or ids.max(initial=0) >= self.num_envs:
            raise ValueError(f"send takes one action per env id of 0 .. {self.num_envs - 1}, got {len(actions)} "
                             f"actions for env ids {ids.tolist()}")
        self._actions[ids] = actions
        self._has_action[ids] = True
        if self._has_action.all():
            self._has_action[:] = False
            self._start(*self.env.step(self._actions.copy()))

    def recv(self):
        """The next batch: (obs, rewards, terminated, truncated, info) of batch_size envs, their
        ids in info["env_id"]."""
        if self._results is None or self._handed == self.num_envs:
            raise RuntimeError("recv() has handed out every env's results: send() each of them an action first")
        ids = slice(self._handed, self._handed + self.batch_size)
        self._handed += self.batch_size
        self._last_ids = np.arange(ids.start, ids.stop)
        obs, rewards, terminated, truncated, info = self._results
        batch = {k: v[ids] for k, v in info.items()}
        if rewards is None:   # a reset's: no reward, no flags
            rewards, terminated = self._zeros(obs, np.int32, torch.int32), self._zeros(obs, bool, torch.bool)
            truncated = terminated
        return obs[ids], rewards[ids], terminated[ids], truncated[ids], batch

    def _start(self, obs, rewards, terminated, truncated, info) -> None:
        self._results = (obs, rewards, terminated, truncated, info)
        self._handed = 0

    def _zeros(self, like, np_dtype, torch_dtype):
        """num_envs zeros as the env's outputs are: numpy, or tensors on its device."""
        if isinstance(like, torch.Tensor):
            return torch.zeros(self.num_envs, dtype=torch_dtype, device=like.device)
        return np.zeros(self.num_envs, dtype=np_dtype)

    def close_extras(self, **kwargs) -> None:
        self.env.close()
