"""The CUDA backend against the CPU backend, bit for bit: the kernels of kernels/cuda/kernels.cu
must give the CPU backend's RAM, observations, rewards, flags, lives, frame numbers and whole
machine states, step after step, with sticky actions, noop starts and autoresets.

Each comparison runs twice: on the host (`device="cpu", backend="cuda"`: the kernels compiled by
g++ in NVRTC's environment and executed thread by thread, in CI), and on a GPU (marked cuda:
NVRTC's machine code; skipped without a GPU and CuPy). The host run proves the kernels'
arithmetic, indexing, memory layout, launch arguments and the backend's Python orchestration;
only the GPU run shows NVRTC's code generation, streams and speed."""
import os

import numpy as np
import pytest
import torch

from cule import CuleEnv, _core, list_games
from cule.games import get_game
from cule.roms import load_rom
from cule.backends import cuda
from _waits import no_host_waits

# AtariVectorEnv's v5 settings, with a frame cap so that every run crosses many autoresets. A
# cap that is not a multiple of the frameskip ends episodes inside a step, before the frames it
# shows: the split step cannot replay those from its log and runs them again (cule_redo).
V5 = dict(frameskip=4, repeat_action_probability=0.25, noop_max=30, grayscale=True, img_height=84, img_width=84,
          stack_num=4, maxpool=True)
MID_STEP_CAP = 98
RGB = dict(grayscale=False, img_height=None, img_width=None)   # full size: the game's own height

HOST = pytest.param("cpu", id="host")
GPU = pytest.param("cuda", id="gpu", marks=pytest.mark.cuda)   # tests/conftest.py skips it without a GPU


@pytest.fixture(params=[HOST, GPU])
def device(request, monkeypatch):
    """Where the CUDA kernels run. On a GPU, one NVRTC compile for every game (the game chosen at
    run time, as on the host), not one per game."""
    monkeypatch.setattr(cuda, "SPECIALISE", False)
    return request.param


def cuda_env(game: str, num_envs: int, device: str, cuda_step: str = "split", **options) -> CuleEnv:
    return CuleEnv(game, num_envs=num_envs, device=device, backend="cuda", num_threads=1, cuda_step=cuda_step,
                   **options)


def assert_same_step(step, a, b):
    """One step's (obs, reward, terminated, truncated, info) of the CUDA and the CPU env."""
    for name, x, y in zip(("obs", "reward", "terminated", "truncated"), a[:4], b[:4]):
        x = x.cpu()
        bad = (x != y).reshape(len(x), -1).any(1).nonzero()
        assert len(bad) == 0, f"step {step}: {name} differs first in env {bad[0].item()}"
    for key in ("lives", "frame_number", "episode_frame_number"):
        assert torch.equal(a[4][key].cpu(), b[4][key]), f"step {step}: info[{key!r}] differs"
    if "final_obs" in b[4]:   # the CPU gives it only when an episode ended, the CUDA backend always
        ended = b[2] | b[3]
        assert torch.equal(a[4]["final_obs"].cpu()[ended], b[4]["final_obs"][ended]), f"step {step}: final_obs"


def assert_same_states(step, a, b):
    bad = (a.cpu() != b).nonzero()
    if len(bad):
        env = bad[0, 0].item()
        offsets = bad[bad[:, 0] == env, 1][:16].tolist()
        raise AssertionError(f"step {step}: machine states differ, first in env {env} at bytes {offsets} "
                             f"(machine layout {_core.layout()})")


