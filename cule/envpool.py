"""EnvPool's Atari API on cule: code written for EnvPool runs with its import replaced.

    import cule.envpool as envpool
    envs = envpool.make("Pong-v5", env_type="gym", num_envs=8, episodic_life=True, reward_clip=True)
    obs = envs.reset()                                  # (8, 4, 84, 84) uint8 numpy, channel-first
    obs, rew, done, info = envs.step(np.zeros(8, dtype=int))

The task ids, options, defaults and info keys of EnvPool 1.2's Atari env
(envpool/atari/atari_env.h): `episodic_life` ends an episode at a lost life and the next step
resumes the same game after its no-op start, stack kept; a reset fills the whole stack with its
first frame; `max_episode_steps` counts steps; float32 rewards, info["reward"] unclipped,
info["terminated"] ALE's game over, info["elapsed_step"], info["lives"], info["ram"],
info["env_id"] and info["players"]["env_id"]; env i seeded with seed + i. env_type "gym" gives
the API EnvPool's gym envs had before 1.0 (reset() returns observations alone, step() four values,
info["TimeLimit.truncated"]), which CleanRL's EnvPool scripts are written for; "gymnasium" gives
EnvPool's gymnasium API. As in EnvPool, `observation_space` and `action_space` are one env's.
Beyond EnvPool's options: `device` (cule's: by default the GPU where there is one), `output`
("numpy", EnvPool's, or "torch": tensors on the device, nothing copied to the host) and `backend`
(cule's: "cuda" with device "cpu" runs the GPU's kernels on the host).

Underneath, a CuleEnv with conventions="EnvPool" (its starts, resumptions after a lost life,
filled stacks and end frames). Step for step as EnvPool 1.2.5's where no random draw differs
(tests/test_envpool.py): sticky actions and no-op counts come from cule's own streams. A game
that ends during the no-ops that resume it after a lost life restarts at the next step, where
EnvPool restarts it at once.
"""
from __future__ import annotations

import sys
from typing import Any

import gymnasium
import numpy as np
import torch

from .batches import BatchedEnv, check_batch_size
from .env import CuleEnv
from .games import GAMES, get_game

# EnvPool 1.2's Atari config: its options and their defaults (make_spec("Pong-v5").config).
DEFAULT_CONFIG = dict(
    num_envs=1, batch_size=0, num_threads=0, max_num_players=1, thread_affinity_offset=-1, seed=42,
    gym_reset_return_info=False, max_episode_steps=27000, stack_num=4, frame_skip=4, noop_max=30,
    zero_discount_on_life_loss=False, episodic_life=False, reward_clip=False, use_fire_reset=True, img_height=84,
    img_width=84, task="pong", mode=-1, difficulty=-1, full_action_space=False, repeat_action_probability=0.0,
    use_inter_area_resize=True, gray_scale=True)
ENV_TYPES = ("gym", "gymnasium")


def list_all_envs() -> list[str]:
    """EnvPool's task ids of cule's games: "Pong-v5", "MsPacman-v5", ..."""
    return [f"{game.name}-v5" for game in GAMES.values()]


def make(task_id: str, env_type: str, **kwargs) -> "EnvPool":
    """EnvPool's make: env_type "gym" (EnvPool's gym API before 1.0) or "gymnasium"."""
    if env_type not in ENV_TYPES:
        raise ValueError(f"env_type must be one of {ENV_TYPES} (cule has no dm_env API), got {env_type!r}")
    return EnvPool(make_spec(task_id, **kwargs), env_type)


def make_gym(task_id: str, **kwargs) -> "EnvPool":
    return make(task_id, "gym", **kwargs)


def make_gymnasium(task_id: str, **kwargs) -> "EnvPool":
    return make(task_id, "gymnasium", **kwargs)


def make_dm(task_id: str, **kwargs):
    raise ValueError("cule.envpool makes env_type 'gym' and 'gymnasium' envs; it has no dm_env API")


class EnvSpec:
    """EnvPool's spec of a task: its `config` (a namedtuple of every option) and one env's spaces."""

    def __init__(self, task_id: str, config: dict[str, Any], device, output: str, backend):
        from collections import namedtuple
        self.task_id = task_id
        self.config = namedtuple("Config", config)(**config)
        self.device, self.output, self.backend = device, output, backend
        game = get_game(config["task"])
        channels = 1 if config["gray_scale"] else 3
        self.observation_space = gymnasium.spaces.Box(
            0, 255, (config["stack_num"] * channels, config["img_height"], config["img_width"]), np.uint8)
        actions = 18 if config["full_action_space"] else len(game.minimal_actions)
        self.action_space = gymnasium.spaces.Discrete(actions)
        self.reward_threshold = None

    gymnasium_observation_space = property(lambda self: self.observation_space)
    gymnasium_action_space = property(lambda self: self.action_space)


