"""CuleEnv: N Atari environments stepped together, observations and rewards as torch tensors."""
from __future__ import annotations

import inspect
import os
from typing import Any, Sequence

import gymnasium
import numpy as np
import torch
from gymnasium.spaces import Box, Discrete
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _cpu
from .games import SCHEMES, Game, get_game
from .reset import FIRE, NOOP, act, ale_reset
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


def _check_autoreset_mode(mode) -> AutoresetMode:
    allowed = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
    try:
        mode = AutoresetMode(mode)
    except ValueError:
        mode = None
    if mode not in allowed:
        raise ValueError(f"autoreset_mode must be one of {[m.value for m in allowed]}")
    return mode


def _check_image_size(height, width) -> tuple[int, int]:
    """Frames shrink with OpenCV's INTER_AREA weights. OpenCV takes another path (integer
    averages) when both scales are whole numbers other than 1; cule does not have that one."""
    height, width = _check_positive_int("img_height", height), _check_positive_int("img_width", width)
    if height > SCREEN_HEIGHT or width > SCREEN_WIDTH:
        raise ValueError(f"img_height x img_width must be at most {SCREEN_HEIGHT} x {SCREEN_WIDTH} (frames can "
                         f"only shrink), got {height} x {width}")
    whole = SCREEN_HEIGHT % height == 0 and SCREEN_WIDTH % width == 0
    if whole and (height, width) != (SCREEN_HEIGHT, SCREEN_WIDTH):
        raise ValueError(f"img_height x img_width = {height} x {width} divides 210 x 160 exactly, where OpenCV "
                         "averages whole blocks, which cule does not do yet; choose another size (e.g. 84 x 84)")
    return height, width


def _check_positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


