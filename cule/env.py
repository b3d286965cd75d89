"""CuleEnv: N Atari environments stepped together, observations and rewards as torch tensors."""
from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np
import torch

from . import _cpu
from .games import SCHEMES, Game, get_game
from .reset import ale_reset, NOOP
from .roms import load_rom

SCREEN_HEIGHT, SCREEN_WIDTH = 210, 160
_POWER_ON_SWITCHES_B = 0x3F   # COLOR, both difficulty switches at B, SELECT and RESET up


def make_console(game: Game, rom: bytes) -> tuple["_cpu.Console", "_cpu.GameSpec"]:
    """A powered-on console for `game`, as ale-py's loadROM builds it (before its reset)."""
    switches = _POWER_ON_SWITCHES_B
    if game.power_on_difficulty_a[0]:
        switches |= 0x40
    if game.power_on_difficulty_a[1]:
        switches |= 0x80
    spec = _cpu.GameSpec(
        rom=rom, game=game.index, scheme=SCHEMES[game.scheme], ystart=game.ystart,
        hmove_blanks=game.hmove_blanks, left_paddles=game.left == "PADDLES",
        right_paddles=game.right == "PADDLES", swap_ports=game.swap_ports,
        swap_paddles=game.swap_paddles, power_on_switches=switches)
    console = _cpu.Console(spec)
    console.power_on()
    return console, spec


def _check_positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


