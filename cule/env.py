"""CuleEnv: N Atari environments stepped together, observations and rewards as torch tensors."""
from __future__ import annotations

import contextlib
import functools
import inspect
import os
import signal
import _signal   # signal's functions without its enum conversions: 9 us a step less (CPython)
import threading
import warnings
from typing import Any, Sequence

import gymnasium
import numpy as np
import torch
from gymnasium.spaces import Box, Discrete
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _core
from .backends import RAM_BYTES, SCREEN_WIDTH, CpuBackend, ObservationSettings, StepSettings
from .games import Game, get_game
from .reset import FIRE, reset_pool
from .roms import load_rom
from .spaces import UniformBox

# "pixels": frames as grayscale, img_height, img_width and maxpool say; "ram": the 128 RAM bytes.
OBS_TYPES = ("pixels", "ram")
# What reset() and step() return: torch tensors on the env's device, or numpy arrays on the host.
OUTPUTS = ("torch", "numpy")
CUDA_STEPS = ("split", "in-passes", "one-kernel")
# The fastest on a GPU: Pong at v5 settings on an H100, 65,536 envs, 2026-11-26: 1.99M raw frames/s,
# the split step 0.60M, one kernel 0.28M (benchmarks/results/fps-pong-2026-11-26-h100.json).
DEFAULT_CUDA_STEP = "in-passes"
RENDER_MODES = ("rgb_array", None)   # render() gives every env's RGB frame either way


def _default_device() -> torch.device:
    from .backends import cuda
    return torch.device("cuda" if cuda.available() else "cpu")


def make_console(game: Game, rom: bytes) -> tuple["_core.Console", "_core.GameSpec"]:
    """A powered-on console for `game`, as ale-py's loadROM builds it (before its reset)."""
    spec = _core.GameSpec(rom=rom, game=game.index)
    console = _core.Console(spec)
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


CONVENTIONS = ("AtariVectorEnv", "EnvPool")


def _continuous_actions() -> np.ndarray:
    """ALE's id of each joystick position a continuous action gives, indexed (x + 1) * 6 +
    (y + 1) * 2 + fire, x and y in -1, 0, 1 (left or down, centre, right or up), as ale-py's
    map_action_idx."""
    names = _core.ACTION_NAMES
    table = np.zeros(18, dtype=np.uint8)
    for x in (-1, 0, 1):
        for y in (-1, 0, 1):
            for fire in (0, 1):
                name = ({1: "UP", -1: "DOWN", 0: ""}[y] + {1: "RIGHT", -1: "LEFT", 0: ""}[x]
                        + ("FIRE" if fire else ""))
                table[(x + 1) * 6 + (y + 1) * 2 + fire] = names.index(name or "NOOP")
    return table


CONTINUOUS_ACTIONS = _continuous_actions()


def step_inputs(ale_ids, strengths=None) -> torch.Tensor:
    """Each env's input to a step (kernels/ale/ale.h, step_input), int32 on the ids' device: ALE's
    action id in the low byte, above it how far paddles turn a frame at paddle strengths
    `strengths` (finite floats; full strength where None). As ALE: PADDLE_DELTA x |strength| in
    double precision, truncated; capped at PADDLE_DELTA_MAX, beyond every paddle's range."""
    ids = torch.as_tensor(ale_ids).to(torch.int32)
    if strengths is None:
        return ids | (_core.PADDLE_DELTA << 8)
    strengths = torch.as_tensor(strengths).to(ids.device, torch.float32)   # ALE's strength is a float
    turn = strengths.to(torch.float64).abs() * _core.PADDLE_DELTA
    return ids | turn.clamp(max=_core.PADDLE_DELTA_MAX).to(torch.int32) << 8


def _check_conventions(conventions, noop_max: int, episodic_life, autoreset_mode: AutoresetMode) -> bool:
    """Whether episodes start, end and (under episodic_life) resume after a lost life as EnvPool's."""
    if conventions not in CONVENTIONS:
        raise ValueError(f"conventions must be one of {CONVENTIONS}, got {conventions!r}")
    envpool = conventions == "EnvPool"
    if envpool and noop_max < 1:
        raise ValueError(f"conventions='EnvPool' starts episodes after 1 .. noop_max frames: noop_max must be at "
                         f"least 1, got {noop_max}")
    if envpool and episodic_life and autoreset_mode != AutoresetMode.NEXT_STEP:
        raise ValueError("conventions='EnvPool' with episodic_life resumes the game at the step after a lost life: "
                         f"autoreset_mode must be 'NextStep', got {autoreset_mode.value!r}")
    return envpool


def _check_image_size(game: Game, height, width) -> tuple[int, int]:
    """Frames shrink as OpenCV's resize with INTER_AREA shrinks them (kernels/env/resize.h);
    None: the game's own size."""
    height = game.screen_height if height is None else _check_positive_int("img_height", height)
    width = SCREEN_WIDTH if width is None else _check_positive_int("img_width", width)
    if height > game.screen_height or width > SCREEN_WIDTH:
        raise ValueError(f"img_height x img_width must be at most {game.screen_height} x {SCREEN_WIDTH} for "
                         f"{game.id} (frames can only shrink), got {height} x {width}")
    return height, width


# The largest value each integer option takes, so that a slip fails at once instead of after
# minutes or gigabytes: the no-op starts are built up front (one 66 KB state per no-op frame), a
# step runs `frameskip` frames, and the step kernels count frames in 32 bits.
LIMITS = {"num_envs": 1 << 20, "frameskip": 1000, "stack_num": 64, "noop_max": 1000,
          "max_num_frames_per_episode": 2**31 - 1, "num_threads": 1024}