def make_spec(task_id: str, *, device=None, output: str = "numpy", backend=None, **kwargs) -> EnvSpec:
    """EnvPool's make_spec: the task's config with `kwargs` checked and applied."""
    if task_id not in list_all_envs():
        raise ValueError(f"unknown task id {task_id!r}: EnvPool's Atari ids are <Game>-v5, e.g. 'Pong-v5' "
                         f"(cule.envpool.list_all_envs())")
    unknown = set(kwargs) - set(DEFAULT_CONFIG) - {"env_seed"}
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r}; EnvPool's Atari options are "
                         f"{', '.join(DEFAULT_CONFIG)}")
    if output not in ("numpy", "torch"):
        raise ValueError(f"output must be 'numpy' or 'torch', got {output!r}")
    config = {**DEFAULT_CONFIG, "task": get_game(task_id.removesuffix("-v5")).id, **kwargs}
    config["batch_size"] = config["batch_size"] or config["num_envs"]   # as EnvPool: 0 means all
    if not config["use_inter_area_resize"]:
        raise ValueError("use_inter_area_resize must be True: cule shrinks frames as OpenCV's INTER_AREA alone")
    if config["max_num_players"] != 1 or config["thread_affinity_offset"] != -1:
        raise ValueError(f"max_num_players must be 1 and thread_affinity_offset -1 (cule does not pin threads), "
                         f"got {config['max_num_players']!r} and {config['thread_affinity_offset']!r}")
    check_batch_size(config["batch_size"], config["num_envs"])
    return EnvSpec(task_id, config, device, output, backend)


