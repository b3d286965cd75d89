"""One environment with ale-py's AtariEnv interface: what `gymnasium.make("cule/Pong-v5")` gives,
and what gymnasium's own vector envs build on (`gymnasium.make_vec(..., vectorization_mode="sync")`).
A CuleEnv of one environment on the CPU backend underneath."""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.spaces import Discrete

from . import _core
from .env import CuleEnv
from .spaces import UniformBox

# AtariEnv's observation types, as CuleEnv options.
OBS_TYPES = {"rgb": dict(grayscale=False), "grayscale": dict(grayscale=True), "ram": dict(obs_type="ram")}


class AtariEnvError(gymnasium.error.Error, ValueError):
    """A setting AtariEnv takes that cule cannot give: gymnasium's error, as ale-py raises, and a
    ValueError, as cule's other checks raise."""


class CuleAtariEnv(gymnasium.Env):
    """ale-py's AtariEnv (its defaults: frameskip 4, sticky actions 0.25, the minimal action set,
    full-size frames): observations (210, 160, 3) RGB, (210, 160) grey or the 128 RAM bytes, rewards
    summed over the frameskip as a float, info with lives and frame numbers. With
    repeat_action_probability 0 it steps as AtariEnv does, frame for frame; with sticky actions
    its draws are cule's own. Episodes end as AtariEnv's: reset() starts the next (a step after
    the end starts it too, where AtariEnv would repeat the last frame)."""

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, game: str, mode: int | None = None, difficulty: int | None = None, obs_type: str = "rgb",
                 frameskip: int = 4, repeat_action_probability: float = 0.25, full_action_space: bool = False,
                 max_num_frames_per_episode: int | None = None, render_mode: str | None = None,
                 device: str = "cpu"):
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {sorted(OBS_TYPES)}, got {obs_type!r}")
        if not isinstance(frameskip, int) or isinstance(frameskip, bool):
            raise AtariEnvError(f"frameskip must be a positive int (cule has no stochastic frameskip), got "
                                f"{frameskip!r}: for ale-py's -v0 and -v4 ids take cule/<Game>NoFrameskip-v4 "
                                f"(or -v0) with a frame-skipping wrapper, or cule/<Game>-v5")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be 'rgb_array' or None, got {render_mode!r}")
        self._env = CuleEnv(game, 1, device=device, frameskip=frameskip, mode=mode, difficulty=difficulty,
                            repeat_action_probability=repeat_action_probability,
                            full_action_space=full_action_space,
                            max_num_frames_per_episode=max_num_frames_per_episode or 0, output="numpy",
                            num_threads=1, **OBS_TYPES[obs_type])
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "render_fps": self._env.metadata["render_fps"]}
        self.game = self._env.game
        space = self._env.single_observation_space
        self.observation_space = UniformBox(0, 255, space.shape[1:], np.uint8)   # without the stack's axis
        self.action_space = Discrete(self._env.single_action_space.n)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        obs, info = self._env.reset(seed=seed)
        return obs[0, 0], _one(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self._env.step(np.asarray([action]))
        return obs[0, 0], float(reward[0]), bool(terminated[0]), bool(truncated[0]), _one(info)

    def render(self) -> np.ndarray | None:
        return self._env.render()[0] if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        self._env.close()

    def get_action_meanings(self) -> list[str]:
        return [_core.ACTION_NAMES[a] for a in self._env.action_set]


def _one(info: dict) -> dict[str, int]:
    """AtariEnv's info: lives and frame numbers as ints."""
    return {k: int(info[k][0]) for k in ("lives", "episode_frame_number", "frame_number")}