class Run:
    """A CUDA env and a CPU env of one game stepped side by side with the same random actions,
    compared after every step; counts the episodes ended and the steps cule_redo ran again."""

    def __init__(self, game: str, device: str, num_envs: int, cuda_step: str = "split", seed: int = 7, **options):
        self.gpu = cuda_env(game, num_envs, device, cuda_step, **options)
        # One thread each: pytest-xdist already keeps every core busy.
        self.cpu = CuleEnv(game, num_envs=num_envs, device="cpu", num_threads=1, **options)
        self.split_render = cuda_step != "one-kernel"
        a, b = self.gpu.reset(seed=seed), self.cpu.reset(seed=seed)
        assert torch.equal(a[0].cpu(), b[0]), "reset observations differ"
        self.rng = np.random.default_rng(seed)
        self.steps = self.ends = self.redone = 0

    def step(self, states: bool = True):
        n, space = self.gpu.num_envs, self.gpu.single_action_space
        actions = (self.rng.uniform(space.low, space.high, size=(n, 3)).astype(np.float32) if self.gpu.continuous
                   else self.rng.integers(0, space.n, size=n))
        a = self.gpu.step(torch.from_numpy(actions).to(self.gpu.device))   # actions as a device tensor
        b = self.cpu.step(actions)
        self.steps += 1
        assert_same_step(self.steps, a, b)
        assert torch.equal(self.gpu.get_ram().cpu(), self.cpu.get_ram()), f"step {self.steps}: RAM differs"
        if states:
            assert_same_states(self.steps, self.gpu.get_states(), self.cpu.get_states())
        self.ends += int((b[2] | b[3]).sum())
        if self.split_render:
            self.redone += int(self.gpu._backend.redone().sum())
        return a, b

    def run(self, steps: int, state_every: int = 1):
        for k in range(1, steps + 1):
            self.step(states=k % state_every == 0 or k == steps)
        return self


def test_host_kernels_take_the_arguments_cupy_would():
    """A launch argument of the wrong width would shift every later argument on the GPU: the host
    launcher refuses it, naming the argument."""
    _cuda_host = cuda._host_module()
    out = torch.zeros(len(_core.layout()), dtype=torch.int64)
    with pytest.raises(TypeError, match=r"cule_layout: argument 0 must be a numpy uint64 \(a data pointer\)"):
        _cuda_host.cule_layout(1, 1, (out.data_ptr(),))
    with pytest.raises(TypeError, match="cule_layout takes 1 arguments, got 2"):
        _cuda_host.cule_layout(1, 1, (np.uint64(out.data_ptr()), np.int32(0)))
    axes = torch.zeros(_core.AREA_AXES_BYTES, dtype=torch.uint8)
    with pytest.raises(TypeError, match="cule_area_axes: argument 1 must be a numpy int32, got int64 210"):
        _cuda_host.cule_area_axes(1, 1, (np.uint64(axes.data_ptr()), np.int64(210), np.int32(84), np.int32(84)))
    _cuda_host.cule_layout(1, 1, (np.uint64(out.data_ptr()),))
    assert dict(zip(_core.layout(), out.tolist())) == _core.layout()


def test_launches_are_packed_by_parameter_name_from_the_kernels_declarations():
    """cuda.py packs a launch's arguments by the names kernels.cu gives its parameters (its one
    declaration of them): the order is the file's, a name missing or unknown, a tensor of another
    element type or a value out of its type's range is refused, naming it."""
    assert [p for p, _ in cuda.KERNEL_PARAMETERS["cule_area_axes"]] == ["axes", "screen_height", "height", "width"]
    assert cuda.KERNEL_PARAMETERS["cule_redo"][7] == ("config", "StepConfig*")
    axes = torch.zeros(_core.AREA_AXES_BYTES, dtype=torch.uint8)
    packed = cuda.pack_args("cule_area_axes", dict(width=84, height=80, screen_height=210, axes=axes))
    assert packed == (np.uint64(axes.data_ptr()), 210, 80, 84) and [type(a) for a in packed[1:]] == [np.int32] * 3
    with pytest.raises(TypeError, match=r"cule_area_axes takes \['axes', 'screen_height', 'height', 'width'\]: "
                                        r"missing \['width'\], unknown \['widht'\]"):
        cuda.pack_args("cule_area_axes", dict(axes=axes, screen_height=210, height=84, widht=84))
    with pytest.raises(TypeError, match=r"cule_layout: out \(u64\*\) takes a tensor of .*torch.int64.*, got torch.int32"):
        cuda.pack_args("cule_layout", dict(out=torch.zeros(3, dtype=torch.int32)))
    with pytest.raises(TypeError, match=r"cule_layout: out \(u64\*\) takes a tensor .*, got int"):
        cuda.pack_args("cule_layout", dict(out=5))
    with pytest.raises(OverflowError):
        cuda.pack_args("cule_area_axes", dict(axes=axes, screen_height=2**31, height=84, width=84))
    parsed = cuda.kernel_parameters('#define PARAMS \\\n    const u8 *a, \\\n    i32 n\n'
                                    'extern "C" __global__ void k(PARAMS, u64* out) {}\n'
                                    'extern "C" __global__ void __launch_bounds__(64, 8)\nbound(i32 n) {}')
    assert parsed == {"k": (("a", "u8*"), ("n", "i32"), ("out", "u64*")), "bound": (("n", "i32"),)}