def _check_int(name: str, value: Any, low: int) -> int:
    """`value` as an int from `low` up to LIMITS[name] (if any), or a ValueError naming both."""
    high = LIMITS.get(name)
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low or
            (high is not None and value > high)):
        what = "a positive integer" if low == 1 else f"an integer from {low}"
        raise ValueError(f"{name} must be {what}{'' if high is None else f' up to {high:,}'}, got {value!r}")
    return int(value)


def _check_positive_int(name: str, value: Any) -> int:
    return _check_int(name, value, 1)


# A process forked from one that ran torch's CPU threads (OpenMP) cannot start them again: its
# parallel operations hang (a plain 4 MB copy does). torch's DataLoader runs its forked workers
# on one thread for this reason; a CuleEnv made or used in a forked child does the same, and says
# so. (The env's own threads survive a fork: bindings/thread_pool.h.)
_forked = False


def _after_fork_in_child() -> None:
    global _forked
    _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)


def _one_torch_thread_if_forked() -> None:
    if _forked and torch.get_num_threads() > 1:
        warnings.warn("cule: this process was forked, and torch's CPU threads cannot start again in it (its "
                      "parallel operations would hang): torch.set_num_threads(1), as DataLoader's workers do. "
                      "Processes started with multiprocessing's 'spawn' or 'forkserver' keep their threads.",
                      RuntimeWarning, stacklevel=3)
        torch.set_num_threads(1)


def _whole(method):
    """A call applied wholly as Python sees it: a SIGINT (Ctrl-C) that lands inside it is held and
    handled when it ends, by the handler there was (KeyboardInterrupt by default). Otherwise an
    interrupt between a step's emulation and its frame stacks would leave envs a frame out of
    step. Only the main thread receives signals."""
    @functools.wraps(method)
    def whole(*args, **kwargs):
        previous = _signal.getsignal(signal.SIGINT)   # None: a handler not set from Python, left alone
        if previous is None or threading.current_thread() is not threading.main_thread():
            return method(*args, **kwargs)
        held = []
        _signal.signal(signal.SIGINT, lambda signum, frame: held.append(frame))
        try:
            return method(*args, **kwargs)
        finally:
            _signal.signal(signal.SIGINT, previous)
            if held and callable(previous):
                previous(signal.SIGINT, held[0])
            elif held and previous == signal.SIG_DFL:
                signal.raise_signal(signal.SIGINT)
    return whole


def _in_use_error(env, call: str) -> RuntimeError:
    return RuntimeError(f"CuleEnv.{call}() called while another thread is in a call on this env ({env.game.id}): "
                        "use each env from one thread at a time")


def _reset_needed_error(call: str) -> gymnasium.error.ResetNeeded:
    return gymnasium.error.ResetNeeded(f"call reset() before {call}()")


