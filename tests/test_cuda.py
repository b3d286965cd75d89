"""The CUDA backend against the CPU backend, bit for bit: the same kernels/ sources compiled by
NVRTC and by g++ must give the same RAM, observations, rewards, flags, lives and whole machine
states, step after step, with sticky actions, noop starts and autoresets. Needs a GPU and CuPy;
skipped elsewhere (CI proves the CUDA sources compile in test_nvrtc.py)."""
import numpy as np
import pytest
import torch

from cule import CuleEnv, _cpu, list_games
from cule.backends import cuda

pytestmark = pytest.mark.cuda   # tests/conftest.py skips these without a GPU

# AtariVectorEnv's v5 settings, with a frame cap so that every run crosses many autoresets.
V5 = dict(frameskip=4, repeat_action_probability=0.25, noop_max=30, grayscale=True, img_height=84, img_width=84,
          stack_num=4, maxpool=True, max_num_frames_per_episode=2000)


def digest(t: torch.Tensor) -> torch.Tensor:
    """A per-env fingerprint of a (N, ...) uint8 tensor, computed the same way on any device."""
    flat = t.reshape(t.shape[0], -1).to(torch.int64)
    weights = torch.arange(1, flat.shape[1] + 1, dtype=torch.int64, device=t.device) * 2654435761 % 1000003
    return (flat * weights).sum(1).cpu()


def assert_same_step(step, a, b):
    names = ("obs", "reward", "terminated", "truncated")
    for name, x, y in zip(names, a[:4], b[:4]):
        x, y = (digest(x), digest(y)) if name == "obs" else (x.cpu(), y.cpu())
        bad = (x != y).nonzero()
        assert len(bad) == 0, f"step {step}: {name} differs first in env {bad[0].item()}"
    for key in ("lives", "frame_number", "episode_frame_number"):
        assert torch.equal(a[4][key].cpu(), b[4][key].cpu()), f"step {step}: info[{key!r}] differs"


def assert_same_states(step, a, b):
    bad = (a != b).nonzero()
    if len(bad):
        env = bad[0, 0].item()
        offsets = bad[bad[:, 0] == env, 1][:16].tolist()
        raise AssertionError(f"step {step}: machine states differ, first in env {env} at bytes {offsets} "
                             f"(machine layout {_cpu.layout()})")


def run_both(game: str, num_envs: int, steps: int, state_every: int, split_render: bool = True, **options):
    gpu = CuleEnv(game, num_envs=num_envs, device="cuda", **options)
    gpu._vec.split_render = split_render
    cpu = CuleEnv(game, num_envs=num_envs, device="cpu", **options)
    out_gpu, out_cpu = gpu.reset(seed=7), cpu.reset(seed=7)
    assert torch.equal(out_gpu[0].cpu(), out_cpu[0])
    rng = np.random.default_rng(1)
    ends = 0
    for step in range(1, steps + 1):
        actions = rng.integers(0, gpu.single_action_space.n, size=num_envs)
        a = gpu.step(torch.from_numpy(actions).cuda())   # actions as a device tensor
        b = cpu.step(actions)
        assert_same_step(step, a, b)
        assert torch.equal(gpu.get_ram().cpu(), cpu.get_ram()), f"step {step}: RAM differs"
        ends += int((b[2] | b[3]).sum())
        if step % state_every == 0 or step == steps:
            assert_same_states(step, gpu.get_states().cpu(), cpu.get_states())
    return ends


EVERY_GAME = dict(envs=64, steps=60, cap=100)   # about 3 minutes on an H100


@pytest.fixture
def generic_module(monkeypatch):
    """One NVRTC compile for every game: the game is chosen at run time, not folded in."""
    monkeypatch.setattr(cuda, "SPECIALISE", False)


def test_every_game_gpu_equals_cpu(generic_module):
    """All games at once, each on its own CUDA stream (a step is long for one thread and short
    for the GPU): EVERY_GAME envs per game and steps, episodes cut at EVERY_GAME["cap"] frames."""
    games, num_envs, steps = list_games(), EVERY_GAME["envs"], EVERY_GAME["steps"]
    options = {**V5, "max_num_frames_per_episode": EVERY_GAME["cap"]}
    gpus = [CuleEnv(g, num_envs=num_envs, device="cuda", **options) for g in games]
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
        if step % 50 == 0 or step == steps:
            for game, gpu, cpu in zip(games, gpus, cpus):
                assert_same_states(f"{step} of {game}", gpu.get_states().cpu(), cpu.get_states())
    assert all(ends.values()), f"games where no episode ended: {[g for g, n in ends.items() if not n]}"