def test_the_kernels_step_config_is_the_cpu_backends():
    """The CUDA backend hands the kernels the bytes of the StepConfig the CPU backend makes
    (make_step_config), at the offsets the layout check compares with NVRTC's."""
    game = get_game("pong")
    spec = _core.GameSpec(load_rom(game), game.index)
    config = _core.step_config(spec, 4, 0.25, 108_000, 0b101, True, False, 30, True, True)
    at = _core.layout()
    assert config.dtype == np.uint8 and len(config) == at["step_config"]

    def field(name: str, dtype) -> int:
        offset = at[f"step_config_{name}"]
        return int(config[offset:offset + np.dtype(dtype).itemsize].view(dtype)[0])
    assert int(config[:4].view(np.int32)[0]) == game.index
    assert field("paddle_max", np.int32) == game.paddle_max and field("frameskip", np.int32) == 4
    assert field("repeat_threshold", np.uint64) == _core.repeat_threshold(0.25) == 2**30
    assert (field("max_episode_frames", np.int32), field("legal_actions", np.uint32)) == (108_000, 0b101)
    # EnvPool's episodic life (resume_noop_max) in place of AtariVectorEnv's
    assert (field("episodic_life", np.uint8), field("life_loss_info", np.uint8)) == (0, 0)
    assert (field("resume_noop_max", np.uint16), field("resume_fire", np.uint8)) == (30, 1)
    assert field("sound", np.uint8) == 1
    plain = _core.step_config(spec, 4, 0.25, 108_000, 0b101, True, False, 0, True, False)
    at_life = at["step_config_episodic_life"]
    assert plain[at_life] == 1 and plain[at["step_config_resume_noop_max"]] == 0 and plain[at["step_config_sound"]] == 0
    assert np.array_equal(config, _core.step_config(spec, 4, 0.25, 108_000, 0b101, True, False, 30, True, True)), \
        "padding zeroed"


def test_host_kernels_are_the_cuda_entry_points():
    """Every extern "C" __global__ function of kernels/cuda/kernels.cu, and no other, is launched
    by the backend and exposed by the host module (its CULE_FOR_EACH_KERNEL list)."""
    assert len(cuda.KERNEL_NAMES) == 11 and {"cule_step_in_passes", "cule_hold_frames"} <= set(cuda.KERNEL_NAMES)
    assert sorted(cuda.KERNEL_NAMES) == sorted(cuda._host_module().KERNEL_NAMES)


def test_backend_choice_is_checked():
    with pytest.raises(ValueError, match=r"backend must be one of \('cpu', 'cuda'\), got 'gpu'"):
        CuleEnv("pong", device="cpu", backend="gpu")
    assert CuleEnv("pong", device="cpu").backend == "cpu"
    assert CuleEnv("pong", device="cpu", backend="cuda").device == torch.device("cpu")


EVERY_GAME_HOST = dict(num_envs=12, steps=40)   # in CI, for every game


