"""The CUDA backend: the kernels/ emulator's CUDA entry points (kernels/cuda/kernels.cu), one
thread per environment, state and outputs in torch tensors on the backend's device.

The kernels come from one of two launchers, and everything else is the same Python code:
- `GpuKernels`: compiled at first use by NVRTC through CuPy and run on torch's current stream of a
  GPU, so a PyTorch loop needs no synchronisation and no host copies. CuPy caches the compiled
  module on disk (~/.cupy); the sources' digest is part of its key, so an edited header is never
  served stale. CULE_NVRTC_OPTIONS (environment) adds compiler options, for tuning experiments.
- `HostKernels`: the same file compiled by g++ in NVRTC's environment (cule._cuda_host, device
  paths taken) and executed on the host, every thread of the grid in turn, blocks on the CPU
  backend's kind of threads: the CUDA backend, tested on machines without a GPU (`CuleEnv(...,
  device="cpu", backend="cuda")`). CULE_CUDA_HOST_LIB (environment) names another build of that module, such
  as the sanitizer build of `make test-sanitize` (cule/__init__.py loads it).
"""
from __future__ import annotations

import functools
import hashlib
import os
import re

import numpy as np
import torch

from .. import _core
from .. import nvrtc
from ..nvrtc import CUDA_ENTRY, KERNELS
from ..games import Game
from . import RAM_BYTES, SCREEN_WIDTH, ObservationSettings, StepSettings