def _one_thread_at_a_time(method):
    """A call that another thread's call on the same env would corrupt (the engine runs without
    the GIL): refused with a RuntimeError while one is under way. Nested calls of one thread pass."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        _one_torch_thread_if_forked()
        if not self._in_call.acquire(blocking=False):
            raise _in_use_error(self, method.__name__)
        try:
            return method(self, *args, **kwargs)
        finally:
            self._in_call.release()
    return guarded


def _after_reset(method):
    """A call that needs the envs' episodes started: before the first reset() there is nothing to
    read (a gymnasium ResetNeeded error says so)."""
    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        if not self._started:
            raise _reset_needed_error(method.__name__)
        return method(self, *args, **kwargs)
    return checked


class CuleEnv(gymnasium.vector.VectorEnv):
    """A batch of `num_envs` environments of one game, as a gymnasium vector env.

    With the default arguments every environment matches an ale-py `ALEInterface` with
    frameskip 1 and repeat_action_probability 0, frame for frame (the step that ends an episode
    shows AtariVectorEnv's observation of it, unless show_end_frame). `device`: "cpu" or a CUDA
    device ("cuda", "cuda:1"); by default the GPU where there is one (and CuPy), else the CPU.
    `backend`: the engine, by default the device's own; "cuda" with device "cpu" executes the
    CUDA kernels on the host, thread by thread (slow; for testing the GPU's code without a GPU).
    The two backends give the same bytes for the same inputs. Episodes restart as ale-py's
    AtariVectorEnv restarts them: on the step after the one that ended them ("NextStep"), or
    within it ("SameStep", the last observation then in info["final_obs"]). Every returned
    tensor is fresh: the env never writes into a tensor it has handed out. Tensors live on the
    env's device; on a GPU the kernels run on torch's current stream.

    Options (the defaults are a bare ALEInterface's; cule.atari_vector_env and the
    cule/<Game>-v5 registrations give AtariVectorEnv's):
      game               a name from cule.list_games(), in any case ("pong", "MsPacman"), or an
                         ALE id ("ALE/Pong-v5")
      num_envs           environments stepped together
      device, backend    where they live and which engine steps them (above)
      frameskip          frames per step, the action repeated and the rewards summed
      repeat_action_probability  sticky actions: the chance that a frame repeats the last action
      full_action_space  all 18 actions, else the game's minimal set
      continuous         actions (radius, angle, fire) in [0, 1] x [-pi, pi] x [0, 1], (N, 3)
                         float32, as ale-py's: the joystick pushed towards the angle, each axis
                         where radius x cos (or sin) passes the threshold, fire where it does;
                         on paddles the radius is ALE's paddle strength, how far they turn
                         (the full action set)
      continuous_action_threshold  that threshold
      sound              the TIA's sound generator runs after every frame, as under ale-py's
                         sound_obs: get_sound() gives each env's samples of its last frame
      noop_max           episodes start after 0 .. noop_max - 1 NOOP frames (drawn per episode;
                         a FIRE at reset counts as one)
      grayscale, img_height, img_width  the frames: grey or RGB, shrunk as OpenCV's INTER_AREA
      stack_num          frames per observation, oldest first; an episode's stack starts as zeros
      maxpool            each observed frame the maximum of the step's last two (frameskip >= 2)
      reward_clipping    rewards clipped to -1 .. 1
      use_fire_reset     FIRE at each reset, where the action set has it
      episodic_life      a lost life ends the episode (and restarts the game, as AtariVectorEnv)
      life_loss_info     a lost life sets terminated; the game goes on
      conventions        "AtariVectorEnv" (as above), or "EnvPool", those of EnvPool's Atari env
                         (cule.envpool): episodes start after 1 .. noop_max frames, NOOPs then
                         FIRE (use_fire_reset), their stacks filled with the first frame; under
                         episodic_life a lost life does not cut the step short, and the next
                         step resumes the same game after such a start, the stack kept
                         (NextStep autoreset only); the step that ends an episode shows
                         EnvPool's frame (unless show_end_frame)
      max_num_frames_per_episode  truncation after this many frames (0: none)
      frame_cap_from_reset  that cap counts the frames the reset played too (16 games' mode
                         selection plays some: 20 on Berzerk, 134 on Name This Game), as
                         ale-py's AtariEnv counts them; AtariVectorEnv's counts the frames
                         stepped. At least one frame is stepped
      autoreset_mode     "NextStep" or "SameStep" (above)
      mode, difficulty   the game's mode and difficulty (default: its own)
      obs_type           "pixels", or "ram": the 128 RAM bytes after each step, (N, stack_num, 128)
      num_threads        the CPU backend's threads (default: one per core; never more than
                         num_envs). A child process forked from this one runs the env on one
                         thread; a thread that cannot be started raises a RuntimeError
      rom_path           a ROM file to read instead of ale-py's (it must be the game's: md5)
      output             what reset() and step() return: "torch" tensors on the env's device, or
                         "numpy" arrays on the host (as AtariVectorEnv; gymnasium's numpy vector
                         wrappers take them; on a GPU each step then copies to the host)
      render_mode        "rgb_array" (or None, as gymnasium.make_vec passes it): render() gives
                         each env's RGB frame
      cuda_step          the CUDA backend's kernels for a step, all giving the same bytes:
                         "in-passes" (the default: a state kernel, then a render kernel, both
                         with the warp schedule: a warp's lanes at the same code or opcode run
                         together, and draw the same part of their screens together), "split"
                         (the same two kernels without it; docs/architecture.md) or
                         "one-kernel"
      show_end_frame     the step that ends an episode shows the frame it ended on (as ale-py's
                         AtariEnv), instead of AtariVectorEnv's: its frameskip loop stops at
                         that frame before capturing it, so the newest frame is the step
                         before's again, max-pooled (under maxpool) with this step's
                         next-to-last frame where the episode ended on the step's last frame

    Memory: a state of 67,832 bytes per env (632 of machine, two 210 x 160 frame buffers), its
    stack of frames (28 KB at v5 settings), under maxpool with shrunk frames its pooled frame
    before shrinking, for the step that ends an episode (33,600 bytes grey, 100,800 RGB); the
    reset pool one state per no-op start.

    reset() and step() are applied wholly or not at all: Ctrl-C inside one is raised when it ends.
    """

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game: str, num_envs: int = 1, device: str | torch.device | None = None, frameskip: int = 1,
                 repeat_action_probability: float = 0.0, full_action_space: bool = True, noop_max: int = 0,
                 grayscale: bool = False, img_height: int | None = None, img_width: int | None = None,
                 stack_num: int = 1, maxpool: bool = False, reward_clipping: bool = False,
                 use_fire_reset: bool = False, episodic_life: bool = False, life_loss_info: bool = False,
                 max_num_frames_per_episode: int = 0, autoreset_mode: str | AutoresetMode = "NextStep",
                 mode: int | None = None, difficulty: int | None = None, obs_type: str = "pixels",
                 num_threads: int | None = None, rom_path: str | None = None, backend: str | None = None,
                 output: str = "torch", render_mode: str | None = "rgb_array", cuda_step: str | None = None,
                 show_end_frame: bool = False, conventions: str = "AtariVectorEnv", continuous: bool = False,
                 continuous_action_threshold: float = 0.5, sound: bool = False, frame_cap_from_reset: bool = False,
                 **unknown):
        # As given, for an env made again with some changed (cule.sb3.CuleVecEnv).
        self.options = {k: v for k, v in locals().items() if k not in ("self", "unknown", "__class__")}
        self._in_call = threading.RLock()   # _one_thread_at_a_time
        _one_torch_thread_if_forked()
        if unknown:
            valid = [n for n in inspect.signature(CuleEnv.__init__).parameters if n not in ("self", "unknown")]
            raise TypeError(f"unknown option {next(iter(unknown))!r}; CuleEnv takes {', '.join(valid)}")
        self.game = get_game(game)
        self.num_envs = _check_positive_int("num_envs", num_envs)
        self._choose_backend(device, backend, cuda_step)
        self.frameskip = _check_positive_int("frameskip", frameskip)
        if not 0.0 <= float(repeat_action_probability) <= 1.0:
            raise ValueError(f"repeat_action_probability must be in [0, 1], got {repeat_action_probability!r}")
        noop_max = _check_int("noop_max", noop_max, 0)
        self.img_height, self.img_width = _check_image_size(self.game, img_height, img_width)
        self.stack_num = _check_positive_int("stack_num", stack_num)
        max_num_frames_per_episode = _check_int("max_num_frames_per_episode", max_num_frames_per_episode, 0)
        self.grayscale = bool(grayscale)
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {OBS_TYPES}, got {obs_type!r}")
        self.obs_type = obs_type
        self.reward_clipping = bool(reward_clipping)
        # As AtariVectorEnv: the last two frames of a step, so never with frameskip 1, nor on an
        # episode's first frame.
        self.maxpool = bool(maxpool) and self.frameskip >= 2
        self.autoreset_mode = _check_autoreset_mode(autoreset_mode)
        # render_fps: real time, a console's 60 (PAL: 50) frames a second over the frameskip.
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode,
                         "render_fps": (50 if self.game.pal else 60) / self.frameskip}
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")
        self.render_mode = render_mode
        if output not in OUTPUTS:
            raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
        self.output = output
        self.mode = self.game.default_mode if mode is None else mode
        self.difficulty = self.game.default_difficulty if difficulty is None else difficulty
        # One per core by default; never more than the envs, which a thread takes one at a time.
        threads = min(self.num_envs, (os.cpu_count() or 1) if num_threads is None else
                      _check_positive_int("num_threads", num_threads))

        self.continuous = bool(continuous)
        self.continuous_action_threshold = float(continuous_action_threshold)
        self.sound = bool(sound)
        self._make_spaces(full_action_space or self.continuous)
        envpool = _check_conventions(conventions, noop_max, episodic_life, self.autoreset_mode)
        fire = bool(use_fire_reset) and FIRE in self.action_set
        pool = self._make_reset_pool(rom_path, fire, noop_max, envpool)
        if frame_cap_from_reset and max_num_frames_per_episode:
            at = _core.layout()["episode_frame_number"]
            reset_frames = int(pool[0, at:at + 4].view(np.int32)[0])
            max_num_frames_per_episode = max(max_num_frames_per_episode - reset_frames, 1)
        settings = StepSettings(self.num_envs, self.frameskip, float(repeat_action_probability),
                                max_num_frames_per_episode, self.game.legal_actions, bool(episodic_life),
                                bool(life_loss_info), noop_max if envpool and episodic_life else 0, fire,
                                self.sound)
        observations = ObservationSettings(obs_type == "ram", self.grayscale, self.img_height, self.img_width,
                                           self.stack_num, self.maxpool, bool(show_end_frame), envpool)
        self._backend = self._make_backend(pool, settings, observations, threads)
        self._action_table_on_device = torch.from_numpy(self._action_table).to(self.device)
        self._continuous_table = torch.from_numpy(CONTINUOUS_ACTIONS.astype(np.int32)).to(self.device)
        # Where the host does not wait for the kernels (the CUDA backend), actions handed over as a
        # tensor on the env's device are range-checked there: a failed check sets `_action_error`
        # (no env steps while it is set) and is raised at a later step, once its result has reached
        # the host (_pending_checks: host copies behind events).
        self._check_actions_on_device = self._backend.asynchronous
        self._action_error = torch.zeros(1, dtype=torch.uint8, device=self.device)
        self._pending_checks: list[tuple[torch.Tensor, Any]] = []
        self._started = False   # by the first reset()
        # A cule.profiling.PhaseTimer, or None: step() then times "emulation" and "rendering".
        self.phase_timer = None

    def _choose_backend(self, device, backend: str | None, cuda_step: str | None) -> None:
        """self.device, self.backend and, on the CUDA backend, self.cuda_step: its kernels."""
        self.device = _default_device() if device is None else _check_device(device)
        self.backend = _check_backend(backend, self.device)
        if cuda_step is not None and cuda_step not in CUDA_STEPS:
            raise ValueError(f"cuda_step must be one of {CUDA_STEPS}, got {cuda_step!r}")
        if cuda_step is not None and self.backend != "cuda":
            raise ValueError(f"cuda_step {cuda_step!r} chooses the CUDA backend's kernels; this env's backend is "
                             f"{self.backend!r} (pass backend='cuda' to run them on the host)")
        self.cuda_step = (cuda_step or DEFAULT_CUDA_STEP) if self.backend == "cuda" else None

    def _make_spaces(self, full_action_space: bool) -> None:
        """The action set and the single and batched spaces, from the checked options."""
        self.action_set = tuple(range(18)) if full_action_space else self.game.minimal_actions
        # Action index -> the step's input at full paddle strength.
        self._action_table = step_inputs(np.asarray(self.action_set)).numpy()
        self._action_words = self._action_table.tolist()   # as Python ints, for _step_one
        frame_shape = (self.img_height, self.img_width) + (() if self.grayscale else (3,))
        if self.obs_type == "ram":
            frame_shape = (RAM_BYTES,)
        self.single_observation_space = UniformBox(0, 255, (self.stack_num, *frame_shape), np.uint8)
        self.single_action_space = (Box(np.array([0.0, -np.pi, 0.0], np.float32),
                                        np.array([1.0, np.pi, 1.0], np.float32), dtype=np.float32)
                                    if self.continuous else Discrete(len(self.action_set)))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # One env's reward: int32, as AtariVectorEnv's. TorchRL's GymWrapper reads it (its spec is
        # otherwise float32, which int32 rewards fail).
        bound = 1 if self.reward_clipping else np.iinfo(np.int32).max
        self.reward_space = UniformBox(-bound, bound, (), np.int32)

    def _make_reset_pool(self, rom_path: str | None, fire: bool, noop_max: int, envpool: bool) -> np.ndarray:
        """The states episodes start from (cule.reset), made once from the ROM; sets self._spec."""
        console, self._spec = make_console(self.game, load_rom(self.game, rom_path))
        pool = reset_pool(console, self.game, self.mode, self.difficulty, fire, noop_max, envpool)
        self._post_reset_state = pool[0]
        self._reset_sound = console.reset_sound()   # what the last reset did to the sound (cule.atari_env)
        return pool

    def _make_backend(self, pool: np.ndarray, settings: StepSettings, observations: ObservationSettings,
                      threads: int):
        """The engine of self.backend on self.device, its envs starting from `pool`."""
        if self.backend == "cpu":
            return CpuBackend(self.game, self._spec, pool, settings, observations, threads)
        from .backends.cuda import CudaBackend, GpuKernels, HostKernels
        kernels = GpuKernels(self.device, self.game.index) if self.device.type == "cuda" else HostKernels(threads)
        backend = CudaBackend(self.game, self._spec, pool, settings, observations, kernels)
        backend.split_render = self.cuda_step != "one-kernel"
        backend.warp_schedule = self.cuda_step == "in-passes"
        return backend

    # ---- API ---------------------------------------------------------------------------------

    @_one_thread_at_a_time
    @_whole
    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict | None = None):
        """Starts new episodes in every environment, or in those of options["reset_mask"] (a bool
        array or tensor of shape (num_envs,)); the others keep their episode and observation.
        `seed`: one int for all the reset environments, or one per reset environment; the first
        reset without a seed draws one from the OS. As in ale-py, a seed gives a fresh console
        (frame numbers restart); without one the episode restarts on the same console."""
        self._raise_failed_action_checks()
        mask = self._reset_mask(options)
        if not self._started and not mask.all():
            raise RuntimeError("the first reset() must reset every environment (no reset_mask)")
        fresh = seed is not None or not self._started
        on_device = torch.from_numpy(mask).to(self.device)
        if fresh:
            self._backend.seed(self._seed_keys(seed, mask), on_device)
        self._backend.reset(on_device, not fresh)
        observation = self._backend.restart_stacks(on_device)
        self._started = True
        return self._output(observation, self._info())

    @_one_thread_at_a_time
    @_after_reset
    @_whole
    def step(self, actions):
        """Steps every environment with `actions` (num_envs action indices, or under continuous
        (num_envs, 3) floats: a tensor on any device, an array or a list). On a GPU nothing waits
        for the device (under SameStep, info["final_obs"] is therefore in every step's info, where
        the CPU gives it only when an episode ended). Actions given as a tensor on the GPU are
        checked there: a step with one out of range (or not finite) runs no env, and a later
        step() raises the ValueError (reset() then)."""
        self._raise_failed_action_checks()
        return self._step(self._continuous_inputs(actions) if self.continuous else self._action_inputs(actions))

    @_one_thread_at_a_time
    @_after_reset
    @_whole
    def _step_inputs(self, inputs: torch.Tensor):
        """step() of checked inputs (step_inputs, on the env's device): ALEInterface.act's."""
        return self._step(inputs)

    def _step_one(self, action: int) -> tuple:
        """step() of a one-env CuleEnv where `_steps_one` holds (CuleAtariEnv's): action index
        `action`, checked by the caller; the engine's step and observation in one call (so no
        signal lands between them), no tensors made: (observation stack, reward, terminated,
        truncated, lives, frame_number, episode_frame_number), numpy and Python values. The
        checks of _one_thread_at_a_time and _after_reset written out, a frame's call apiece for
        AtariPreprocessing's clients (torch's threads play no part: no tensors)."""
        if not self._in_call.acquire(blocking=False):
            raise _in_use_error(self, "step")
        try:
            if not self._started:
                raise _reset_needed_error("step")
            return self._backend.step_one(self._action_words[action])
        finally:
            self._in_call.release()

    @property
    def _steps_one(self) -> bool:
        """Whether _step_one gives what step() would: one env, the CPU backend, discrete actions,
        NextStep, rewards unclipped, no phase timer."""
        return (self.num_envs == 1 and self.backend == "cpu" and not self.continuous and not self.reward_clipping
                and self.autoreset_mode == AutoresetMode.NEXT_STEP and self.phase_timer is None)

    def _step(self, inputs: torch.Tensor):
        if self.phase_timer is None:
            rewards, terminated, truncated, observation = self._backend.step_and_stack(inputs, self._action_error)
        else:   # timed apart
            with self._phase("emulation"):
                rewards, terminated, truncated = self._backend.step(inputs, self._action_error)
            with self._phase("rendering"):
                observation = self._backend.advance_stacks()
        if self.reward_clipping:
            rewards.clamp_(-1, 1)   # a fresh tensor: ours to change
        info = self._info()
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            over = self._backend.pending_resets()
            # The CUDA backend does not wait to learn whether an episode ended: it always resets
            # the ended ones (a masked kernel) and always gives final_obs.
            if self._backend.asynchronous or over.any():
                info["final_obs"] = observation
                self._backend.reset(over, True)
                observation = self._backend.restart_stacks(over)
                info.update(self._info())
        return self._output(observation, rewards, terminated, truncated, info)

    @_one_thread_at_a_time
    @_after_reset
    def render(self, env_ids: Sequence[int] | None = None) -> tuple[np.ndarray, ...]:
        """The current RGB frames of `env_ids` (default: all), each (height, 160, 3) on the host,
        as a tuple (gymnasium's VectorEnv.render; np.stack makes them one array); height is the
        game's (game.screen_height: 210 for most, 250 on PAL consoles)."""
        frames = self._frames(grey=False)
        if env_ids is not None:
            frames = frames[torch.from_numpy(self._env_ids(env_ids)).to(self.device)]
        return tuple(frames.cpu().numpy())

    @_one_thread_at_a_time
    @_after_reset
    def _frames(self, grey: bool, out: np.ndarray | None = None) -> torch.Tensor | np.ndarray:
        """The current frames, (N, height, 160, 3) RGB or (N, height, 160) grey, on the env's
        device; on the CPU backend, into `out` where given (C-contiguous uint8 of that shape),
        which it then gives."""
        if out is not None:
            return self._backend.observe_into(out, grey)
        no_pool = torch.zeros(self.num_envs, dtype=torch.bool, device=self.device)
        return self._backend.observe(grey, no_pool, self.game.screen_height, SCREEN_WIDTH)

    @_one_thread_at_a_time
    @_after_reset
    def get_ram(self) -> torch.Tensor:
        """The 128 RAM bytes of every environment, (N, 128) uint8."""
        return self._backend.ram()

    @functools.cached_property
    def ale(self):
        """AtariVectorEnv's `env.ale`: its vector ALE interface (cule.vector_ale.VectorALE)."""
        from .vector_ale import VectorALE
        return VectorALE(self)

    @_one_thread_at_a_time
    @_after_reset
    def episode_state(self) -> dict[str, torch.Tensor]:
        """Where each env's episode stands, on the env's device: "game_over" (bool: ALE's
        game_over, which a lost life under episodic_life is not) and "episode_steps" (int32: the
        frames max_num_frames_per_episode counts)."""
        return self._backend.episode_state()

    @_one_thread_at_a_time
    @_after_reset
    def get_sound(self) -> torch.Tensor:
        """Each env's sound of the last frame of its last step, (N, 512) uint8, 512 samples at
        31,400 Hz, 128 silent (ale-py's sound observation; kernels/atari/tia_sound.h). Needs an env
        made with sound=True. A new episode starts the generator afresh, a reset pool's copy."""
        if not self.sound:
            raise RuntimeError("get_sound() needs the sound generator: make the env with sound=True")
        return torch.from_numpy(_core.sound_samples(self.get_states().cpu().numpy())).to(self.device)

    @_one_thread_at_a_time
    @_after_reset
    def get_screens(self) -> torch.Tensor:
        """The current frames as ALE palette indices, (N, height, 160) uint8 (ALE's getScreen)."""
        return self._backend.screens()

    @_one_thread_at_a_time
    @_after_reset
    def get_states(self) -> torch.Tensor:
        """Every environment's whole state (machine and frame buffers), (N, state_size) uint8 on
        the env's device: restore any of them with set_states, here or in another env of the
        same game and backend build. The env's random stream (sticky actions, no-op starts) is not
        part of it: a restored env goes on drawing from its own, as after ale-py's cloneState()."""
        return self._backend.get_states()

    @_one_thread_at_a_time
    @_after_reset
    def set_ram(self, ram, env_ids: Sequence[int] | None = None) -> None:
        """Writes the 128 RAM bytes of `env_ids` (default: all), as ale-py's setRAM does byte by
        byte: `ram` is uint8, shape (len(env_ids), 128), a tensor or an array."""
        ids = self._env_ids(env_ids)
        self._backend.set_ram(self._bytes_arg("ram", ram, (len(ids), RAM_BYTES)), ids)

    @_one_thread_at_a_time
    @_after_reset
    def set_states(self, states, env_ids: Sequence[int] | None = None) -> None:
        """Restores states from get_states into `env_ids` (default: all): uint8, shape
        (len(env_ids), state_size), a tensor (any device) or an array. A state of another game or
        cule version, or with a field out of the range play gives it, is refused (ValueError) and
        no env changes."""
        ids = self._env_ids(env_ids)
        self._backend.set_states(self._bytes_arg("states", states, (len(ids), self._spec.state_bytes)), ids)

    @_one_thread_at_a_time
    def states_from_ale(self, ale_states: Sequence) -> torch.Tensor:
        """States saved by ale-py 0.12.1 (`ALEInterface.cloneState()`: ALEState objects or their
        serialize() bytes, of this game) as cule states (K, state_size) on the env's device, for
        set_states (into chosen envs) or set_reset_states (episodes start there). The machine is
        ALE's; what ALE does not save starts as after a reset: the screen is black until the
        next frame, the sticky actions are NOOP."""
        from .ale_state import parse_ale_state
        rows = []
        for k, state in enumerate(ale_states):
            raw = state.serialize() if hasattr(state, "serialize") else state
            if not isinstance(raw, (bytes, bytearray, memoryview)):
                raise TypeError(f"ale_states[{k}] must be an ale_py.ALEState or its serialize() bytes, "
                                f"got {type(state).__name__}")
            fields = parse_ale_state(bytes(raw), self.game, self._spec.rom)
            row = _core.state_from_ale(self._post_reset_state, self.game.index, fields)
            _core.check_states(self._spec, row[None], f"ale_states[{k}]")
            rows.append(row)
        if not rows:
            raise ValueError("states_from_ale needs at least one state")
        return torch.from_numpy(np.stack(rows)).to(self.device)

    @_one_thread_at_a_time
    def set_reset_states(self, states) -> None:
        """Replaces the reset pool: episodes that start from now on start from one of `states`
        (uint8, shape (K, state_size), e.g. rows of get_states()), picked by each env's RNG. The
        frame cap counts from there; frame numbers go on counting."""
        states = self._bytes_arg("states", states, (len(states), self._spec.state_bytes))
        if len(states) == 0:
            raise ValueError("the reset pool needs at least one state")
        self._backend.set_pool(states)

    @_one_thread_at_a_time
    def close_extras(self, **kwargs) -> None:
        self._engine = None

    def __reduce_ex__(self, protocol):
        raise TypeError(f"a CuleEnv cannot be pickled or copied: its envs live in its engine. Save "
                        f"get_states() (and the options) instead, and restore them with set_states() in a new "
                        f"CuleEnv of {self.game.id} with the same options")

    @property
    def _backend(self):
        """The engine; every call on a closed env fails here."""
        if getattr(self, "_engine", None) is None:
            raise gymnasium.error.ClosedEnvironmentError(f"this CuleEnv ({self.game.id}) is closed: make a new one")
        return self._engine

    @_backend.setter
    def _backend(self, engine) -> None:
        self._engine = engine

    # ---- helpers -----------------------------------------------------------------------------

    def _seed_keys(self, seed, mask: np.ndarray) -> np.ndarray:
        """One RNG key per environment (only those of `mask` are used)."""
        if seed is None:
            return np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64)
        if isinstance(seed, torch.Tensor):
            seed = seed.tolist()

        def valid(s) -> bool:
            return isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0
        if valid(seed):
            return np.random.SeedSequence(int(seed)).generate_state(self.num_envs, dtype=np.uint64)
        seeds = list(seed) if isinstance(seed, (list, tuple, np.ndarray)) else None
        if seeds is None or not all(valid(s) for s in seeds):
            raise ValueError(f"seed must be a non-negative int or a sequence of them, one per reset "
                             f"environment, got {seed!r}")
        if len(seeds) != int(mask.sum()):
            raise ValueError(f"seed must be an int or have one entry per sub-environment reset ({int(mask.sum())}), "
                             f"got {len(seeds)}")
        keys = np.zeros(self.num_envs, dtype=np.uint64)
        keys[mask] = [np.random.SeedSequence(int(s)).generate_state(1, dtype=np.uint64)[0]
                                 for s in seeds]
        return keys

    def _env_ids(self, env_ids) -> np.ndarray:
        if env_ids is None:
            return np.arange(self.num_envs)
        ids = np.asarray(env_ids).reshape(-1)
        if ids.dtype == bool or (ids.size and ids.dtype.kind not in "iu"):
            raise ValueError(f"env_ids must be integer ids, got dtype {ids.dtype}"
                             + (" (for a mask, pass np.flatnonzero(mask))" if ids.dtype == bool else ""))
        ids = ids.astype(np.int64)
        bad = (ids < 0) | (ids >= self.num_envs)
        if bad.any():
            raise ValueError(f"env id {ids[bad][0]} is out of range: ids are 0..{self.num_envs - 1}")
        return ids

    @staticmethod
    def _bytes_arg(name: str, value, shape: tuple[int, int]) -> torch.Tensor:
        """`value` (tensor or array) checked to be uint8 of `shape`, as a tensor."""
        if not isinstance(value, torch.Tensor):
            value = np.asarray(value)
            value = value if value.flags.writeable else value.copy()   # torch takes no read-only arrays
        t = value.detach() if isinstance(value, torch.Tensor) else torch.from_numpy(value)
        if t.dtype != torch.uint8 or tuple(t.shape) != shape:
            raise ValueError(f"{name} must be uint8 of shape {shape}, got {str(t.dtype).removeprefix('torch.')} "
                             f"{tuple(t.shape)}")
        return t.contiguous()

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
            # The error types and words of AtariVectorEnv's checks.
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
                raise TypeError(f"reset_mask must be a boolean numpy array or tensor of shape ({self.num_envs},), "
                                f"got {type(mask).__name__} {getattr(mask, 'dtype', '')}")
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {mask.shape}")
        return mask

    def _action_inputs(self, actions) -> torch.Tensor:
        """The step's inputs (step_inputs, on the env's device) for `actions`, action indices checked for
        shape, type and range (the range on the device, later, for tensors already there: see step)."""
        indices = self._action_indices(actions)
        if isinstance(indices, np.ndarray):
            # On the host, with numpy: a few microseconds a step where torch's operations took tens.
            return torch.from_numpy(self._action_table[indices]).to(self.device)
        return self._action_table_on_device[indices]

    def _action_indices(self, actions) -> np.ndarray | torch.Tensor:
        """`actions` checked as indices into the action set: a numpy array, or a tensor on the env's
        device whose range is checked there, later (its bad indices clamped meanwhile)."""
        if isinstance(actions, torch.Tensor):
            a = actions.detach()
            if a.dtype.is_floating_point or a.dtype.is_complex or a.dtype == torch.bool:
                raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        else:
            a = np.asarray(actions)
            if a.dtype.kind not in "iu" or a.dtype == np.uint64:
                raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        if tuple(a.shape) != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {tuple(a.shape)}")
        n = len(self.action_set)
        if not (isinstance(a, torch.Tensor) and a.device == self.device and self._check_actions_on_device):
            host = a.cpu().numpy() if isinstance(a, torch.Tensor) else a
            if host.min() < 0 or host.max() >= n:
                raise ValueError(self._action_range_message(host[(host < 0) | (host >= n)][0].item()))
            return host
        a = a.to(torch.int64)
        self._check_later((a < 0) | (a >= n), a, self._action_range_message)
        return a.clamp(0, n - 1)

    def _check_later(self, bad: torch.Tensor, values: torch.Tensor, message) -> None:
        """A check of the inputs on the device, `bad` for each env: the sticky error flag set where
        one is (the step kernel skips while it is), and the flag and the first bad env's value in
        `values` copied to the host behind an event, raised as message(value) by a later call."""
        self._action_error |= bad.any()
        # gather, not a[i]: a 0-d tensor as an index is read on the host (the GPU's sync).
        first_bad = values.gather(0, bad.to(torch.int32).argmax().reshape(1))
        result = torch.cat([self._action_error.to(torch.int64), first_bad])
        host = torch.empty(2, dtype=torch.int64, pin_memory=self.device.type == "cuda")
        host.copy_(result, non_blocking=True)
        event = None
        if self.device.type == "cuda":
            event = torch.cuda.Event()
            event.record(torch.cuda.current_stream(self.device))
        self._pending_checks.append((host, event, message))

    def _continuous_inputs(self, actions) -> torch.Tensor:
        """The step's inputs (step_inputs) for continuous `actions`: the joystick as ale-py's
        AtariVectorEnv maps it, the radius as the paddle strength; non-finite values refused (on
        the device, later, for tensors already there: see step)."""
        if isinstance(actions, torch.Tensor):
            a = actions.detach()
            if not a.dtype.is_floating_point:
                raise ValueError(f"continuous actions must be floats, got dtype {a.dtype}")
        else:
            a = np.asarray(actions)
            if a.dtype.kind != "f":
                raise ValueError(f"continuous actions must be floats, got dtype {a.dtype}")
            a = torch.from_numpy(a)
        if tuple(a.shape) != (self.num_envs, 3):
            raise ValueError(f"continuous actions must have shape ({self.num_envs}, 3): (radius, angle, fire) "
                             f"for each env, got {tuple(a.shape)}")
        a = a.to(torch.float32)   # ALE's paddle strength is a float
        bad = ~torch.isfinite(a).all(1)
        if not (a.device == self.device and self._check_actions_on_device):
            if bad.any():
                i = int(bad.to(torch.int32).argmax())
                raise ValueError(f"continuous actions must be finite, got {a[i].tolist()} for env {i}")
        else:
            self._check_later(bad, torch.arange(self.num_envs, device=a.device),
                              lambda i: f"env {i}'s continuous action is not finite")
        a = a.to(self.device)
        radius, t = a[:, 0], self.continuous_action_threshold
        x, y = radius * torch.cos(a[:, 1]), radius * torch.sin(a[:, 1])
        lcr = (x > t).to(torch.int64) - (x < -t).to(torch.int64)
        dcu = (y > t).to(torch.int64) - (y < -t).to(torch.int64)
        fire = (a[:, 2] > t).to(torch.int64)
        return step_inputs(self._continuous_table[(lcr + 1) * 6 + (dcu + 1) * 2 + fire], radius)

    def _raise_failed_action_checks(self) -> None:
        """Raises for the first failed range check whose result has reached the host."""
        while self._pending_checks:
            host, event, message = self._pending_checks[0]
            if event is not None and not event.query():
                return   # not there yet: the next step looks again
            self._pending_checks.pop(0)
            failed, value = host.tolist()
            if failed:
                self._pending_checks.clear()
                self._action_error.zero_()
                raise ValueError(message(value) + "; that step and any after it ran no "
                                 "environment: reset() them")

    def _action_range_message(self, value: int) -> str:
        n = len(self.action_set)
        return (f"action {value} is out of range: actions are 0..{n - 1} "
                f"({'full' if n == 18 else 'minimal'} action set of {self.game.id})")

    def _phase(self, name: str):
        return self.phase_timer(name) if self.phase_timer is not None else contextlib.nullcontext()

    def _output(self, *values):
        """`values` (tensors, and a dict of them last) as `output` asks."""
        if self.output == "torch":
            return values

        def host(t):
            return t.cpu().numpy() if isinstance(t, torch.Tensor) else t
        return (*map(host, values[:-1]), {k: host(v) for k, v in values[-1].items()})

    def _info(self) -> dict:
        info = self._backend.info()
        info["env_id"] = torch.arange(self.num_envs, dtype=torch.int32, device=self.device)   # as AtariVectorEnv
        return info


BACKENDS = ("cpu", "cuda")


def _check_backend(backend: str | None, device: torch.device) -> str:
    """The engine: "cpu" (the CPU backend, device "cpu" only) or "cuda" (the CUDA kernels: on a
    GPU, or with device "cpu" executed on the host thread by thread, to test them without one);
    by default the device's own."""
    if backend is None:
        return device.type
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend == "cpu" and device.type != "cpu":
        raise ValueError(f"backend 'cpu' runs on device 'cpu' only, got device {str(device)!r}")
    return backend


def _check_device(device) -> torch.device:
    try:
        d = torch.device(device)
    except (RuntimeError, TypeError) as e:
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', got {device!r}") from e
    if d.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', got {device!r}")
    if d.type == "cuda":
        from .backends.cuda import resolve_device
        d = resolve_device(d)
    return d