class CuleEnv:
    """A batch of `num_envs` environments of one game.

    With the default arguments every environment matches an ale-py `ALEInterface` with
    frameskip 1 and repeat_action_probability 0, frame for frame.
    """

    def __init__(self, game: str, num_envs: int = 1, device: str | torch.device = "cpu", frameskip: int = 1,
                 repeat_action_probability: float = 0.0, full_action_space: bool = True, noop_max: int = 0,
                 grayscale: bool = False, img_height: int = SCREEN_HEIGHT, img_width: int = SCREEN_WIDTH,
                 stack_num: int = 1, maxpool: bool = False, reward_clipping: bool = False,
                 use_fire_reset: bool = False, episodic_life: bool = False,
                 max_num_frames_per_episode: int = 0, mode: int | None = None, difficulty: int | None = None,
                 num_threads: int | None = None, rom_path: str | None = None):
        self.game = get_game(game)
        self.num_envs = _check_positive_int("num_envs", num_envs)
        self.device = torch.device(device)
        if self.device.type != "cpu":
            raise ValueError(f"device {str(self.device)!r} is not available: this version of cule has only "
                             "the CPU backend (device='cpu')")
        self.frameskip = _check_positive_int("frameskip", frameskip)
        if not 0.0 <= float(repeat_action_probability) <= 1.0:
            raise ValueError(f"repeat_action_probability must be in [0, 1], got {repeat_action_probability!r}")
        if noop_max < 0:
            raise ValueError(f"noop_max must be >= 0, got {noop_max!r}")
        if (img_height, img_width) != (SCREEN_HEIGHT, SCREEN_WIDTH):
            raise ValueError(f"img_height x img_width must be {SCREEN_HEIGHT} x {SCREEN_WIDTH} (resizing is not "
                             f"implemented yet), got {img_height} x {img_width}")
        for name, value in (("maxpool", maxpool), ("reward_clipping", reward_clipping),
                            ("use_fire_reset", use_fire_reset), ("episodic_life", episodic_life)):
            if value:
                raise ValueError(f"{name}=True is not implemented yet; only {name}=False is available")
        self.stack_num = _check_positive_int("stack_num", stack_num)
        if max_num_frames_per_episode < 0:
            raise ValueError(f"max_num_frames_per_episode must be >= 0, got {max_num_frames_per_episode!r}")
        self.grayscale = bool(grayscale)
        self.mode = self.game.default_mode if mode is None else mode
        self.difficulty = self.game.default_difficulty if difficulty is None else difficulty

        self.action_set = tuple(range(18)) if full_action_space else self.game.minimal_actions
        self._action_ids = np.asarray(self.action_set, dtype=np.uint8)

        rom = load_rom(self.game, rom_path)
        console, self._spec = make_console(self.game, rom)
        # loadROM resets into the default mode; another mode is then set by reset_game, on the
        # same console (RAM and frame counter carry over), exactly as ale-py and gymnasium do it.
        ale_reset(console, self.game, self.game.default_mode, self.game.default_difficulty)
        if (self.mode, self.difficulty) != (self.game.default_mode, self.game.default_difficulty):
            ale_reset(console, self.game, self.mode, self.difficulty)
        pool = [console.state()]
        for _ in range(max(noop_max, 1) - 1):   # noop starts: states after 1..K-1 further NOOP frames
            console.frame(NOOP)
            console.count_frame()
            pool.append(console.state())

        legal = sum(1 << a for a in self.game.legal_actions)
        threads = num_threads or min(self.num_envs, os.cpu_count() or 1)
        self._vec = _cpu.VecEnv(self._spec, self.num_envs, self.frameskip, float(repeat_action_probability),
                                int(max_num_frames_per_episode), legal, threads)
        self._vec.set_pool(np.stack(pool))
        self._frame_shape = (self.num_envs, SCREEN_HEIGHT, SCREEN_WIDTH) + (() if self.grayscale else (3,))
        self._recent: list[np.ndarray] = []   # the last stack_num frames, never handed out
        self._rewards = np.zeros(self.num_envs, dtype=np.int32)
        self._terminated = np.zeros(self.num_envs, dtype=np.uint8)
        self._truncated = np.zeros(self.num_envs, dtype=np.uint8)
        self._seeded = False

    # ---- API ---------------------------------------------------------------------------------

    def reset(self, seed: int | Sequence[int] | None = None):
        if seed is not None or not self._seeded:
            self._vec.seed(self._seed_keys(seed))
            self._seeded = True
        self._vec.reset(np.ones(self.num_envs, dtype=np.uint8))
        frame = self._observe_frame()
        self._recent = [frame] * self.stack_num
        return self._observation(), self._info()

    def step(self, actions):
        if not self._recent:
            raise RuntimeError("call reset() before step()")
        ids = self._action_ids[self._check_actions(actions)]
        self._vec.step(ids, self._rewards, self._terminated, self._truncated)
        frame = self._observe_frame()
        self._recent = self._recent[1:] + [frame]
        obs = self._observation()
        truncated = torch.from_numpy(self._truncated.astype(bool))
        reward = torch.from_numpy(self._rewards.astype(np.float32))
        terminated = torch.from_numpy(self._terminated.astype(bool))
        return obs, reward, terminated, truncated, self._info()

    def get_ram(self) -> torch.Tensor:
        ram = np.zeros((self.num_envs, 128), dtype=np.uint8)
        self._vec.ram(ram)
        return torch.from_numpy(ram)

    def get_screens(self) -> torch.Tensor:
        """The current frames as ALE palette indices, (N, 210, 160) uint8 (ALE's getScreen)."""
        frames = np.empty((self.num_envs, SCREEN_HEIGHT, SCREEN_WIDTH), dtype=np.uint8)
        self._vec.screens(frames)
        return torch.from_numpy(frames)

    def get_states(self) -> np.ndarray:
        return self._vec.get_states()

    def set_states(self, states: np.ndarray, env_ids: Sequence[int] | None = None) -> None:
        ids = np.arange(self.num_envs) if env_ids is None else np.asarray(env_ids, dtype=np.int64)
        self._vec.set_states(np.ascontiguousarray(states, dtype=np.uint8), ids.astype(np.int64))

    def close(self) -> None:
        self._vec = None

    # ---- helpers -----------------------------------------------------------------------------

    def _seed_keys(self, seed) -> np.ndarray:
        if seed is None:
            return np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64)
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return np.random.SeedSequence(int(seed)).generate_state(self.num_envs, dtype=np.uint64)
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed must be an int or {self.num_envs} ints, got {len(seeds)}")
        return np.array([np.random.SeedSequence(int(s)).generate_state(1, dtype=np.uint64)[0] for s in seeds],
                        dtype=np.uint64)

    def _check_actions(self, actions) -> np.ndarray:
        if isinstance(actions, torch.Tensor):
            actions = actions.detach().cpu().numpy()
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        n = len(self.action_set)
        bad = (a < 0) | (a >= n)
        if bad.any():
            raise ValueError(f"action {a[bad][0]} is out of range: actions are 0..{n - 1} "
                             f"({'full' if n == 18 else 'minimal'} action set of {self.game.id})")
        return a.astype(np.int64)

    def _observation(self) -> torch.Tensor:
        """(N, stack_num, ...) from the recent frames: a fresh tensor, the caller's to keep."""
        if self.stack_num == 1:
            return torch.from_numpy(self._recent[0]).unsqueeze(1)   # a fresh frame: no copy needed
        return torch.from_numpy(np.stack(self._recent, axis=1))

    def _observe_frame(self) -> np.ndarray:
        frame = np.empty(self._frame_shape, dtype=np.uint8)
        self._vec.observe(frame, self.grayscale)
        return frame

    def _info(self) -> dict:
        info = {k: torch.from_numpy(v) for k, v in self._vec.info().items()}
        info["env_id"] = torch.arange(self.num_envs)
        return info