STEP_BLOCK = _core.STEP_BLOCK_LANES   # threads per block of the state kernels (one per environment), whole warps
OBSERVE_BLOCK = 256    # threads per block of the observation kernel (one per byte)
RENDER_BLOCK = 64      # threads per block of the render kernel (one per environment and shown frame)
TIA_LOG_FRAMES = _core.TIA_LOG_FRAMES     # frames a step shows, each replayed by a thread
TIA_LOG_EVENTS = _core.TIA_LOG_EVENTS     # a log's events at most
WARP_LANES = _core.WARP_LANES             # threads of a GPU warp: the warp schedule keeps RAM in a tile per warp
PLAN_WORDS = _core.PLAN_WORDS             # a warp's plan: passes or slots (console.h, WarpPlan)
# The integer parameter types of the entry points, as numpy scalars of their width (CuPy passes a
# scalar's own bytes), and the tensors each pointer type takes where it points at plain values.
_SCALARS = {"i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64, "u8": np.uint8}
_POINTEES = {"i32": (torch.int32,), "u32": (torch.int32,), "TiaEvent": (torch.int32,), "u8": (torch.uint8, torch.bool),
             "u64": (torch.int64, torch.uint64)}


def kernel_parameters(source: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each entry point of `source` (kernels/cuda/kernels.cu), launch bounds or none: its parameters
    in order, (name, type) with the type's pointer star and without const, the file's macros of
    parameters expanded."""
    macros = {m[1]: m[2].replace("\\\n", " ") for m in re.finditer(r"^#define (\w+)((?:.*\\\n)*.*)$", source, re.M)}
    kernels = {}
    entry = r'^extern "C" __global__ void (?:__launch_bounds__\([^)]*\)\s*)?(\w+)\(([^)]*)\)'
    for name, params in re.findall(entry, source, re.M):
        words = " ".join(macros.get(w, w) for w in re.split(r"(\w+)", params))
        parsed = []
        for param in filter(None, (p.strip() for p in words.split(","))):
            *kind, pname = param.replace("*", " * ").split()
            parsed.append((pname, "".join(k for k in kind if k != "const")))
        kernels[name] = tuple(parsed)
    return kernels


# The entry points and their parameters, as kernels/cuda/kernels.cu declares them: the one
# declaration from which launches are packed (the host module lists the same names, tests/test_cuda.py).
KERNEL_PARAMETERS = kernel_parameters((KERNELS / CUDA_ENTRY).read_text())
KERNEL_NAMES = tuple(KERNEL_PARAMETERS)


def pack_args(kernel: str, args: dict) -> tuple:
    """A launch's arguments, given by parameter name, in the kernel's order as CuPy takes them:
    tensors as their data pointers (numpy uint64), integers as numpy scalars of the parameter's
    type. Refuses a parameter missing or unknown, a tensor of another element type, a value out of
    the type's range."""
    params = KERNEL_PARAMETERS[kernel]
    names = [p for p, _ in params]
    if set(args) != set(names):
        raise TypeError(f"{kernel} takes {names}: missing {[p for p in names if p not in args]}, "
                        f"unknown {sorted(set(args) - set(names))}")
    packed = []
    for name, kind in params:
        value = args[name]
        if kind.endswith("*"):
            allowed = _POINTEES.get(kind[:-1])
            if not isinstance(value, torch.Tensor) or (allowed and value.dtype not in allowed):
                raise TypeError(f"{kernel}: {name} ({kind}) takes a tensor{f' of {allowed}' if allowed else ''}, "
                                f"got {getattr(value, 'dtype', type(value).__name__)}")
            packed.append(np.uint64(value.data_ptr()))
        else:
            packed.append(_SCALARS[kind](value))
    return tuple(packed)


def _import_cupy():
    try:
        import cupy
    except ImportError as e:
        raise RuntimeError("device='cuda' needs CuPy: pip install 'cule[cuda12]' (CUDA 12) or 'cule[cuda13]' "
                           "(CUDA 13)") from e
    return cupy


def available() -> bool:
    """Whether a CUDA env can run here: torch sees a GPU and CuPy is installed."""
    if not torch.cuda.is_available():
        return False
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False
    return True


def source_digest() -> str:
    """A digest of every kernels/ source the CUDA entry points include."""
    h = hashlib.sha256()
    for f in sorted(KERNELS.glob("**/*.h")) + [KERNELS / CUDA_ENTRY]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


# Compile one module per game, with the game's rules folded in (faster); False: one module for
# all games, the game chosen at run time (one compile, as the all-games tests want).
SPECIALISE = True


@functools.lru_cache(maxsize=None)
def _nvrtc_module(game_index: int | None, device_index: int) -> dict:
    """The entry points of kernels/cuda/kernels.cu on one device, for one game or (None) all."""
    cupy = _import_cupy()
    options = (f"-I{KERNELS}", *nvrtc.OPTIONS, f"-DCULE_SOURCE_DIGEST=0x{source_digest()}")
    if game_index is not None:
        options += (f"-DCULE_GAME={game_index}",)
    options += tuple(os.environ.get("CULE_NVRTC_OPTIONS", "").split())   # tuning, e.g. --maxrregcount=96
    with cupy.cuda.Device(device_index):
        module = cupy.RawModule(code=(KERNELS / CUDA_ENTRY).read_text(), options=options)
        return {name: module.get_function(name) for name in KERNEL_NAMES}


def resolve_device(device: torch.device) -> torch.device:
    """`device` with its index, checked to exist and to have what the backend needs."""
    if not torch.cuda.is_available():
        raise ValueError(f"device {str(device)!r} is not available: torch sees no CUDA GPU here "
                         "(use device='cpu')")
    index = torch.cuda.current_device() if device.index is None else device.index
    if index >= torch.cuda.device_count():
        raise ValueError(f"device {str(device)!r} does not exist: this machine has {torch.cuda.device_count()} "
                         "CUDA device(s)")
    _import_cupy()
    return torch.device("cuda", index)


class GpuKernels:
    """The entry points compiled by NVRTC for one GPU, launched on torch's current stream."""
    asynchronous = True   # the host never waits for a kernel's results

    def __init__(self, device: torch.device, game_index: int):
        self.device = resolve_device(device)
        self._cupy = _import_cupy()
        self._functions = _nvrtc_module(game_index if SPECIALISE else None, self.device.index)

    def launch(self, name: str, threads: int, block: int, args: tuple, warps: bool = False) -> None:
        """`args`: as pack_args gives them; `warps`: HostKernels' choice (a GPU's warps meet by themselves)."""
        cupy = self._cupy
        stream = torch.cuda.current_stream(self.device).cuda_stream
        with cupy.cuda.Device(self.device.index), cupy.cuda.ExternalStream(stream, self.device.index):
            self._functions[name](((threads + block - 1) // block,), (block,), args)


def _host_module():
    """cule._cuda_host (imported on first use: only the host launcher needs it)."""
    from .. import _cuda_host
    return _cuda_host


class HostKernels:
    """The entry points executed on the host, thread by thread, on `num_threads` threads: the
    GPU's code, arithmetic, indexing and launch arguments, without a GPU. The game is chosen at
    run time (as the GPU's all-games module does), not folded in."""
    device = torch.device("cpu")
    asynchronous = True   # CuleEnv takes its no-waiting path, as on a GPU (here every result is ready at once)

    def __init__(self, num_threads: int = 1):
        module = _host_module()
        missing = set(KERNEL_NAMES) - set(module.KERNEL_NAMES)
        if missing:
            raise RuntimeError(f"{module.__file__} lacks the kernels {sorted(missing)}: rebuild it")
        self._functions = {name: getattr(module, name) for name in KERNEL_NAMES}
        self.num_threads = num_threads
        # Blocks on threads of the CPU backend's kind (bindings/thread_pool.h), or this one.
        self._pool = module.ThreadPool(num_threads) if num_threads > 1 else None

    def launch(self, name: str, threads: int, block: int, args: tuple, warps: bool = False) -> None:
        """`args`: as pack_args gives them; `warps`: each warp's lanes run together as fibers that
        meet where the kernel makes them (the warp schedule), else thread after thread."""
        self._functions[name]((threads + block - 1) // block, block, args, self._pool, warps)


class CudaBackend:
    def __init__(self, game: Game, spec: _core.GameSpec, pool: np.ndarray, settings: StepSettings,
                 observations: ObservationSettings, kernels: GpuKernels | HostKernels):
        self._kernels = kernels
        self.device = kernels.device
        self.asynchronous = kernels.asynchronous
        self.num_envs = n = settings.num_envs
        self._screen_height = game.screen_height
        self._layout = self._check_layout()
        machine = self._layout["machine"]
        self._spec = spec   # what states that come in are checked against

        self.set_pool(torch.from_numpy(np.ascontiguousarray(pool)))
        self._rom = torch.tensor(list(spec.rom), dtype=torch.uint8, device=self.device)
        self._machines = torch.zeros((n, machine), dtype=torch.uint8, device=self.device)
        # Both frame buffers of each env: the game's display, screen_height x SCREEN_WIDTH each.
        self._screens = torch.zeros((n, 2 * game.screen_height * SCREEN_WIDTH), dtype=torch.uint8, device=self.device)
        self._rng = torch.zeros((n, 2), dtype=torch.int64, device=self.device)   # EnvRng: key, counter
        self._needs_reset = torch.zeros(n, dtype=torch.uint8, device=self.device)
        self._axes: dict[tuple[int, int], torch.Tensor] = {}
        s = settings   # the kernels' StepConfig, made by the core module as the CPU backend makes it
        self._config = torch.from_numpy(_core.step_config(spec, s.frameskip, s.repeat_action_probability,
                                                         s.max_episode_frames, s.legal_action_mask, s.episodic_life,
                                                         s.life_loss_info, s.resume_noop_max,
                                                         s.resume_fire, s.sound)).to(self.device)
        # The split step (docs/architecture.md): a state-update kernel that logs the TIA accesses of
        # the frames a step shows, then a render kernel that replays them (and one that runs again,
        # drawing, the rare steps a log cannot draw). Off: one kernel steps and draws.
        self.split_render = True
        # The warp schedule (kernels/atari/console.h, run_frame_in_passes): a warp's lanes run their
        # instructions in passes of the lanes at the same code, with the warp's RAM in a tile of its
        # own in shared memory for the frames (warp_ram_tile); the render kernel's lanes replay their
        # logs' accesses in the order of their clocks (tia_log.h, tia_replay_frame_by_clock). The
        # same results.
        self.warp_schedule = False
        warps = -(-n // WARP_LANES)
        self._warp_plans = torch.zeros(warps * PLAN_WORDS, dtype=torch.int32, device=self.device)
        self._jobs = torch.zeros((n, self._layout["render_job"]), dtype=torch.uint8, device=self.device)
        # The logs' events, a block a warp, its lanes' events interleaved (tia_log.h)
        self._log_events = torch.zeros(warps * WARP_LANES * TIA_LOG_EVENTS, dtype=torch.int32, device=self.device)
        self._observations = observations
        # The stacks: the last stack_num observations, oldest first, never handed out (only
        # copies of them are). Masked writes, so that the host never waits on a mask.
        self._recent = [torch.zeros((n, *observations.frame_shape), dtype=torch.uint8, device=self.device)
                        for _ in range(observations.stack_num)]
        self._pooled = torch.zeros(n, dtype=torch.bool, device=self.device)      # newest observation max-pooled
        self._restarted = torch.zeros(n, dtype=torch.bool, device=self.device)   # last step began an episode
        self._new_game = torch.zeros(n, dtype=torch.bool, device=self.device)    # ... not resuming its game
        # AtariVectorEnv's and EnvPool's frame on the step that ends an episode (observe.h): the
        # frames each env's last step ran where it ended its episode (else 0), and under
        # AtariVectorEnv's max-pooling of shrunk frames each env's frame before the step, pooled
        # before shrinking (at full size the stack holds it): cule_hold_frames keeps it for the
        # envs a split step ends, the one kernel each step.
        self._frameskip = settings.frameskip
        self._end_frames = torch.zeros(n, dtype=torch.int32, device=self.device)
        # cule_observe's sources where every env's frame comes from its buffers (FROM_FRAMES).
        self._from_frames = torch.zeros(n, dtype=torch.uint8, device=self.device)
        o = observations
        keeps_held = o.vector_env_end and o.maxpool and (o.height, o.width) != (game.screen_height, SCREEN_WIDTH)
        self._held = torch.zeros((n, game.screen_height, SCREEN_WIDTH) + (() if o.grey else (3,)), dtype=torch.uint8,
                                 device=self.device) if keeps_held else None

    # ---- the interface of cule.backends ------------------------------------------------------

    def set_pool(self, states: torch.Tensor) -> None:
        """The reset pool: K states as get_states makes them. Machines and frame buffers get
        allocations of their own: the kernels copy frame buffers 8 bytes at a time, and a slice
        (a one-state pool's counts as contiguous) would start 4 bytes off."""
        machine = self._layout["machine"]
        self._check(states, "reset states")
        states = states.to(self.device)
        self._pool_machines = torch.empty_like(states[:, :machine], memory_format=torch.contiguous_format)
        self._pool_machines.copy_(states[:, :machine])
        self._pool_screens = torch.empty_like(states[:, machine:], memory_format=torch.contiguous_format)
        self._pool_screens.copy_(states[:, machine:])

    def seed(self, keys: np.ndarray, mask: torch.Tensor) -> None:
        keys = torch.from_numpy(np.ascontiguousarray(keys, dtype=np.uint64).view(np.int64)).to(self.device)
        self._rng[:, 0] = torch.where(mask, keys, self._rng[:, 0])
        self._rng[:, 1] = torch.where(mask, 0, self._rng[:, 1])

    def reset(self, mask: torch.Tensor, same_console: bool) -> None:
        self._launch("cule_reset", self.num_envs, STEP_BLOCK, **self._envs(), mask=self._u8(mask),
                     same_console=same_console)

    def step(self, inputs: torch.Tensor, skip: torch.Tensor):
        n = self.num_envs
        rewards = torch.empty(n, dtype=torch.int32, device=self.device)
        terminated = torch.empty(n, dtype=torch.bool, device=self.device)
        truncated = torch.empty(n, dtype=torch.bool, device=self.device)
        skip = self._u8(skip)
        self._restarted = self._needs_reset.bool()
        self._new_game = self._needs_reset == _core.NEW_EPISODE
        o = self._observations
        tracks_end = (o.vector_env_end and o.maxpool) or o.envpool_end
        frames_before = self._int32_field("episode_frame_number") if tracks_end else None
        out = self._step(inputs, skip, rewards, terminated, truncated)
        if tracks_end:   # the frames each step that ended an episode ran
            stepped = self._int32_field("episode_frame_number") - frames_before
            self._end_frames = torch.where(self._needs_reset.bool(), stepped, 0)
        return out

    def _step(self, inputs, skip, rewards, terminated, truncated):
        """The step's kernels, writing the results into rewards, terminated and truncated."""
        n = self.num_envs
        state = dict(self._envs(), rom=self._rom, config=self._config, skip=skip, inputs=inputs,
                     rewards=rewards, terminated=terminated, truncated=truncated)
        if not self.split_render:
            self._launch("cule_step", n, STEP_BLOCK, **state)
            return rewards, terminated, truncated
        render = dict(jobs=self._jobs, screens=self._screens, screen_height=self._screen_height, skip=skip,
                      num_envs=n)
        if self.warp_schedule:
            self._launch("cule_step_in_passes", n, STEP_BLOCK, **state, jobs=self._jobs, log_events=self._log_events,
                         warp_plans=self._warp_plans, warps=True)
        else:
            self._launch("cule_step_logged", n, STEP_BLOCK, **state, jobs=self._jobs, log_events=self._log_events)
        if self._held is not None:   # the frames before the step, where it ended an episode, before they go
            self._launch("cule_hold_frames", n * self._screen_height, OBSERVE_BLOCK, held=self._held, jobs=self._jobs,
                         screens=self._screens, screen_height=self._screen_height, pooled=self._u8(self._pooled),
                         ended=self._needs_reset, grey=self._observations.grey, skip=skip, num_envs=n)
        if self.warp_schedule:
            self._launch("cule_render_by_clock", n * TIA_LOG_FRAMES, RENDER_BLOCK, **render, warps=True)
        else:
            self._launch("cule_render", n * TIA_LOG_FRAMES, RENDER_BLOCK, **render)
        self._launch("cule_redo", n, STEP_BLOCK, **render, machines=self._machines, rng=self._rng,
                     needs_reset=self._needs_reset, rom=self._rom, config=self._config)
        return rewards, terminated, truncated

    def step_and_stack(self, inputs: torch.Tensor, skip: torch.Tensor):
        return (*self.step(inputs, skip), self.advance_stacks())

    def advance_stacks(self) -> torch.Tensor:
        self._pooled = ~self._restarted if self._observations.maxpool else torch.zeros_like(self._restarted)
        # An env whose step ended its episode is waiting for its reset (a reset step is not).
        if self._observations.envpool_end:
            # EnvPool's step stops at a game over, capturing only the step's last two frames: ended
            # on its last frame, the frame pooled; on the next-to-last, that frame alone; earlier,
            # the newest before again.
            f = self._frameskip
            self._pooled &= ~((self._end_frames > 0) & (self._end_frames < f))
            newest = self._observe_newest((self._end_frames > 0) & (self._end_frames < f - 1), repeat_only=True)
        else:
            newest = self._observe_newest(self._needs_reset.bool() if self._observations.vector_env_end else None)
        self._recent = self._recent[1:] + [newest]
        self._clear_older(self._new_game)
        return torch.stack(self._recent, dim=1)

    def restart_stacks(self, mask: torch.Tensor) -> torch.Tensor:
        self._pooled &= ~mask
        # The newest frame may have been handed out: a new one, AtariVectorEnv's end kept.
        o = self._observations
        kept = self._needs_reset.bool() if o.vector_env_end or o.envpool_end else None
        self._recent[-1] = self._observe_newest(kept, repeat_only=True)
        self._clear_older(mask)
        return torch.stack(self._recent, dim=1)

    def observe(self, grey: bool, pooled: torch.Tensor, height: int, width: int) -> torch.Tensor:
        return self._observe(grey, pooled, height, width)

    def pending_resets(self) -> torch.Tensor:
        return self._needs_reset.bool()

    def ram(self) -> torch.Tensor:
        at = self._layout["ram"]
        return self._machines[:, at:at + RAM_BYTES].clone()

    def screens(self) -> torch.Tensor:
        front = self._machines[:, self._layout["front"]].long()
        frames = self._screens.view(self.num_envs, 2, self._screen_height, SCREEN_WIDTH)
        return frames[torch.arange(self.num_envs, device=self.device), front]

    def info(self) -> dict[str, torch.Tensor]:
        return {name: self._int32_field(name) for name in ("lives", "frame_number", "episode_frame_number")}

    def episode_state(self) -> dict[str, torch.Tensor]:
        at = self._layout["terminal"]
        return {"game_over": self._machines[:, at].bool(), "episode_steps": self._int32_field("episode_steps")}

    def get_states(self) -> torch.Tensor:
        return torch.cat([self._machines, self._screens], dim=1)

    def rngs(self) -> torch.Tensor:
        return self._rng.clone()

    def set_rngs(self, rngs: torch.Tensor, env_ids: np.ndarray) -> None:
        self._rng[torch.from_numpy(env_ids).to(self.device)] = rngs.to(self.device)

    def set_states(self, states: torch.Tensor, env_ids: np.ndarray) -> None:
        self._check(states, "states")
        ids = torch.from_numpy(env_ids).to(self.device)
        states = states.to(self.device)
        machine = self._layout["machine"]
        self._machines[ids] = states[:, :machine]
        self._screens[ids] = states[:, machine:]
        self._needs_reset[ids] = 0

    def set_ram(self, ram: torch.Tensor, env_ids: np.ndarray) -> None:
        ids = torch.from_numpy(env_ids).to(self.device)
        at = self._layout["ram"]
        self._machines[ids, at:at + RAM_BYTES] = ram.to(self.device)

    def redone(self) -> torch.Tensor:
        """The envs whose last split step its log could not draw, so that cule_redo ran it again
        drawing (bool; for tests: the redo path is rare in play)."""
        return self._jobs[:, self._layout["render_job_redo"]].bool()

    # ---- helpers -----------------------------------------------------------------------------

    def _observe_newest(self, ended: torch.Tensor | None = None, repeat_only: bool = False) -> torch.Tensor:
        """The newest observations; where `ended`, AtariVectorEnv's at an episode's end from the
        newest before (with `repeat_only`, that one again)."""
        o = self._observations
        if o.ram:
            return self.ram()
        sources = None
        if ended is not None:
            sources = ended.to(torch.uint8) * _core.END_REPEATED
            if o.maxpool and not repeat_only:
                sources = torch.where(ended & (self._end_frames == self._frameskip), _core.END_POOLED, sources)
        newest = self._observe(o.grey, self._pooled, o.height, o.width, sources, self._recent[-1], self._held)
        if self._held is not None and not self.split_render:
            # The one kernel draws over the frames before the step: each step keeps its pooled
            # frame (the split steps keep only the ended envs', between their passes).
            self._held = self._observe(o.grey, self._pooled, self._screen_height, SCREEN_WIDTH)
        return newest

    def _observe(self, grey: bool, pooled: torch.Tensor, height: int, width: int, sources: torch.Tensor | None = None,
                 previous: torch.Tensor | None = None, held: torch.Tensor | None = None) -> torch.Tensor:
        """cule_observe: every env's frame from its frame buffers, or as `sources` says (previous:
        the newest observations before; held: the pooled frames before shrinking, else previous)."""
        out = torch.empty((self.num_envs, height, width) + (() if grey else (3,)), dtype=torch.uint8,
                          device=self.device)
        if sources is None:
            sources = self._from_frames
        previous = out if previous is None else previous   # read only where sources says
        held = previous if held is None else held
        self._launch("cule_observe", out.numel(), OBSERVE_BLOCK, out=out, machines=self._machines,
                     screens=self._screens, screen_height=self._screen_height, pooled=self._u8(pooled),
                     sources=sources, previous=previous, held=held, grey=grey, height=height, width=width,
                     axes=self._area_axes(height, width), num_envs=self.num_envs)
        return out

    def _clear_older(self, envs: torch.Tensor) -> None:
        """Zeros (EnvPool's stacks: the newest frame) in the older frames of the masked envs'
        stacks, written in place: they are never handed out."""
        where = envs.view(-1, *([1] * len(self._observations.frame_shape)))
        for older in self._recent[:-1]:
            if self._observations.envpool:
                torch.where(where, self._recent[-1], older, out=older)
            else:
                older.masked_fill_(where, 0)

    def _check(self, states: torch.Tensor, what: str) -> None:
        """Refuses states that are not of this game or have a field out of range (the CPU backend's
        check, bindings/state_check.h), on a host copy: setting states waits for the GPU."""
        _core.check_states(self._spec, np.ascontiguousarray(states.cpu().numpy()), what)

    def _envs(self) -> dict:
        """The arguments of the steps and cule_reset that hold the envs and their reset pool."""
        return dict(machines=self._machines, screens=self._screens, screen_height=self._screen_height, rng=self._rng,
                    needs_reset=self._needs_reset, pool=self._pool_machines, pool_screens=self._pool_screens,
                    pool_size=len(self._pool_machines), num_envs=self.num_envs)

    def _u8(self, t: torch.Tensor) -> torch.Tensor:
        """A one-byte-per-env tensor the kernels can read (bool and uint8 share their bytes)."""
        t = t.to(self.device)
        if t.dtype == torch.bool:
            t = t.view(torch.uint8)
        return t.contiguous()

    def _int32_field(self, name: str) -> torch.Tensor:
        """A fresh copy of a field: .contiguous() would return the state itself where the slice is
        contiguous already (one env)."""
        at = self._layout[name]
        return self._machines[:, at:at + 4].clone().view(torch.int32).view(self.num_envs)

    def _area_axes(self, height: int, width: int) -> torch.Tensor:
        key = (height, width)
        if key not in self._axes:
            axes = torch.zeros(_core.AREA_AXES_BYTES, dtype=torch.uint8, device=self.device)
            self._launch("cule_area_axes", 1, 1, axes=axes, screen_height=self._screen_height, height=height,
                         width=width)
            self._axes[key] = axes
        return self._axes[key]

    def _launch(self, name: str, threads: int, block: int, warps: bool = False, **args) -> None:
        self._kernels.launch(name, threads, block, pack_args(name, args), warps=warps)

    def _check_layout(self) -> dict[str, int]:
        """States move between backends as bytes: the kernels' compiler must lay the structs out
        as the CPU backend's does."""
        host = _core.layout()
        out = torch.zeros(len(host), dtype=torch.int64, device=self.device)
        self._launch("cule_layout", 1, 1, out=out)
        kernels = dict(zip(host, out.cpu().tolist()))
        if kernels != host:
            raise RuntimeError(f"the CUDA kernels lay the machine state out differently from the CPU backend: "
                               f"{kernels} in the kernels, {host} in the CPU backend")
        return host
