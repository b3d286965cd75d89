"""Plumbing shared by the training examples (ppo.py, a2c_vtrace.py, dqn.py); each algorithm stays
whole in its own file.

Here: the arguments every script takes and their command-line parsing, torchrun set-up, the
Nature-CNN networks, the training env with the bookkeeping each script does on its steps, the
evaluation protocol, and `Run`, which logs, evaluates, decides when to stop and writes the results.
Nothing in a training loop copies observations to the host: the few host reads (log lines,
evaluations, the stop decision) happen at log and evaluation intervals only.
"""
from __future__ import annotations

import argparse
import ast
import collections
import csv
import dataclasses
import datetime
import inspect
import json
import math
import os
import platform
import signal
import sys
import textwrap
import threading
import time
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Sequence

import numpy as np
import torch
import torch.distributed
from torch import nn
from torch.distributions import Categorical

import cule
from cule.profiling import PhaseTimer

Policy = Callable[[torch.Tensor], torch.Tensor]   # uint8 observations (N, 4, 84, 84) -> N actions

# The phases a training step's time divides into (PhaseTimer's names): the env times the first
# two, the scripts the others (DQN alone has "replay"). progress.csv has each one's seconds.
PHASES = ("emulation", "rendering", "inference", "replay", "forward", "backward", "optimizer")


# ---- arguments -------------------------------------------------------------------------------

@dataclass
class RunArgs:
    """The arguments every script takes; each script's Args adds its algorithm's and sets its own
    defaults for num_envs, total_frames and the intervals, and in CPU_DEFAULTS those that differ
    where --device is a CPU."""
    game: str = "Pong"
    """the game, as cule.list_games() names it"""
    num_envs: int = 1024
    """training environments per process (per GPU under torchrun)"""
    total_frames: int = 20_000_000
    """emulator frames to train for, all processes together (4 per agent step)"""
    seed: int = 1
    """seed of the networks, the sampling and the envs; process r uses seed + r"""
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
    """where the training envs, the network and every rollout tensor live (cuda: cuda:LOCAL_RANK under torchrun)"""
    backend: str | None = None
    """the training envs' engine, cpu or cuda (default: the device's own); the defaults follow it. cuda with
    --device cpu runs the GPU's kernels on the host, slowly: a GPU configuration checked without a GPU"""
    repeat_action_probability: float = 0.25
    """sticky actions of the training envs (v5's 0.25; the CuLE paper's protocol: 0)"""
    life_loss_done: bool = True
    """a lost life ends the bootstrap (the game goes on), as DeepMind's EpisodicLife wrapper"""
    eval_every: int = 1_000_000
    """frames between evaluations (0: only the one at the end)"""
    eval_envs: int = 16
    """evaluation episodes, one per env: whole games, raw scores, up to 30 no-ops at the start (0: no evaluations)"""
    eval_repeat_action_probability: float = 0.25
    """sticky actions of the evaluation envs (v5's 0.25; the CuLE paper's protocol: 0)"""
    eval_max_frames: int = 108_000
    """frames after which an evaluation episode is cut (the v5 protocol's 108,000)"""
    eval_device: str = "cpu"
    """where the evaluation envs run (see evaluate(): the CPU is faster for a few whole episodes)"""
    target_score: float | None = None
    """stop when the mean evaluation score reaches this, recording the time and frames it took"""
    max_train_seconds: float | None = None
    """stop after this many seconds of training (evaluations not counted; under torchrun at the first log line
    past them), evaluate and write the results as at the end"""
    log_every: int = 500_000
    """frames between log lines"""
    logdir: str | None = None
    """directory of progress.csv, summary.json and TensorBoard's events (default runs/<algo>-<game>-s<seed>-<time>)"""
    bf16: bool = False
    """the trunk's convolutions and hidden layer in bfloat16 (torch.autocast; the heads, losses and
    weights stay float32): on 2 cores of one CPU 1.6x faster minibatches, on another 1.5x slower; time it
    first (benchmarks/train_step.py)"""
    compile: str | None = None
    """torch.compile the network in this mode (default, reduce-overhead: with CUDA graphs, max-autotune);
    unset: eager. The first updates then take longer (a CPU compiles for about 30 s)"""
    save_weights: str | None = None
    """at the end each process r writes its weights to PATH.rank<r>.pt (and process 0 the initial ones to PATH.initial.pt)"""
    resume: bool = False
    """go on with the run in --logdir from the checkpoint.pt it writes at log lines (weights, optimizer,
    counters, logs), with the same arguments but for those of RESUMABLE; the envs start new games"""

    # The defaults that differ on the CPU backend: the dataclass's are for the CUDA backend, which
    # runs thousands of envs for the price of a few; these fit 2 to 16 cores. A flag given on the
    # command line wins.
    CPU_DEFAULTS: ClassVar[dict[str, object]] = {"eval_envs": 8, "log_every": 100_000}
    # What a resumed run may change: when it stops, how it evaluates and logs, and where its
    # directory now is. (A longer total_frames also stretches what is left of a learning-rate
    # schedule that anneals over it.)
    RESUMABLE: ClassVar[tuple[str, ...]] = ("total_frames", "target_score", "max_train_seconds", "eval_every",
                                            "eval_envs", "eval_repeat_action_probability", "eval_max_frames",
                                            "eval_device", "log_every", "logdir", "resume")