def test_pong_and_breakout_512_envs_gpu_equals_cpu():
    for game in ("pong", "breakout"):
        assert run_both(game, 512, 150, state_every=50, **{**V5, "max_num_frames_per_episode": 400}) >= 512


def test_one_kernel_step_gpu_equals_cpu():
    """The step that draws as its frames run (cule_step), which the split replaced by default."""
    assert run_both("breakout", 512, 150, state_every=50, split_render=False,
                    **{**V5, "max_num_frames_per_episode": 400}) >= 512


@pytest.mark.slow
@pytest.mark.parametrize("game", ["pong", "breakout"])
def test_long_run_gpu_equals_cpu(game):
    """10,000 steps of 512 envs, the game folded into its own module as CuleEnv compiles it.
    About 10 minutes of GPU per game: a step's frames run one after another in one thread."""
    ends = run_both(game, 512, 10_000, state_every=1000, frameskip=1, repeat_action_probability=0.25,
                    noop_max=30, max_num_frames_per_episode=3000, grayscale=False)
    assert ends >= 512


@pytest.mark.parametrize("options", [dict(episodic_life=True), dict(life_loss_info=True),
                                     dict(autoreset_mode="SameStep"), dict(use_fire_reset=True),
                                     dict(img_height=210, img_width=160, grayscale=False, maxpool=False)])
def test_options_gpu_equals_cpu(options, generic_module):
    run_both("breakout", 256, 40, state_every=20, **{**V5, "max_num_frames_per_episode": 100, **options})


def test_outputs_live_on_the_gpu():
    env = CuleEnv("pong", num_envs=8, device="cuda", **V5)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(torch.zeros(8, dtype=torch.int64, device="cuda"))
    for t in (obs, reward, terminated, truncated, info["lives"], env.get_ram(), env.get_states()):
        assert t.is_cuda
    assert obs.shape == (8, 4, 84, 84) and obs.dtype == torch.uint8
    assert reward.dtype == torch.int32 and terminated.dtype == torch.bool


def test_states_restore_across_backends():
    """A GPU state restored on the CPU plays on exactly as it would have on the GPU."""
    gpu = CuleEnv("breakout", num_envs=4, device="cuda")
    cpu = CuleEnv("breakout", num_envs=4, device="cpu")
    gpu.reset(seed=3)
    cpu.reset(seed=3)
    for _ in range(50):
        gpu.step([1, 3, 4, 0])
    cpu.set_states(gpu.get_states())
    for step in range(50):
        a, b = gpu.step([1, 3, 4, 0]), cpu.step([1, 3, 4, 0])
        assert_same_step(step, a, b)


def test_bad_device_actions_are_refused():
    env = CuleEnv("pong", num_envs=4, device="cuda")
    env.reset(seed=0)
    before = env.get_states()
    env.step(torch.tensor([0, 1, 2, 18], device="cuda"))   # checked on the GPU: no wait, no env steps
    torch.cuda.synchronize()
    assert torch.equal(env.get_states(), before)
    with pytest.raises(ValueError, match="action 18 is out of range.*that step and any after it ran no environment"):
        env.step(torch.tensor([0, 1, 2, 3], device="cuda"))
    env.reset(seed=0)
    env.step(torch.tensor([0, 1, 2, 3], device="cuda"))   # and steps again
    assert not torch.equal(env.get_states(), before)
    with pytest.raises(ValueError, match="integers"):
        env.step(torch.zeros(4, device="cuda"))


@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_steps_never_wait_for_the_gpu(autoreset_mode):
    """torch's sync debug mode raises on any operation that makes the host wait for the GPU: a
    loop fed with device actions, through autoresets, never does."""
    env = CuleEnv("pong", num_envs=64, device="cuda", autoreset_mode=autoreset_mode,
                  **{**V5, "max_num_frames_per_episode": 120})
    env.reset(seed=0)
    generator = torch.Generator(device="cuda").manual_seed(0)
    ended = torch.zeros(64, dtype=torch.bool, device="cuda")
    torch.cuda.set_sync_debug_mode("error")
    try:
        for _ in range(40):   # 160 frames: every env's episode is cut at least once
            actions = torch.randint(0, env.single_action_space.n, (64,), device="cuda", generator=generator)
            obs, reward, terminated, truncated, info = env.step(actions)
            ended |= terminated | truncated
    finally:
        torch.cuda.set_sync_debug_mode(0)
    assert ended.all()
