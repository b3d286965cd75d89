"""The CPU backend: the kernels/ emulator compiled by the host compiler (cule._core), on threads."""
from __future__ import annotations

import numpy as np
import torch

from .. import _core
from ..games import Game
from . import RAM_BYTES, SCREEN_WIDTH, ObservationSettings, StepSettings


class CpuBackend:
    device = torch.device("cpu")
    asynchronous = False   # every call's results are on the host when it returns

    def __init__(self, game: Game, spec: _core.GameSpec, pool: np.ndarray, settings: StepSettings,
                 observations: ObservationSettings, num_threads: int):
        self.num_envs = settings.num_envs
        self._screen_height = game.screen_height
        s = settings
        self._vec = _core.VecEnv(spec, s.num_envs, s.frameskip,
                                s.repeat_action_probability, s.max_episode_frames, s.legal_action_mask,
                                s.episodic_life, s.life_loss_info, s.resume_noop_max, s.resume_fire, s.sound,
                                num_threads)
        self._vec.set_pool(pool)
        o = observations
        self._vec.set_stacks(o.ram, o.grey, o.height, o.width, o.stack_num, o.maxpool, o.vector_env_end,
                             o.envpool_end, o.envpool)
        self._stack_shape = (self.num_envs, o.stack_num, *o.frame_shape)
        self._none_pooled = np.zeros(self.num_envs, dtype=np.uint8)
        # Without max-pooling a step need only draw its last frame (the one before is drawn when
        # something needs it: kernels/env/env.h, LastStep).
        self._vec.last_frame_only = not o.maxpool

    @property
    def split_render(self) -> bool:
        """Whether steps run as the CUDA backend's two passes (emulate and log, then replay the log,
        drawing) rather than drawing as they go: the same pixels, slower on a CPU; for checking."""
        return self._vec.split_render

    @split_render.setter
    def split_render(self, on: bool) -> None:
        self._vec.split_render = bool(on)

    def render_stats(self) -> tuple[int, int, int]:
        """(steps replayed from their log, steps run again drawing, most TIA accesses one step logged)."""
        return self._vec.render_stats()

    def set_pool(self, states: torch.Tensor) -> None:
        self._vec.set_pool(np.ascontiguousarray(states.numpy()))

    def seed(self, keys: np.ndarray, mask: torch.Tensor) -> None:
        self._vec.seed(keys, _bytes(mask))

    def reset(self, mask: torch.Tensor, same_console: bool) -> None:
        self._vec.reset(_bytes(mask), same_console)

    def step(self, inputs: torch.Tensor, skip: torch.Tensor):
        flags = _step_flags(self.num_envs)
        if not skip.item():
            self._vec.step(inputs.numpy().view(np.uint32), *flags)
        return _flag_tensors(flags)

    def step_and_stack(self, inputs: torch.Tensor, skip: torch.Tensor):
        if skip.item():
            return (*self.step(inputs, skip), self.advance_stacks())
        flags, out = _step_flags(self.num_envs), np.empty(self._stack_shape, dtype=np.uint8)
        self._vec.step_and_stack(inputs.numpy().view(np.uint32), *flags, out)
        return (*_flag_tensors(flags), torch.from_numpy(out))

    def step_one(self, input_word: int) -> tuple:
        """step() and advance_stacks() of a one-env backend in one engine call, no tensors made:
        (its stack, reward, terminated, truncated, lives, frame_number, episode_frame_number)."""
        out = np.empty(self._stack_shape[1:], dtype=np.uint8)
        return out, *self._vec.step_one(input_word, out)

    def advance_stacks(self) -> torch.Tensor:
        out = np.empty(self._stack_shape, dtype=np.uint8)
        self._vec.advance_stacks(out)
        return torch.from_numpy(out)

    def restart_stacks(self, mask: torch.Tensor) -> torch.Tensor:
        out = np.empty(self._stack_shape, dtype=np.uint8)
        self._vec.restart_stacks(_bytes(mask), out)
        return torch.from_numpy(out)

    def observe(self, grey: bool, pooled: torch.Tensor, height: int, width: int) -> torch.Tensor:
        out = np.empty((self.num_envs, height, width) + (() if grey else (3,)), dtype=np.uint8)
        return torch.from_numpy(self.observe_into(out, grey, _bytes(pooled)))

    def observe_into(self, out: np.ndarray, grey: bool, pooled: np.ndarray | None = None) -> np.ndarray:
        """observe() into `out`, C-contiguous uint8 (N, height, width[, 3]) (ALE's getScreenRGB
        into a buffer), `pooled` a uint8 mask (default: none pooled); `out`."""
        self._vec.observe(out, grey, self._none_pooled if pooled is None else pooled, out.shape[1], out.shape[2])
        return out

    def pending_resets(self) -> torch.Tensor:
        out = np.zeros(self.num_envs, dtype=np.uint8)
        self._vec.pending_resets(out)
        return torch.from_numpy(out.view(bool))

    def ram(self) -> torch.Tensor:
        out = np.zeros((self.num_envs, RAM_BYTES), dtype=np.uint8)
        self._vec.ram(out)
        return torch.from_numpy(out)

    def screens(self) -> torch.Tensor:
        out = np.empty((self.num_envs, self._screen_height, SCREEN_WIDTH), dtype=np.uint8)
        self._vec.screens(out)
        return torch.from_numpy(out)

    def info(self) -> dict[str, torch.Tensor]:
        return {k: torch.from_numpy(v) for k, v in self._vec.info().items()}

    def episode_state(self) -> dict[str, torch.Tensor]:
        state = self._vec.episode_state()
        return {"game_over": torch.from_numpy(state["game_over"].view(bool)),
                "episode_steps": torch.from_numpy(state["episode_steps"])}

    def rngs(self) -> torch.Tensor:
        return torch.from_numpy(self._vec.rngs().view(np.int64))

    def set_rngs(self, rngs: torch.Tensor, env_ids: np.ndarray) -> None:
        self._vec.set_rngs(np.ascontiguousarray(rngs.numpy()).view(np.uint64), env_ids)

    def get_states(self) -> torch.Tensor:
        return torch.from_numpy(self._vec.get_states())

    def set_states(self, states: torch.Tensor, env_ids: np.ndarray) -> None:
        self._vec.set_states(np.ascontiguousarray(states.numpy()), env_ids)

    def set_ram(self, ram: torch.Tensor, env_ids: np.ndarray) -> None:
        self._vec.set_ram(np.ascontiguousarray(ram.numpy()), env_ids)


def _step_flags(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Arrays for a step's rewards, terminated and truncated flags (as uint8), zeros."""
    return np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8)


def _flag_tensors(flags: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[torch.Tensor, ...]:
    rewards, terminated, truncated = flags
    return torch.from_numpy(rewards), torch.from_numpy(terminated.view(bool)), torch.from_numpy(truncated.view(bool))


def _bytes(mask: torch.Tensor) -> np.ndarray:
    return np.ascontiguousarray(mask.numpy()).view(np.uint8)