def parse_args(cls: type, argv: Sequence[str] | None = None):
    """An instance of the dataclass `cls` from the command line: one --flag-name per field, its help
    the string under the field (CleanRL's convention), booleans as --flag / --no-flag. A field of
    cls.CPU_DEFAULTS not given takes that default where the envs run the CPU backend (--device cpu
    without --backend cuda), the field's elsewhere."""
    parser = argparse.ArgumentParser(description=sys.modules[cls.__module__].__doc__,
                                     formatter_class=_HelpFormatter)
    hints, docs = typing.get_type_hints(cls), _field_docs(cls)
    fields = {field.name: field for field in dataclasses.fields(cls)}
    for name, field in fields.items():
        kind = hints[name]
        if isinstance(kind, types.UnionType):   # `X | None`: the flag takes an X, None is the default
            kind = next(k for k in typing.get_args(kind) if k is not type(None))
        flag, default, help = "--" + name.replace("_", "-"), field.default, docs.get(name, "")
        if name in cls.CPU_DEFAULTS:   # left out of the namespace unless given
            help += f" (default: {_default_text(default)} on a GPU, {_default_text(cls.CPU_DEFAULTS[name])} on a CPU)"
            default = argparse.SUPPRESS
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help)
        else:
            parser.add_argument(flag, type=kind, default=default, help=help)
    given = vars(parser.parse_args(argv))
    on_cpu = (given["backend"] or torch.device(given["device"]).type) == "cpu"
    for name in cls.CPU_DEFAULTS:
        given.setdefault(name, cls.CPU_DEFAULTS[name] if on_cpu else fields[name].default)
    return cls(**given)


def _default_text(value) -> str:
    return f"{value:_}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    pass


def _field_docs(cls: type) -> dict[str, str]:
    """The string literal under each field of `cls` and of its dataclass bases."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__[:-1]):
        body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0].body
        for stmt, after in zip(body, body[1:]):
            if (isinstance(stmt, ast.AnnAssign) and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
                docs[stmt.target.id] = after.value.value
    return docs


# ---- processes and devices ---------------------------------------------------------------------

@dataclass(frozen=True)
class Dist:
    rank: int
    world_size: int
    device: torch.device
    distributed: bool = False   # under torchrun: a process group, of one process too (its NCCL path on one GPU)

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def setup_distributed(device: str) -> Dist:
    """One process per GPU under torchrun (RANK, LOCAL_RANK and WORLD_SIZE in the environment),
    gradients averaged by DistributedDataParallel over NCCL, or gloo for the CPU backend; a single
    process otherwise. Under torchrun a CUDA device is always cuda:LOCAL_RANK."""
    dev = torch.device(device)
    distributed = "RANK" in os.environ
    if dev.type == "cuda":
        index = int(os.environ["LOCAL_RANK"]) if distributed else dev.index
        dev = torch.device("cuda", torch.cuda.current_device() if index is None else index)
        torch.cuda.set_device(dev)   # CUDA events and the env's kernels use the current device
        torch.backends.cudnn.benchmark = True          # fixed batch shapes: pick the fastest convolutions
        torch.set_float32_matmul_precision("high")     # TF32 matrix products
    if not distributed:
        return Dist(0, 1, dev)
    # Process 0 evaluates while the others wait in the next collective: allow for long evaluations.
    timeout = datetime.timedelta(hours=1)
    if dev.type == "cuda":
        torch.distributed.init_process_group("nccl", device_id=dev, timeout=timeout)
    else:
        torch.distributed.init_process_group("gloo", timeout=timeout)
    return Dist(torch.distributed.get_rank(), torch.distributed.get_world_size(), dev, distributed=True)


def training_model(model: nn.Module, args: RunArgs, dist: Dist) -> nn.Module:
    """`model` as the training loop calls it: under DistributedDataParallel under torchrun (which
    also copies process 0's initial weights to the others), compiled in place with --compile (so
    that its state_dict keeps its keys)."""
    if dist.distributed:
        device_ids = [dist.device.index] if dist.device.type == "cuda" else None
        model = nn.parallel.DistributedDataParallel(model, device_ids=device_ids)
    if args.compile is not None:
        model.compile(mode=args.compile)
    return model


def broadcast_int(value: int, dist: Dist) -> int:
    """Process 0's `value`, on every process."""
    if not dist.distributed:
        return value
    t = torch.tensor([value], device=dist.device)
    torch.distributed.broadcast(t, src=0)
    return int(t.item())