@pytest.mark.parametrize("game", list_games())
def test_every_game_split_step_on_the_host(game):
    """The split step (state kernel, replay kernel, redo kernel) at v5 settings, every game, whole
    states after every step; episodes cut inside a step, so every env autoresets and the redo
    kernel runs."""
    run = Run(game, "cpu", EVERY_GAME_HOST["num_envs"], **V5, max_num_frames_per_episode=MID_STEP_CAP)
    run.run(EVERY_GAME_HOST["steps"])
    assert run.ends >= run.gpu.num_envs and run.redone > 0, (run.ends, run.redone)


@pytest.mark.parametrize("game", list_games())
def test_every_game_one_kernel_step_rgb_on_the_host(game):
    """The one-kernel step (cule_step) with full-size RGB max-pooled frames, every game."""
    run = Run(game, "cpu", 8, cuda_step="one-kernel", **V5 | RGB, max_num_frames_per_episode=MID_STEP_CAP)
    run.run(30)
    assert run.ends >= run.gpu.num_envs


@pytest.mark.slow
@pytest.mark.parametrize("game", list_games())
def test_every_game_long_on_the_host(game):
    """`make test-long`: 32 envs x 500 steps of every game through the split step, whole states
    every 25 steps."""
    run = Run(game, "cpu", 32, **V5, max_num_frames_per_episode=4 * 125 + 2)
    run.run(500, state_every=25)
    assert run.ends >= 32 and run.redone > 0