class EnvPool:
    """EnvPool's env of one Atari task (make() builds it): reset, step, send, recv, async_reset,
    close, render; `config`, `spec`, `all_env_ids`, `num_envs`, one env's spaces."""

    def __init__(self, spec: EnvSpec, env_type: str):
        c = spec.config._asdict()
        self.spec, self.env_type, self.config = spec, env_type, c
        self.num_envs = c["num_envs"]
        self.observation_space = self.single_observation_space = _spaces_of(env_type, spec.observation_space)
        self.action_space = self.single_action_space = _spaces_of(env_type, spec.action_space)
        self.all_env_ids = np.arange(self.num_envs, dtype=np.int32)
        self.is_async = c["batch_size"] < self.num_envs
        self.metadata = {"render_modes": ["rgb_array"], "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}
        self.render_mode = None
        self._frameskip = c["frame_skip"]
        self._env = CuleEnv(
            c["task"], self.num_envs, device=spec.device, backend=spec.backend, frameskip=c["frame_skip"],
            repeat_action_probability=c["repeat_action_probability"], full_action_space=c["full_action_space"],
            noop_max=c["noop_max"], grayscale=c["gray_scale"], img_height=c["img_height"], img_width=c["img_width"],
            stack_num=c["stack_num"], maxpool=True, use_fire_reset=c["use_fire_reset"],
            episodic_life=c["episodic_life"], max_num_frames_per_episode=c["max_episode_steps"] * c["frame_skip"],
            mode=None if c["mode"] < 0 else c["mode"], difficulty=None if c["difficulty"] < 0 else c["difficulty"],
            num_threads=c["num_threads"] or None, conventions="EnvPool")
        self.device = self._env.device
        self._batches = BatchedEnv(self._env, c["batch_size"]) if self.is_async else None
        seeds = c.get("env_seed") or [c["seed"] + i for i in range(self.num_envs)]
        if len(seeds) != self.num_envs:
            raise ValueError(f"env_seed must have one seed per env ({self.num_envs}), got {len(seeds)}")
        self._seeds = [int(s) for s in seeds]
        self._started = False
        self._results = None   # not batched: CuleEnv's results of the last step or reset, for recv()

    # ---- EnvPool's calls ------------------------------------------------------------------------

    def reset(self, env_id=None, **kwargs):
        """Every env's (or env_id's) new episode: observations, with info where the API gives it
        (gymnasium; gym with gym_reset_return_info). Seeds are fixed at make(), as in EnvPool."""
        options = kwargs.pop("options", None)
        kwargs.pop("seed", None)
        if kwargs:
            raise TypeError(f"reset() got an unexpected argument {next(iter(kwargs))!r}")
        if options and options.get("reset_mask") is not None:
            env_id = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        if env_id is not None and self._batches is not None:
            raise ValueError("reset(env_id) needs batch_size == num_envs; async_reset() resets every env")
        if self._batches is not None or env_id is None:
            self.async_reset()
            obs, _, _, _, info = self._recv()
        else:
            ids = np.asarray(env_id, dtype=np.int64).reshape(-1)
            mask = np.zeros(self.num_envs, dtype=bool)
            mask[ids] = True
            obs, info = self._env.reset(seed=self._seed_once(), options={"reset_mask": mask})
            self._started = True
            obs, _, _, _, info = self._results_of(torch.from_numpy(ids), obs, None, None, None, info)
        if self.env_type == "gymnasium" or self.config["gym_reset_return_info"]:
            return obs, info
        return obs

    def async_reset(self) -> None:
        """Resets every env; recv() gives their first observations."""
        seeds = self._seed_once()
        self._started = True
        if self._batches is not None:
            return self._batches.async_reset(seed=seeds)
        obs, info = self._env.reset(seed=seeds)
        self._results = (obs, None, None, None, info)

    def step(self, action, env_id=None):
        self.send(action, env_id)
        return self.recv()

    def send(self, action, env_id=None) -> None:
        """Actions for env_id (default: the envs recv() gave last, or all)."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() or async_reset() before step() or send()")
        if self._batches is not None:
            return self._batches.send(action, env_id)
        if env_id is not None and not np.array_equal(np.asarray(env_id).reshape(-1), self.all_env_ids):
            raise ValueError("with batch_size == num_envs every env steps at once: env_id must be all of them")
        self._results = self._env.step(action)

    def recv(self, reset: bool = False, return_info: bool = True):
        """The results of a batch: (obs, rewards, done, info) for "gym", (obs, rewards,
        terminated, truncated, info) for "gymnasium"."""
        obs, rewards, terminated, truncated, info = self._recv()
        if self.env_type == "gym":
            info["TimeLimit.truncated"] = truncated
            return obs, rewards, terminated | truncated, info
        return obs, rewards, terminated, truncated, info

    def _recv(self):
        if self._batches is not None:
            obs, rewards, terminated, truncated, info = self._batches.recv()
        else:
            if self._results is None:
                raise RuntimeError("recv() has given every env's results: send() actions first")
            (obs, rewards, terminated, truncated, info), self._results = self._results, None
        return self._results_of(info["env_id"].to(torch.int64), obs, rewards, terminated, truncated, info)

    def render(self, env_ids=None, **kwargs):
        """The RGB frames of env_ids (default: env 0), (len(env_ids), 210, 160, 3)."""
        return np.stack(self._env.render([0] if env_ids is None else env_ids))

    def close(self) -> None:
        self._env.close()

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return f"cule.envpool.EnvPool({self.spec.task_id!r}, env_type={self.env_type!r}, num_envs={self.num_envs})"

    # ---- helpers --------------------------------------------------------------------------------

    def _seed_once(self):
        """The seeds of the first reset (env i: seed + i); later resets go on on the same consoles."""
        return None if self._started else self._seeds

    def _results_of(self, ids: torch.Tensor, obs, rewards, terminated, truncated, info):
        """EnvPool's (obs, reward, terminated, truncated, info) of the envs `ids` from CuleEnv's
        results (rewards None: a reset's), all of the envs or already those alone."""
        c, n = self.config, len(ids)
        ids = ids.to(self.device)
        if obs.shape[0] != n:
            obs, info = obs.index_select(0, ids), {k: v.index_select(0, ids) for k, v in info.items()}
            if rewards is not None:
                rewards, terminated, truncated = rewards[ids], terminated[ids], truncated[ids]
        if not c["gray_scale"]:   # (n, stack, h, w, 3) -> (n, stack * 3, h, w)
            obs = obs.permute(0, 1, 4, 2, 3).reshape(n, -1, c["img_height"], c["img_width"])
        if rewards is None:
            rewards = torch.zeros(n, dtype=torch.float32, device=self.device)
            terminated = truncated = torch.zeros(n, dtype=torch.bool, device=self.device)
        state = self._env.episode_state()
        frames = state["episode_steps"].index_select(0, ids)
        elapsed = (frames + self._frameskip - 1) // self._frameskip   # the step that lost a life counts whole
        done = terminated | truncated
        truncated = done & (elapsed >= c["max_episode_steps"])
        raw = rewards.to(torch.float32)
        env_id = ids.to(torch.int32)
        info = {"env_id": env_id, "players": {"env_id": env_id}, "lives": info["lives"], "reward": raw,
                "terminated": state["game_over"].index_select(0, ids).to(torch.int32),
                "elapsed_step": elapsed.to(torch.int32), "ram": self._env.get_ram().index_select(0, ids)}
        results = (obs, raw.sign() if c["reward_clip"] else raw.clone(), done & ~truncated, truncated, info)
        if self.spec.output == "torch":
            return results
        return tuple(_host(v) for v in results[:4]) + (_host_dict(info),)


def _spaces_of(env_type: str, space):
    """`space` as old gym's, for env_type "gym" where the caller has imported gym (as code written
    for EnvPool's gym envs does, checking isinstance(envs.action_space, gym.spaces.Discrete))."""
    gym = sys.modules.get("gym")
    if env_type != "gym" or gym is None:
        return space
    if isinstance(space, gymnasium.spaces.Discrete):
        return gym.spaces.Discrete(int(space.n))
    return gym.spaces.Box(space.low, space.high, space.shape, space.dtype)


def _host(value):
    return value.cpu().numpy() if isinstance(value, torch.Tensor) else value


def _host_dict(info: dict) -> dict:
    return {k: _host_dict(v) if isinstance(v, dict) else _host(v) for k, v in info.items()}