class CuleEnv(gymnasium.vector.VectorEnv):
    """A batch of `num_envs` environments of one game, as a gymnasium vector env.

    With the default arguments every environment matches an ale-py `ALEInterface` with
    frameskip 1 and repeat_action_probability 0, frame for frame. Episodes restart as ale-py's
    AtariVectorEnv restarts them: on the step after the one that ended them ("NextStep"), or
    within it ("SameStep", the last observation then in info["final_obs"]). Every returned
    tensor is fresh: the env never writes into a tensor it has handed out.
    """

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game: str, num_envs: int = 1, device: str | torch.device = "cpu", frameskip: int = 1,
                 repeat_action_probability: float = 0.0, full_action_space: bool = True, noop_max: int = 0,
                 grayscale: bool = False, img_height: int = SCREEN_HEIGHT, img_width: int = SCREEN_WIDTH,
                 stack_num: int = 1, maxpool: bool = False, reward_clipping: bool = False,
                 use_fire_reset: bool = False, episodic_life: bool = False, life_loss_info: bool = False,
                 max_num_frames_per_episode: int = 0, autoreset_mode: str | AutoresetMode = "NextStep",
                 mode: int | None = None, difficulty: int | None = None,
                 num_threads: int | None = None, rom_path: str | None = None, **unknown):
        if unknown:
            valid = [n for n in inspect.signature(CuleEnv.__init__).parameters if n not in ("self", "unknown")]
            raise TypeError(f"unknown option {next(iter(unknown))!r}; CuleEnv takes {', '.join(valid)}")
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
        self.img_height, self.img_width = _check_image_size(img_height, img_width)
        self.stack_num = _check_positive_int("stack_num", stack_num)
        if max_num_frames_per_episode < 0:
            raise ValueError(f"max_num_frames_per_episode must be >= 0, got {max_num_frames_per_episode!r}")
        self.grayscale = bool(grayscale)
        self.reward_clipping = bool(reward_clipping)
        # As AtariVectorEnv: the last two frames of a step, so never with frameskip 1, nor on an
        # episode's first frame.
        self.maxpool = bool(maxpool) and self.frameskip >= 2
        self.autoreset_mode = _check_autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = "rgb_array"
        self.mode = self.game.default_mode if mode is None else mode
        self.difficulty = self.game.default_difficulty if difficulty is None else difficulty

        self.action_set = tuple(range(18)) if full_action_space else self.game.minimal_actions
        self._action_ids = np.asarray(self.action_set, dtype=np.uint8)
        frame_shape = (self.img_height, self.img_width) + (() if self.grayscale else (3,))
        self.single_observation_space = Box(0, 255, (self.stack_num, *frame_shape), np.uint8)
        self.single_action_space = Discrete(len(self.action_set))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        rom = load_rom(self.game, rom_path)
        console, self._spec = make_console(self.game, rom)
        # ALE's post-reset state, as gymnasium's reset(seed=...) and AtariVectorEnv make it:
        # loadROM resets into the default mode, then reset_game resets again into the chosen
        # mode on the same console (RAM and frame counter carry over; 12 games end up elsewhere
        # than after loadROM alone).
        ale_reset(console, self.game, self.game.default_mode, self.game.default_difficulty)
        ale_reset(console, self.game, self.mode, self.difficulty)
        # AtariVectorEnv's reset: FIRE once where the action set has it, then 0 .. K-1 NOOP frames
        # in all, the FIRE frame counting as one of them.
        fire = bool(use_fire_reset) and FIRE in self.action_set
        if fire:
            act(console, FIRE)
        pool = [console.state()]
        for _ in range(max(noop_max - fire, 1) - 1):   # noop starts: states after further NOOP frames
            console.frame(NOOP)
            console.count_frame()
            pool.append(console.state())

        legal = sum(1 << a for a in self.game.legal_actions)
        threads = num_threads or min(self.num_envs, os.cpu_count() or 1)
        self._vec = _cpu.VecEnv(self._spec, self.num_envs, self.frameskip, float(repeat_action_probability),
                                int(max_num_frames_per_episode), legal, bool(episodic_life), bool(life_loss_info),
                                threads)
        self._vec.set_pool(np.stack(pool))
        self._frame_shape = (self.num_envs, *frame_shape)
        # The last stack_num frames, oldest first; never handed out when stack_num > 1.
        self._recent: list[np.ndarray] = []
        self._rewards = np.zeros(self.num_envs, dtype=np.int32)
        self._terminated = np.zeros(self.num_envs, dtype=np.uint8)
        self._truncated = np.zeros(self.num_envs, dtype=np.uint8)
        self._pending = np.zeros(self.num_envs, dtype=np.uint8)   # see _episodes_over
        self._pooled = np.zeros(self.num_envs, dtype=np.uint8)    # the newest frames are max-pooled

    # ---- API ---------------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict | None = None):
        """Starts new episodes in every environment, or in those of options["reset_mask"] (a bool
        array or tensor of shape (num_envs,)); the others keep their episode and observation.
        `seed`: one int for all the reset environments, or one per reset environment; the first
        reset without a seed draws one from the OS. As in ale-py, a seed gives a fresh console
        (frame numbers restart); without one the episode restarts on the same console."""
        mask = self._reset_mask(options)
        if not self._recent and not mask.all():
            raise ValueError("the first reset() must reset every environment (no reset_mask)")
        fresh = seed is not None or not self._recent
        if fresh:
            self._vec.seed(self._seed_keys(seed, mask), mask.astype(np.uint8))
        self._vec.reset(mask.astype(np.uint8), not fresh)
        self._pooled[mask] = 0   # the others' frames are observed again as they were
        frame = self._observe_frame()
        if not self._recent:
            self._recent = [np.zeros_like(frame) for _ in range(self.stack_num - 1)] + [frame]
        else:
            self._restart_stacks(mask, frame)
        return self._observation(), self._info()

    def step(self, actions):
        if not self._recent:
            raise RuntimeError("call reset() before step()")
        ids = self._action_ids[self._check_actions(actions)]
        restarting = self._episodes_over()   # NextStep: these start a new episode in this step
        self._vec.step(ids, self._rewards, self._terminated, self._truncated)
        self._pooled[:] = self.maxpool
        self._pooled[restarting] = 0
        self._recent = self._recent[1:] + [self._observe_frame()]
        if restarting.any():
            self._restart_stacks(restarting, self._recent[-1])
        rewards = np.clip(self._rewards, -1, 1) if self.reward_clipping else self._rewards.copy()
        terminated, truncated = self._terminated.astype(bool), self._truncated.astype(bool)
        info = self._info()
        over = self._episodes_over()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and over.any():
            info["final_obs"] = self._observation()
            self._vec.reset(over.astype(np.uint8), True)
            self._pooled[over] = 0
            self._restart_stacks(over, self._observe_frame())
            info.update(self._info())
        return (self._observation(), torch.from_numpy(rewards), torch.from_numpy(terminated),
                torch.from_numpy(truncated), info)

    def render(self, env_ids: Sequence[int] | None = None) -> np.ndarray:
        """The current RGB frames (k, 210, 160, 3) of `env_ids` (default: all), on the host."""
        frames = np.empty((self.num_envs, SCREEN_HEIGHT, SCREEN_WIDTH, 3), dtype=np.uint8)
        self._vec.observe(frames, False, np.zeros(self.num_envs, dtype=np.uint8), SCREEN_HEIGHT, SCREEN_WIDTH)
        return frames if env_ids is None else frames[self._env_ids(env_ids)]

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

    def set_ram(self, ram, env_ids: Sequence[int] | None = None) -> None:
        """Writes the 128 RAM bytes of `env_ids` (default: all), as ale-py's setRAM does byte by
        byte: `ram` is uint8, shape (len(env_ids), 128), a tensor or an array."""
        ids = self._env_ids(env_ids)
        if isinstance(ram, torch.Tensor):
            ram = ram.detach().cpu().numpy()
        ram = np.asarray(ram)
        if ram.dtype != np.uint8 or ram.shape != (len(ids), 128):
            raise ValueError(f"ram must be uint8 of shape ({len(ids)}, 128), got {ram.dtype} {ram.shape}")
        self._vec.set_ram(np.ascontiguousarray(ram), ids)

    def set_states(self, states: np.ndarray, env_ids: Sequence[int] | None = None) -> None:
        self._vec.set_states(np.ascontiguousarray(states, dtype=np.uint8), self._env_ids(env_ids))

    def close_extras(self, **kwargs) -> None:
        self._vec = None

    # ---- helpers -----------------------------------------------------------------------------

    def _seed_keys(self, seed, mask: np.ndarray) -> np.ndarray:
        """One RNG key per environment (only those of `mask` are used)."""
        if seed is None:
            return np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64)
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return np.random.SeedSequence(int(seed)).generate_state(self.num_envs, dtype=np.uint64)
        seeds = list(seed)
        if len(seeds) != int(mask.sum()):
            raise ValueError(f"seed must be an int or one int per reset environment ({int(mask.sum())}), "
                             f"got {len(seeds)}")
        keys = np.zeros(self.num_envs, dtype=np.uint64)
        keys[mask] = [np.random.SeedSequence(int(s)).generate_state(1, dtype=np.uint64)[0]
                                 for s in seeds]
        return keys

    def _env_ids(self, env_ids) -> np.ndarray:
        ids = np.arange(self.num_envs) if env_ids is None else np.asarray(env_ids, dtype=np.int64).reshape(-1)
        bad = (ids < 0) | (ids >= self.num_envs)
        if bad.any():
            raise ValueError(f"env id {ids[bad][0]} is out of range: ids are 0..{self.num_envs - 1}")
        return ids

    def _reset_mask(self, options: dict | None) -> np.ndarray:
        options = options or {}
        unknown = set(options) - {"reset_mask"}
        if unknown:
            raise ValueError(f"unknown reset option {sorted(unknown)[0]!r}; reset takes options={{'reset_mask': ...}}")
        mask = options.get("reset_mask")
        if mask is None:
            mask = np.ones(self.num_envs, dtype=bool)
        else:
            if isinstance(mask, torch.Tensor):
                mask = mask.detach().cpu().numpy()
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must be a bool array or tensor of shape ({self.num_envs},), got "
                                 f"{type(mask).__name__} {getattr(mask, 'dtype', '')} {getattr(mask, 'shape', '')}")
        return mask

    def _episodes_over(self) -> np.ndarray:
        """The environments whose episode is over and not restarted yet: game over, the frame
        cap, or a lost life under episodic_life (under life_loss_info alone a lost life sets
        terminated and the game goes on)."""
        self._vec.pending_resets(self._pending)
        return self._pending.astype(bool)

    def _restart_stacks(self, envs: np.ndarray, frame: np.ndarray) -> None:
        """The stacks of `envs` start over, as AtariVectorEnv's do: zeros, then `frame`, the
        current frame of every environment (the others' is unchanged). Older frames are never
        handed out, so they are cleared in place; the newest may have been, so it is replaced."""
        for older in self._recent[:-1]:
            older[envs] = 0
        self._recent[-1] = frame

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
        self._vec.observe(frame, self.grayscale, self._pooled, self.img_height, self.img_width)
        return frame

    def _info(self) -> dict:
        info = {k: torch.from_numpy(v) for k, v in self._vec.info().items()}
        info["env_id"] = torch.arange(self.num_envs)
        return info