@pytest.mark.parametrize("cuda_step", ["split", "one-kernel", "in-passes"])
@pytest.mark.parametrize("options", [dict(episodic_life=True), dict(life_loss_info=True),
                                     dict(autoreset_mode="SameStep"), dict(use_fire_reset=True),
                                     dict(maxpool=False, stack_num=1), dict(reward_clipping=True),
                                     dict(frameskip=1, max_num_frames_per_episode=50),
                                     dict(frameskip=3, grayscale=False)],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_options(device, options, cuda_step):
    run = Run("breakout", device, 16, cuda_step=cuda_step,
              **V5 | {"max_num_frames_per_episode": MID_STEP_CAP} | options)
    run.run(60)
    assert run.ends >= 16
    if cuda_step != "one-kernel" and options.get("frameskip", 4) > 1:
        assert run.redone > 0


@pytest.mark.parametrize("cuda_step", ["split", "one-kernel", "in-passes"])
def test_paddle_strengths_with_sticky_actions(device, cuda_step):
    """Continuous actions' paddle strengths through each step's kernels, latched with the sticky
    actions (Machine.input_a), the steps run again by cule_redo included."""
    run = Run("breakout", device, 16, cuda_step=cuda_step,
              **V5 | dict(continuous=True, max_num_frames_per_episode=MID_STEP_CAP))
    run.run(40, state_every=5)
    assert run.ends >= 8
    if cuda_step != "one-kernel":
        assert run.redone > 0


@pytest.mark.parametrize("cuda_step", ["split", "one-kernel", "in-passes"])
def test_sound_generator(device, cuda_step):
    """ALE's sound generator (sound=True) after every frame of each step's kernels, the frames
    after an episode's end and the steps cule_redo runs again included."""
    run = Run("ms_pacman", device, 8, cuda_step=cuda_step,
              **V5 | dict(sound=True, max_num_frames_per_episode=MID_STEP_CAP))
    run.run(30, state_every=3)
    assert run.ends >= 8
    sound = run.gpu.get_sound().cpu()
    assert torch.equal(sound, run.cpu.get_sound()) and (sound != 128).any()


@pytest.mark.parametrize("cuda_step", ["split", "one-kernel", "in-passes"])
@pytest.mark.parametrize("options", [{}, RGB, dict(stack_num=1)], ids=["v5", "rgb-full-size", "one-frame"])
def test_episodes_ending_on_a_steps_last_frame(device, options, cuda_step):
    """A frame cap on a step's last frame: AtariVectorEnv's observation there, the frame before
    the step max-pooled with the step's next-to-last (kept before shrinking, or at full size the
    stack's)."""
    run = Run("breakout", device, 8, cuda_step=cuda_step, **V5 | options | {"max_num_frames_per_episode": 4 * 15})
    run.run(40, state_every=10)
    assert run.ends >= 16


def test_reset_masks(device):
    """Partial resets every few steps, a new seed for some envs, none for others."""
    run = Run("ms_pacman", device, 16, **V5, max_num_frames_per_episode=MID_STEP_CAP)
    masks = np.random.default_rng(3).random((6, 16)) < 0.4
    for k, mask in enumerate(masks):
        run.run(5)
        seed = None if k % 2 else [100 + k + i for i in range(int(mask.sum()))]
        if seed is None:
            run.gpu.reset(options={"reset_mask": mask})
            run.cpu.reset(options={"reset_mask": mask})
        else:
            run.gpu.reset(seed=seed, options={"reset_mask": mask})
            run.cpu.reset(seed=seed, options={"reset_mask": mask})
        assert_same_states(f"reset {k}", run.gpu.get_states(), run.cpu.get_states())
    run.run(10)


def test_states_move_between_backends(device):
    """States taken from either backend play on in the other exactly as they would have at home:
    set_states both ways, set_ram, a reset pool of captured states, states from ale-py."""
    run = Run("breakout", device, 8, **V5, max_num_frames_per_episode=200)
    run.run(20)
    cpu_states, gpu_states = run.cpu.get_states(), run.gpu.get_states()
    run.gpu.set_states(cpu_states.flip(0))   # CPU -> CUDA, each state into another env
    run.cpu.set_states(gpu_states.cpu().flip(0))   # CUDA -> CPU
    run.run(20)
    ram = torch.from_numpy(np.random.default_rng(0).integers(0, 256, size=(3, 128), dtype=np.uint8))
    run.gpu.set_ram(ram, [1, 4, 6])
    run.cpu.set_ram(ram, [1, 4, 6])
    run.run(5)
    pool = run.cpu.get_states()[:3]
    run.gpu.set_reset_states(pool.to(run.gpu.device))
    run.cpu.set_reset_states(pool)
    run.run(40)
    assert run.ends >= 8


# A game of each cartridge scheme (tests/test_states.py fuzzes another of each under the
# sanitizers too).
SANITIZE_GAMES = ["breakout", "pitfall", "hero", "road_runner", "tutankham", "robotank", "elevator_action",
                  "darkchambers", "pitfall2"]


@pytest.mark.sanitize
@pytest.mark.parametrize("game", SANITIZE_GAMES)
def test_sanitized_kernels(game):
    """`make test-sanitize`: the kernels built with AddressSanitizer and UndefinedBehaviorSanitizer
    (a report ends the process) through a few hundred steps of the split and one-kernel steps."""
    lib = os.environ.get("CULE_CUDA_HOST_LIB")
    assert lib and cuda._host_module().__file__ == lib, "run by `make test-sanitize`, on the sanitizer build"
    with open("/proc/self/maps") as maps:
        assert "libasan" in maps.read(), "AddressSanitizer is not loaded (LD_PRELOAD)"
    run = Run(game, "cpu", 8, **V5, max_num_frames_per_episode=MID_STEP_CAP).run(200, state_every=20)
    assert run.ends >= 8 and run.redone > 0
    run = Run(game, "cpu", 4, cuda_step="one-kernel", **V5 | RGB, max_num_frames_per_episode=MID_STEP_CAP).run(50)
    assert run.ends >= 4


def warp_schedule_run(game: str, device: str, num_envs: int, **options) -> Run:
    return Run(game, device, num_envs, cuda_step="in-passes", **options)


# The host runs a warp's lanes as fibers that meet four times a pass: a test's run takes about 4x
# its time thread by thread, so CI takes a game of four schemes and `make test-long` every game.
WARP_SCHEDULE_GAMES = ["breakout", "pitfall2", "elevator_action", "robotank"]


@pytest.mark.parametrize("game", WARP_SCHEDULE_GAMES)
def test_warp_schedule(device, game):
    """The state kernel with the warp schedule (cule_step_in_passes: a warp's lanes run their
    instructions in passes of the lanes at the same code; on the host the lanes run as fibers that
    meet as a warp's do) gives the CPU backend's steps: a whole warp and a part of one, autoresets
    inside steps."""
    run = warp_schedule_run(game, device, 40, **V5, max_num_frames_per_episode=MID_STEP_CAP).run(30)
    assert run.ends >= run.gpu.num_envs and run.redone > 0, (run.ends, run.redone)


@pytest.mark.slow
@pytest.mark.parametrize("game", list_games())
def test_every_game_warp_schedule_on_the_host(game):
    """`make test-long`: every game through the warp schedule, whole states after every step."""
    run = warp_schedule_run(game, "cpu", 40, **V5, max_num_frames_per_episode=MID_STEP_CAP).run(30)
    assert run.ends >= run.gpu.num_envs


def test_warp_schedule_with_lanes_far_apart(device):
    """The lanes of a warp in different frames, banks and episodes: states taken at six points of
    Elevator Action's play (F8SC: its banks switch as it plays), taken by the lanes in turn, set on
    both envs and stepped on through episode ends."""
    run = warp_schedule_run("elevator_action", device, 32, **V5, max_num_frames_per_episode=400)
    taken = []
    for k in range(1, 91):
        run.step(states=False)
        if k % 15 == 0:
            taken.append(run.cpu.get_states())
    mixed = torch.stack([taken[e % len(taken)][e] for e in range(32)])
    offset = _core.layout()["episode_frame_number"]
    frames = mixed[:, offset:offset + 4].numpy().copy().view(np.int32).ravel()
    assert len(set(frames.tolist())) >= len(taken), frames   # lanes in different frames of play
    run.gpu.set_states(mixed.to(run.gpu.device))
    run.cpu.set_states(mixed)
    run.run(40)
    assert run.ends > 0


# console.h's Way, in order
WAYS = ["passes", "slots", "lanes"]


@pytest.mark.parametrize("game", ["pong", "riverraid"])
def test_warp_schedule_plans_each_way(device, game):
    """Each warp samples the three ways of running its frames, two frames each every PLAN_PERIOD
    (console.h, WarpPlan), and runs the others the way of the least cost a lane-instruction: Pong's
    lanes keep together, and passes cost it least; River Raid's spread. Past the samples, the same
    steps as the CPU backend's."""
    assert len(WAYS) == _core.PLAN_WAYS
    run = warp_schedule_run(game, device, 32, **V5)
    run.run(18, state_every=6)   # 72 frames
    plan = run.gpu._backend._warp_plans.cpu().view(-1, cuda.PLAN_WORDS)[0].tolist()
    frames, cost, instructions = plan[0], plan[1:4], plan[4:7]
    assert frames == 72 and min(cost + instructions) > 0, plan
    cheapest = min(range(len(WAYS)), key=lambda w: cost[w] / instructions[w])
    assert (WAYS[cheapest] == "passes") == (game == "pong"), plan


@pytest.mark.parametrize("way", WAYS)
def test_warp_schedule_holds_each_way_as_the_cpu_backend(device, way):
    """A plan that has sampled its ways and found `way` cheapest (six frames in, its cost the least
    a lane-instruction) runs every frame up to the next sample that way, counting nothing, and
    gives the CPU backend's steps: lanes alone (LANES, meeting only at the frame's end), slots,
    passes; a whole warp and part of one, autoresets inside steps."""
    run = warp_schedule_run("breakout", device, 40, **V5, max_num_frames_per_episode=MID_STEP_CAP)
    plans = run.gpu._backend._warp_plans.view(-1, cuda.PLAN_WORDS)
    sampled = 2 * len(WAYS)
    plans[:, 0] = sampled
    plans[:, 1:1 + len(WAYS)] = 5
    plans[:, 1 + WAYS.index(way)] = 1
    plans[:, 1 + len(WAYS):1 + 2 * len(WAYS)] = 1
    before = plans.cpu().clone()
    run.run(30)   # 120 frames at most (a reset's are not the warp schedule's), within the period
    assert _core.PLAN_PERIOD >= sampled + 120
    after = plans.cpu()
    assert (after[:, 0] > sampled + 100).all() and torch.equal(after[:, 1:], before[:, 1:]), after
    assert run.ends >= run.gpu.num_envs and run.redone > 0, (run.ends, run.redone)


@pytest.mark.parametrize("period", [1, _core.PLAN_FAR_PERIODS])
def test_warp_schedule_samples_far_ways_less_often(device, period):
    """A far way, one that cost over PLAN_FAR_QUARTERS / 4 of the cheapest a lane-instruction, is
    sampled one period in PLAN_FAR_PERIODS (console.h, WarpPlan): passes made 100 times dearer
    after a first period's samples keep that record through period 1, its frames run another way,
    and are sampled again at period PLAN_FAR_PERIODS. The CPU backend's steps either way."""
    run = warp_schedule_run("pong", device, 32, **V5)
    run.run(2)   # 8 frames: the first period's six samples, and two more
    plans = run.gpu._backend._warp_plans.view(-1, cuda.PLAN_WORDS)
    assert plans[0, 0] == 8 and (plans[0, 1:1 + 2 * len(WAYS)] > 0).all(), plans[0]
    plans[:, 0] = period * _core.PLAN_PERIOD
    plans[:, 1] *= 100   # passes' cost
    far = plans.cpu()[0, 1].item()
    run.run(2)
    after = plans.cpu()[0].tolist()
    assert after[0] == period * _core.PLAN_PERIOD + 8, after
    assert (after[1] == far) == (period % _core.PLAN_FAR_PERIODS != 0), (far, after)


# ---- on a GPU only: sizes, streams, devices, waiting -----------------------------------------

@pytest.mark.cuda
@pytest.mark.parametrize("game", ["pong", "breakout"])
def test_512_envs(game):
    """Many blocks of the state kernel (16 of 32 threads) and of the replay kernel, the game folded
    into its module as CuleEnv compiles it by default."""
    run = Run(game, "cuda", 512, **V5, max_num_frames_per_episode=400)
    assert run.run(150, state_every=50).ends >= 512


@pytest.mark.cuda
@pytest.mark.slow
@pytest.mark.parametrize("game", ["pong", "breakout"])
def test_long_run(game):
    """10,000 steps of 512 envs. About 10 minutes of GPU per game: a step's frames run one after
    another in one thread."""
    run = Run(game, "cuda", 512, frameskip=1, repeat_action_probability=0.25, noop_max=30,
              max_num_frames_per_episode=3000, grayscale=False)
    assert run.run(10_000, state_every=1000).ends >= 512

@pytest.mark.cuda
def test_every_game_on_its_own_stream(monkeypatch):
    """All games at once, each on its own CUDA stream (a step is long for one thread and short
    for the GPU): 64 envs per game, 60 steps, episodes cut inside steps."""
    monkeypatch.setattr(cuda, "SPECIALISE", False)   # one compile for all games
    games, num_envs, steps = list_games(), 64, 60
    options = {**V5, "max_num_frames_per_episode": MID_STEP_CAP}
    gpus = [cuda_env(g, num_envs, "cuda", **options) for g in games]
    cpus = [CuleEnv(g, num_envs=num_envs, device="cpu", **options) for g in games]
    streams = [torch.cuda.Stream() for _ in games]
    for gpu, cpu in zip(gpus, cpus):
        assert torch.equal(gpu.reset(seed=7)[0].cpu(), cpu.reset(seed=7)[0])
    rng = np.random.default_rng(1)
    ends = dict.fromkeys(games, 0)
    for step in range(1, steps + 1):
        actions = [rng.integers(0, gpu.single_action_space.n, size=num_envs) for gpu in gpus]
        outs = []
        for gpu, stream, a in zip(gpus, streams, actions):
            with torch.cuda.stream(stream):
                outs.append((gpu.step(torch.from_numpy(a).cuda()), gpu.get_ram()))
        torch.cuda.synchronize()
        for game, cpu, a, (out, ram) in zip(games, cpus, actions, outs):
            expected = cpu.step(a)
            assert_same_step(f"{step} of {game}", out, expected)
            assert torch.equal(ram.cpu(), cpu.get_ram()), f"step {step} of {game}: RAM differs"
            ends[game] += int((expected[2] | expected[3]).sum())
        if step % 20 == 0 or step == steps:
            for game, gpu, cpu in zip(games, gpus, cpus):
                assert_same_states(f"{step} of {game}", gpu.get_states(), cpu.get_states())
    assert all(ends.values()), f"games where no episode ended: {[g for g, n in ends.items() if not n]}"


@pytest.mark.cuda
def test_outputs_live_on_the_gpu():
    env = CuleEnv("pong", num_envs=8, device="cuda", **V5)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(torch.zeros(8, dtype=torch.int64, device="cuda"))
    for t in (obs, reward, terminated, truncated, info["lives"], env.get_ram(), env.get_states()):
        assert t.is_cuda
    assert obs.shape == (8, 4, 84, 84) and obs.dtype == torch.uint8
    assert reward.dtype == torch.int32 and terminated.dtype == torch.bool


def test_bad_device_actions_are_refused(device):
    env = cuda_env("pong", 4, device)
    env.reset(seed=0)
    before = env.get_states()
    env.step(torch.tensor([0, 1, 2, 18], device=device))   # checked on the device: no wait, no env steps
    if device == "cuda":
        torch.cuda.synchronize()
    assert torch.equal(env.get_states(), before)
    with pytest.raises(ValueError, match="action 18 is out of range.*that step and any after it ran no environment"):
        env.step(torch.tensor([0, 1, 2, 3], device=device))
    env.reset(seed=0)
    env.step(torch.tensor([0, 1, 2, 3], device=device))   # and steps again
    assert not torch.equal(env.get_states(), before)
    with pytest.raises(ValueError, match="integers"):
        env.step(torch.zeros(4, device=device))
    continuous = cuda_env("pong", 4, device, continuous=True)
    continuous.reset(seed=0)
    before = continuous.get_states()
    actions = torch.ones(4, 3, device=device)
    actions[2, 0] = float("inf")
    continuous.step(actions)
    if device == "cuda":
        torch.cuda.synchronize()
    assert torch.equal(continuous.get_states(), before)
    with pytest.raises(ValueError, match="env 2's continuous action is not finite; that step and any after it"):
        continuous.step(torch.ones(4, 3, device=device))


@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_steps_never_wait_for_the_gpu(device, autoreset_mode):
    """A loop fed with device actions, through autoresets, never reads a tensor's values on the
    host (tests/_waits.py; on a GPU torch's sync debug mode watches too)."""
    env = cuda_env("pong", 64, device, **V5, autoreset_mode=autoreset_mode, max_num_frames_per_episode=120)
    env.reset(seed=0)
    generator = torch.Generator(device=device).manual_seed(0)
    ended = torch.zeros(64, dtype=torch.bool, device=device)
    with no_host_waits(device):
        for _ in range(40):   # 160 frames: every env's episode is cut at least once
            actions = torch.randint(0, env.single_action_space.n, (64,), device=device, generator=generator)
            obs, reward, terminated, truncated, info = env.step(actions)
            ended |= terminated | truncated
    assert ended.all()