def all_gather_int(value: int, dist: Dist) -> list[int]:
    """Every process's `value`, by rank, on every process."""
    if not dist.distributed:
        return [value]
    values = [torch.zeros(1, dtype=torch.int64, device=dist.device) for _ in range(dist.world_size)]
    torch.distributed.all_gather(values, torch.tensor([value], device=dist.device))
    return [int(v.item()) for v in values]


def cleanup_distributed() -> None:
    if torch.distributed.is_initialized():
        torch.distributed.barrier()
        torch.distributed.destroy_process_group()


# ---- networks ----------------------------------------------------------------------------------

def layer_init(layer: nn.Module, std: float = math.sqrt(2), bias: float = 0.0) -> nn.Module:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class NatureCNN(nn.Module):
    """Mnih et al. (2015)'s trunk: uint8 frame stacks (N, 4, 84, 84), scaled to [0, 1] here, on
    the device they arrive on, to 512 float32 features.

    The convolutions run channels-last (NHWC), the layout oneDNN and cuDNN compute in: on 2 CPU
    cores a PPO minibatch of 256 trains 1.25x to 2.1x faster than in NCHW. `bf16` runs them and the
    hidden layer under bfloat16 autocast: faster again on some CPUs, slower on others
    (benchmarks/train_step.py and examples/README.md)."""

    def __init__(self, bf16: bool = False):
        super().__init__()
        self.bf16 = bf16
        self.net = nn.Sequential(
            layer_init(nn.Conv2d(4, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU(),
        ).to(memory_format=torch.channels_last)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        x = (obs.float() / 255.0).contiguous(memory_format=torch.channels_last)
        with torch.autocast(obs.device.type, dtype=torch.bfloat16, enabled=self.bf16):
            return self.net(x).float()


class ActorCritic(nn.Module):
    """NatureCNN with a policy head (action logits) and a value head, as PPO and A2C use it."""

    def __init__(self, num_actions: int, bf16: bool = False):
        super().__init__()
        self.trunk = NatureCNN(bf16)
        self.policy = layer_init(nn.Linear(512, num_actions), std=0.01)
        self.value = layer_init(nn.Linear(512, 1), std=1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(obs)
        return self.policy(features), self.value(features).squeeze(-1)

    def sample_actions(self, obs: torch.Tensor) -> torch.Tensor:
        """Actions drawn from the policy: how the evaluations play."""
        return Categorical(logits=self(obs)[0], validate_args=False).sample()


# ---- environments ------------------------------------------------------------------------------

class TrainingEnv:
    """The training CuleEnv and what every script does with its steps, on the device.

    AtariVectorEnv's settings, sticky actions as --repeat-action-probability says, and two choices:
    - raw rewards: step() clips them to [-1, 1] for the loss and adds the raw ones to the episode
      returns that are logged;
    - SameStep autoreset: the step that ends an episode already returns the next episode's first
      observation, so every stored transition is a real one and `done` just cuts the bootstrap.
      (NextStep would leave one transition per episode whose action the env ignores, to be masked
      out of every loss.) Truncated episodes (108,000 frames) count as ended, without bootstrap.
    Lives: with episodic_life a lost life would restart the game, so the agent would never see the
    later stages of a game; life_loss_done instead cuts the bootstrap where info["lives"] drops
    while the game goes on, and only real game ends (terminated or truncated) end the logged
    returns.
    """

    def __init__(self, args: RunArgs, dist: Dist, timer: PhaseTimer):
        self.env = cule.atari_vector_env(args.game, args.num_envs, device=dist.device, backend=args.backend,
                                         reward_clipping=False,
                                         repeat_action_probability=args.repeat_action_probability,
                                         autoreset_mode="SameStep")
        self.env.phase_timer = timer   # the env times "emulation" and "rendering" itself
        self.num_envs = args.num_envs
        self.num_actions = int(self.env.single_action_space.n)
        self.life_loss_done = args.life_loss_done
        self.frames_per_step = args.num_envs * self.env.frameskip * dist.world_size
        device = self.env.device
        self.episode_returns = torch.zeros(args.num_envs, device=device)
        self.finished_return_sum = torch.zeros((), device=device)
        self.finished_count = torch.zeros((), device=device)
        self.restart(seed=args.seed + dist.rank, frames=0)

    def restart(self, seed: int, frames: int) -> None:
        """New games in every env, seeded with `seed`, the frame count set to `frames` (emulator
        frames so far, all processes together); the games in progress are dropped, unlogged."""
        self.obs, info = self.env.reset(seed=seed)
        self.seed = seed
        self.lives = info["lives"]
        self.frames = frames
        self.episode_returns.zero_()

    def step(self, actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Steps with `actions` (on the device); the new observations are then in self.obs.
        Returns the clipped rewards as floats and `done`: the value of the new observation must
        not be bootstrapped into this step's (game over, truncation, or a lost life)."""
        obs, reward, terminated, truncated, info = self.env.step(actions)
        game_over = terminated | truncated
        self.episode_returns += reward
        self.finished_return_sum += (self.episode_returns * game_over).sum()
        self.finished_count += game_over.sum()
        self.episode_returns.masked_fill_(game_over, 0.0)
        done = game_over
        if self.life_loss_done:
            done = done | (info["lives"] < self.lives)
        self.lives = info["lives"]
        self.obs = obs
        self.frames += self.frames_per_step
        return reward.clamp(-1, 1).float(), done

    def pop_mean_return(self) -> float | None:
        """The mean raw return of the games finished since the last call (None if none): a host read."""
        total, count = torch.stack([self.finished_return_sum, self.finished_count]).tolist()
        mean = total / count if count else None
        self.finished_return_sum.zero_()
        self.finished_count.zero_()
        return mean


def start(args: RunArgs) -> tuple[Dist, PhaseTimer, TrainingEnv]:
    """What every script starts with: its process (and GPU) under torchrun, torch's RNG seeded per
    rank (so that the ranks explore differently), the phase timer and the training envs."""
    dist = setup_distributed(args.device)
    torch.manual_seed(args.seed + dist.rank)
    timer = PhaseTimer(dist.device)
    return dist, timer, TrainingEnv(args, dist, timer)


NOOP_MAX = 30   # no-op starts of the evaluations: AtariVectorEnv's, the v5 protocol's and the CuLE paper's


@torch.no_grad()
def evaluate(policy: Policy, game: str, num_envs: int, device: str, seed: int, max_frames: int = 108_000,
             policy_device: torch.device | str = "cpu", repeat_action_probability: float = 0.25,
             noop_max: int = NOOP_MAX, make_env: Callable = cule.atari_vector_env) -> tuple[float, list[float]]:
    """The v5 protocol on envs of their own: sticky actions 0.25 (unless told otherwise), raw
    rewards, whole games (no life-loss ends), episodes cut at `max_frames`, up to `noop_max`
    no-ops at the start (AtariVectorEnv's 30); each env counts only its first episode. Returns
    the mean score and the scores.

    The envs run on `device`; the policy on `policy_device`, only the small observation batch
    crossing. The CPU is the better place for these few envs: a GPU step costs tens of
    milliseconds however few envs it runs (36 ms for 4,096 Pong envs on an H100, emulation
    alone: benchmarks/results/fps-pong-2026-11-26-h100.json), so a whole game of a few thousand
    steps takes minutes there and seconds on the CPU. `make_env`: another env with
    atari_vector_env's signature (evaluate.py's check on ale-py's own).
    """
    env = make_env(game, num_envs, device=device, repeat_action_probability=repeat_action_probability,
                   noop_max=noop_max, reward_clipping=False, episodic_life=False,
                   max_num_frames_per_episode=max_frames)
    obs, _ = env.reset(seed=seed)
    scores = torch.zeros(num_envs, device=obs.device)
    finished = torch.zeros(num_envs, dtype=torch.bool, device=obs.device)
    while not finished.all():
        obs, reward, terminated, truncated, _ = env.step(policy(obs.to(policy_device)))
        scores += reward * ~finished
        finished |= terminated | truncated
    scores_list = scores.tolist()
    return sum(scores_list) / num_envs, scores_list


# ---- logs, evaluations, stop, results ----------------------------------------------------------

class Run:
    """What a training script does besides learning. Process 0 writes the log lines (progress.csv,
    TensorBoard when installed, a progress bar or a printed line) with the timing breakdown and
    runs the evaluations; every process stops at the same point (frame budget or target score)
    and can save its weights; process 0 writes summary.json at the end.

    `model` is the network itself (not its DistributedDataParallel wrapper): its weights are the
    ones snapshotted, compared and saved. Times: wall_seconds since the start, train_seconds the
    same less the evaluations (training is suspended while they run, as in the CuLE paper's
    curves); phase_seconds how the training time divides between the phases the timer brackets
    (the env's emulation and rendering, the script's inference, forward, backward, ...).

    A run can span sessions: process 0 writes logdir/checkpoint.pt at its first log line, then at
    the first one a minute or more after the last write, and at its last (27 MB for PPO, and on a
    GPU log lines come every few seconds), and a run started with --resume loads it here: the
    weights, the optimizer's state and the counters and logs go on from there (the times too:
    they add up the sessions), the envs start new games and torch's RNG a new stream. What a
    script keeps besides (DQN's replay buffer, A2C's ring of steps) starts empty and refills."""

    CHECKPOINT: ClassVar[str] = "checkpoint.pt"
    CHECKPOINT_SECONDS: ClassVar[float] = 60.0
    # Why a run stopped (summary.json's "stopped"); None: it goes on.
    STOPS: ClassVar[tuple[str | None, ...]] = (None, "frames", "target", "time", "signal")
    # The counters and logs a checkpoint keeps (with the weights, the optimizer and the frames).
    _SAVED: ClassVar[tuple[str, ...]] = ("initial_params", "updates", "losses", "phase_seconds", "eval_score",
                                         "eval_scores", "reached_target", "sessions", "_next_log", "_next_eval",
                                         "_eval_seconds", "_last")

    def __init__(self, algo: str, args: RunArgs, dist: Dist, model: nn.Module, optimizer: torch.optim.Optimizer,
                 env: TrainingEnv, timer: PhaseTimer, loss_names: Sequence[str]):
        self.algo, self.args, self.dist, self.model, self.env, self.timer = algo, args, dist, model, env, timer
        self.optimizer = optimizer
        self.loss_names = ("loss", *loss_names)
        self.initial_params = _snapshot(model)
        self.updates = 0
        self.losses: list[float] = []   # process 0's: the total loss of every update, read at log lines
        self.phase_seconds: dict[str, float] = collections.defaultdict(float)   # the timer's, over the run
        self._pending: dict[str, list[torch.Tensor]] = {name: [] for name in self.loss_names}
        self.eval_score: float | None = None
        self.eval_scores: list[float] = []
        self.reached_target: dict | None = None
        self.sessions: list[dict] = []   # where each session of the run began: frames and date
        self._next_log, self._next_eval = args.log_every, args.eval_every
        self._start = time.perf_counter()
        self._last_checkpoint = -math.inf   # when checkpoint.pt was last written
        self._eval_seconds = 0.0
        self._last = (0, 0.0)            # frames and train seconds at the last log line
        self._shown = 0.0                # when progress was last shown
        self.stopped: str | None = None
        if args.resume and args.logdir is None:
            raise ValueError("--resume needs --logdir: the directory of the run to go on with")
        if args.target_score is not None and args.eval_envs == 0:
            raise ValueError("--target-score needs evaluations: --eval-envs is 0")
        # SIGTERM (`timeout`, a scheduler, torchrun passing it on) stops the run with its results
        # written, as --max-train-seconds does, but without an evaluation; a second one at once.
        self._terminated = False
        self._previous_sigterm = None   # the handler to put back, where this run installed its own
        if threading.current_thread() is threading.main_thread():
            self._previous_sigterm = signal.signal(signal.SIGTERM, self._on_sigterm) or signal.SIG_DFL
        self.logdir = Path(args.logdir or f"runs/{algo}-{args.game}-s{args.seed}-"
                                          f"{datetime.datetime.now():%Y%m%d-%H%M%S}")
        if args.resume:
            self._resume()
        self.sessions.append(dict(frames=env.frames, date=datetime.datetime.now().isoformat(timespec="seconds")))
        if dist.is_main:
            self._open_logs()

    def _on_sigterm(self, signum, frame) -> None:
        self._terminated = True
        signal.signal(signal.SIGTERM, self._previous_sigterm)   # a second SIGTERM ends the process at once

    def _cut(self) -> str | None:
        """Why this process would stop before the frame budget: "signal" after SIGTERM, "time" past
        --max-train-seconds (on the host's clock: the GPU may be a little behind it), else None."""
        limit = self.args.max_train_seconds
        if self._terminated:
            return "signal"
        return "time" if limit is not None and self._train_seconds() >= limit else None

    def add_losses(self, loss: torch.Tensor, **terms: torch.Tensor) -> None:
        """Records one update's loss and its terms: 0-dim tensors on the training device, kept
        there until the next log line."""
        self.updates += 1
        if self.dist.is_main:   # the only process that logs
            for name, value in (("loss", loss), *terms.items()):
                self._pending[name].append(value.detach())

    def end_iteration(self, policy: Policy) -> bool:
        """Called after each iteration with the policy to evaluate: logs and evaluates when due.
        Returns whether to stop (the same answer on every process). The reasons to stop other
        than the frame budget (the target score, --max-train-seconds, SIGTERM) are process 0's:
        a single process looks at every iteration, torchrun's processes at log lines (each look
        there is a collective)."""
        frames, every = self.env.frames, self.args.eval_every
        self._show_progress(frames)
        out_of_frames = frames >= self.args.total_frames
        eval_due = out_of_frames or (every > 0 and frames >= self._next_eval)
        if not (eval_due or frames >= self._next_log or (not self.dist.distributed and self._cut())):
            return False
        self._sync()   # the clock reads below then count the work queued so far as training
        cut = self._cut()
        evaluate_now = self.args.eval_envs > 0 and cut != "signal" and (eval_due or cut == "time")
        if every > 0 and eval_due:
            self._next_eval = _next_multiple(frames, every)
        stop = cut
        if self.dist.is_main and evaluate_now:
            self._evaluate(policy)
            if self.args.target_score is not None and self.eval_score >= self.args.target_score:
                stop = "target"
                self.reached_target = dict(frames=frames, train_seconds=self._train_seconds(),
                                           wall_seconds=time.perf_counter() - self._start)
        stop = self.STOPS[broadcast_int(self.STOPS.index(stop), self.dist)]
        self.stopped = stop or ("frames" if out_of_frames else None)
        self._next_log = _next_multiple(frames, self.args.log_every)
        self._log(evaluated=evaluate_now)
        if self.dist.is_main and (self.stopped or
                                  time.perf_counter() - self._last_checkpoint >= self.CHECKPOINT_SECONDS):
            self._save_checkpoint()
        return self.stopped is not None

    def finish(self) -> dict:
        """Saves the weights if asked, writes summary.json (process 0), leaves the process group
        and returns the summary, with the initial and final parameters (on the CPU) for checks."""
        self._sync()
        self._take_phase_times()
        final_params = _snapshot(self.model)
        if self.args.save_weights:
            path = Path(self.args.save_weights)
            path.parent.mkdir(parents=True, exist_ok=True)
            torch.save(final_params, f"{path}.rank{self.dist.rank}.pt")
            if self.dist.is_main:
                torch.save(self.initial_params, f"{path}.initial.pt")
        summary = dict(
            algo=self.algo, game=self.args.game, num_envs=self.args.num_envs, world_size=self.dist.world_size,
            process_group=torch.distributed.get_backend() if self.dist.distributed else None,
            seed=self.args.seed, env_seeds=all_gather_int(self.env.seed, self.dist),   # each process's, by rank
            frames=self.env.frames, updates=self.updates,
            train_seconds=self._train_seconds(), wall_seconds=time.perf_counter() - self._start,
            phase_seconds=dict(sorted(self.phase_seconds.items(), key=lambda kv: -kv[1])),
            stopped=self.stopped, eval_score=self.eval_score, eval_scores=self.eval_scores,
            evaluation=dict(episodes=self.args.eval_envs,
                            repeat_action_probability=self.args.eval_repeat_action_probability, noop_max=NOOP_MAX,
                            max_frames=self.args.eval_max_frames, whole_games=True, device=self.args.eval_device),
            target_score=self.args.target_score, reached_target=self.reached_target, sessions=self.sessions,
            params_changed=any(not torch.equal(final_params[k], v) for k, v in self.initial_params.items()),
            device=device_name(self.dist.device), torch=torch.__version__, cule=cule.__version__,
            date=datetime.datetime.now().isoformat(timespec="seconds"), args=dataclasses.asdict(self.args),
            logdir=str(self.logdir))
        if self.dist.is_main:
            (self.logdir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
            self._csv_file.close()
            if self._tensorboard is not None:
                self._tensorboard.close()
            if self._progress is not None:
                self._progress.close()
        if self._previous_sigterm is not None:
            signal.signal(signal.SIGTERM, self._previous_sigterm)
        cleanup_distributed()
        return dict(summary, losses=self.losses, initial_params=self.initial_params, final_params=final_params)

    # ---- checkpoints ---------------------------------------------------------------------------

    def _save_checkpoint(self) -> None:
        """logdir/checkpoint.pt, replaced whole (a run stopped while writing keeps the last one)."""
        state = dict(algo=self.algo, args=dataclasses.asdict(self.args), frames=self.env.frames,
                     wall_seconds=time.perf_counter() - self._start, model=self.model.state_dict(),
                     optimizer=self.optimizer.state_dict(), **{name: getattr(self, name) for name in self._SAVED})
        path = self.logdir / self.CHECKPOINT
        torch.save(state, path.with_suffix(".tmp"))
        os.replace(path.with_suffix(".tmp"), path)
        self._last_checkpoint = time.perf_counter()

    def _resume(self) -> None:
        path = self.logdir / self.CHECKPOINT
        if not path.exists():
            raise FileNotFoundError(f"--resume: there is no {self.CHECKPOINT} in {self.logdir} (a run writes it "
                                    f"at its first log line)")
        saved = torch.load(path, map_location=self.dist.device, weights_only=False)   # the run's own file
        if saved["algo"] != self.algo:
            raise ValueError(f"--resume: the run in {self.logdir} is {saved['algo']}'s, not {self.algo}'s")
        # An argument added since the checkpoint was written took its default in that run.
        defaults = {field.name: field.default for field in dataclasses.fields(self.args)}
        for name, value in dataclasses.asdict(self.args).items():
            was = saved["args"].get(name, defaults[name])
            if name not in self.args.RESUMABLE and was != value:
                raise ValueError(f"--resume: {name} is {value!r} here and was {was!r} in the run in {self.logdir}; "
                                 f"a resumed run can change only {', '.join(self.args.RESUMABLE)}")
        self.model.load_state_dict(saved["model"])
        self.optimizer.load_state_dict(saved["optimizer"])
        for name in self._SAVED:
            setattr(self, name, saved[name])
        self._start -= saved["wall_seconds"]   # the run's times go on from the checkpoint's
        # New games and a new random stream, each its own for this rank and this point of the run.
        seed = int(np.random.SeedSequence([self.args.seed, self.dist.rank, saved["frames"]]).generate_state(1)[0])
        torch.manual_seed(seed)
        self.env.restart(seed=seed, frames=saved["frames"])

    # ---- helpers -------------------------------------------------------------------------------

    def _take_phase_times(self) -> dict[str, float]:
        """The timer's seconds per phase since it last restarted, added to the run's; it restarts."""
        seconds = self.timer.seconds()
        for phase, s in seconds.items():
            self.phase_seconds[phase] += s
        self.timer.reset()
        return seconds

    def _sync(self) -> None:
        if self.dist.device.type == "cuda":
            torch.cuda.synchronize(self.dist.device)

    def _train_seconds(self) -> float:
        return time.perf_counter() - self._start - self._eval_seconds

    def _evaluate(self, policy: Policy) -> None:
        start = time.perf_counter()
        self._print(f"evaluating: {self.args.eval_envs} episodes of {self.args.game} on {self.args.eval_device} ...")
        self.eval_score, self.eval_scores = evaluate(
            policy, self.args.game, self.args.eval_envs, self.args.eval_device,
            seed=self.args.seed + self.dist.world_size,   # a seed no training env uses
            max_frames=self.args.eval_max_frames, policy_device=self.dist.device,
            repeat_action_probability=self.args.eval_repeat_action_probability)
        seconds = time.perf_counter() - start
        self._eval_seconds += seconds
        self._print(f"evaluated: mean score {self.eval_score:.3g} (from {min(self.eval_scores):.3g} to "
                    f"{max(self.eval_scores):.3g}) in {seconds:.1f}s")

    def _show_progress(self, frames: int) -> None:
        """Frames and frames/s after every iteration, at most twice a second: on tqdm's bar, else
        on one line of the terminal rewritten in place (not in a log file)."""
        now = time.perf_counter()
        if not self.dist.is_main or now - self._shown < 0.5:
            return
        self._shown = now
        fps = frames / max(self._train_seconds(), 1e-9)
        if self._progress is not None:
            self._progress.update(frames - self._progress.n)
            self._progress.set_postfix_str(f"{fps:,.0f} fps", refresh=False)
        elif sys.stdout.isatty():
            print(f"\r\033[K[{100 * frames / self.args.total_frames:5.1f}%] frames {frames:,} | {fps:,.0f} fps",
                  end="", flush=True)

    def _print(self, line: str) -> None:
        """A line of the log, under the progress shown."""
        if self._progress is not None:
            self._progress.write(line)
        else:
            print(("\r\033[K" if sys.stdout.isatty() else "") + line, flush=True)

    def _open_logs(self) -> None:
        """progress.csv, new, or on resume with the rows up to the checkpoint's frames (those
        written after it are done again); TensorBoard's events; the progress bar."""
        self.logdir.mkdir(parents=True, exist_ok=True)
        path = self.logdir / "progress.csv"
        rows = []
        if self.args.resume and path.exists():
            with open(path, newline="") as f:
                rows = [row for row in csv.reader(f)][1:]
            rows = [row for row in rows if int(row[0]) <= self.env.frames]
        # Written whole, then put in place: a run stopped before its first log line keeps its rows
        # (a rewrite left in the write buffer would keep only those flushed when it filled).
        with open(path.with_suffix(".tmp"), "w", newline="") as f:
            csv.writer(f).writerows([["frames", "wall_seconds", "train_seconds", "updates", "train_return",
                                      "eval_score", "fps", *self.loss_names, *(f"{p}_seconds" for p in PHASES)],
                                     *rows])
        os.replace(path.with_suffix(".tmp"), path)
        self._csv_file = open(path, "a", newline="")
        self._csv = csv.writer(self._csv_file)
        try:
            from torch.utils.tensorboard import SummaryWriter
            self._tensorboard = SummaryWriter(str(self.logdir))
        except ImportError:
            print("tensorboard is not installed: progress.csv only")
            self._tensorboard = None
        try:
            from tqdm import tqdm
            self._progress = tqdm(total=self.args.total_frames, initial=self.env.frames, unit="frame",
                                  unit_scale=True, dynamic_ncols=True)
        except ImportError:
            self._progress = None

    def _log(self, evaluated: bool) -> None:
        """A log line on process 0 (its host reads happen here); every process restarts its timer."""
        if not self.dist.is_main:
            self._take_phase_times()
            return
        frames, train_seconds = self.env.frames, self._train_seconds()
        interval_seconds = train_seconds - self._last[1]
        fps = (frames - self._last[0]) / max(interval_seconds, 1e-9)
        self._last = (frames, train_seconds)
        nan = torch.full((), math.nan, device=self.dist.device)
        means = [torch.stack(values).mean() if values else nan for values in self._pending.values()]
        losses = dict(zip(self.loss_names, torch.stack(means).tolist()))
        if self._pending["loss"]:
            self.losses += torch.stack(self._pending["loss"]).tolist()
        self._pending = {name: [] for name in self.loss_names}
        train_return = self.env.pop_mean_return()
        eval_score = self.eval_score if evaluated else None
        report = self.timer.report()
        phase_seconds = self._take_phase_times()
        row = dict(frames=frames, wall_seconds=time.perf_counter() - self._start, train_seconds=train_seconds,
                   updates=self.updates, train_return=train_return, eval_score=eval_score, fps=fps, **losses,
                   **{f"{phase}_seconds": phase_seconds.get(phase) for phase in PHASES})
        self._csv.writerow(["" if v is None else v for v in row.values()])
        self._csv_file.flush()
        if self._tensorboard is not None:
            for name, value in row.items():
                if value is not None and name not in ("frames", "wall_seconds", "updates"):
                    group = ("losses" if name in self.loss_names
                             else "phases" if name.removesuffix("_seconds") in PHASES else "charts")
                    self._tensorboard.add_scalar(f"{group}/{name}", value, frames)
        untimed = interval_seconds - sum(phase_seconds.values())
        line = (f"frames {frames:,} | train {train_seconds:.1f}s | {fps:,.0f} fps | updates {self.updates:,} | "
                f"return {_fmt(train_return)} | eval {_fmt(eval_score)} | loss {_fmt(losses['loss'])}\n"
                f"    time: {report} | not in a phase: {max(untimed, 0):.2f}s of {interval_seconds:.2f}s")
        if self._progress is not None:
            self._progress.update(frames - self._progress.n)
            self._progress.write(line)
        else:
            self._print(f"[{100 * frames / self.args.total_frames:5.1f}%] {line}")


def _next_multiple(frames: int, every: int) -> int:
    return (frames // every + 1) * every


def _snapshot(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}


def _fmt(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3g}"


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return f"{_cpu_model()} ({os.cpu_count()} cores)"


def _cpu_model() -> str:
    """The CPU's name as the OS gives it ("Intel(R) Xeon(R) Processor"), else "cpu"."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"
