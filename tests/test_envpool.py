"""cule.envpool: EnvPool's Atari API on cule.

Against EnvPool 1.2's Atari env where it is installed (not in CI: its wheel brings 600 MB of
other environments' assets), step by step with the same actions: observations, rewards,
terminated, truncated and every info key, of the same dtypes, on both backends (the CUDA
kernels run on the host). EnvPool ships no ROMs: it finds ale-py's through ENVPOOL_ASSETS_PATH.
The two cannot share random draws (EnvPool's no-op counts come from its own generator), so those
comparisons run with noop_max=1: every start is FIRE alone, or one NOOP, in both; and so is every
resumption after a lost life under episodic_life. In CI: the CUDA kernels against the CPU
backend with random no-op starts, the gym API as CleanRL's EnvPool scripts use it, batches,
EnvPool's starts against ale-py, the refusals.
"""
import importlib.util
import os
import pathlib
import tempfile

import ale_py
import numpy as np
import pytest
import torch

import cule.envpool
from cule import CuleEnv


@pytest.fixture(scope="module")
def envpool():
    """EnvPool, its assets root made of its own assets (if any) and ale-py's ROMs."""
    if importlib.util.find_spec("envpool") is None:
        pytest.skip("EnvPool is not installed (pip install envpool): cule.envpool's comparisons with it")
    root = pathlib.Path(tempfile.mkdtemp(prefix="envpool-assets-"))
    assets = importlib.util.find_spec("envpool_assets")
    for child in pathlib.Path(next(iter(assets.submodule_search_locations))).iterdir() if assets else ():
        if child.is_dir() and child.name != "atari":
            (root / child.name).symlink_to(child)
    (root / "atari").mkdir()
    (root / "atari" / "roms").symlink_to(pathlib.Path(ale_py.__file__).parent / "roms")
    os.environ["ENVPOOL_ASSETS_PATH"] = str(root)   # read when envpool is imported
    import envpool
    return envpool


def run_both(theirs, ours, steps, num_envs):
    """Steps two envs (EnvPool's API, gymnasium's signatures) with the same random actions,
    asserting each step's results equal; returns how the episodes ended: (game overs whose frame
    repeats the step before's, game overs showing a new frame, lost lives, truncations)."""
    assert_same(theirs.reset(), ours.reset())
    rng = np.random.default_rng(0)
    ends = np.zeros(4, dtype=int)
    previous = theirs_obs = None
    for _ in range(steps):
        actions = rng.integers(0, theirs.action_space.n, num_envs)
        expected = theirs.step(actions)
        assert_same(expected, ours.step(actions))
        theirs_obs, (_, _, terminated, truncated, info) = expected[0], expected
        over = terminated & (info["terminated"] == 1)
        if previous is not None:
            repeated = np.array([np.array_equal(theirs_obs[i, -1], previous[i, -1]) for i in range(len(over))])
            ends += [(over & repeated).sum(), (over & ~repeated).sum(), (terminated & ~over).sum(), truncated.sum()]
        previous = theirs_obs
    return ends


def assert_same(expected, got):
    assert len(expected) == len(got)
    for k, (a, b) in enumerate(zip(expected, got)):
        if isinstance(a, dict):
            assert set(a) == set(b), (set(a), set(b))
            for key in a:
                if key == "players":
                    assert np.array_equal(a[key]["env_id"], b[key]["env_id"])
                    continue
                assert np.array_equal(a[key], b[key]) and a[key].dtype == b[key].dtype, (key, a[key], b[key])
        else:
            assert isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype, (k, a.dtype, b.dtype)
            bad = [i for i in range(len(a)) if not np.array_equal(a[i], b[i])]
            assert not bad, f"result {k} differs in envs {bad}"


def against_envpool(envpool, task, steps, backend=None, **options):
    kw = dict(num_envs=8, seed=3, noop_max=1, **options)
    return run_both(envpool.make(task, env_type="gymnasium", **kw),
                    cule.envpool.make(task, env_type="gymnasium", device="cpu", backend=backend, **kw), steps, 8)


def test_episodic_life_as_envpool(envpool):
    """CleanRL's settings: a lost life ends the episode and the game resumes after FIRE, the stack
    kept; game overs on every frame of a step, so that all three of EnvPool's end frames show."""
    repeated, new, lives, _ = against_envpool(envpool, "Breakout-v5", 700, episodic_life=True, reward_clip=True)
    assert repeated >= 2 and new >= 2 and lives >= 30, (repeated, new, lives)


def test_rgb_full_size_frames_and_the_step_cap(envpool):
    _, _, _, truncated = against_envpool(envpool, "SpaceInvaders-v5", 320, gray_scale=False, img_height=210,
                                         img_width=160, stack_num=2, max_episode_steps=150, frame_skip=3)
    assert truncated == 16   # at steps 150 and 300 in each of the 8 envs


def test_cuda_kernels_on_the_host_as_envpool(envpool):
    repeated, new, lives, _ = against_envpool(envpool, "Breakout-v5", 700, backend="cuda", episodic_life=True)
    assert repeated + new >= 4 and lives >= 30


@pytest.mark.parametrize("cuda_step", ["in-passes", "split", "one-kernel"])
def test_cuda_kernels_on_the_host(cuda_step):
    """The CUDA backend's kernels, run on the host thread by thread, give the CPU backend's bytes
    under EnvPool's conventions with random no-op starts: the game resumed after a lost life in
    the state pass (drawn again by the render pass), EnvPool's end frames, filled stacks."""
    kw = dict(num_envs=8, seed=5, episodic_life=True, device="cpu")
    cpu = cule.envpool.make_gymnasium("Breakout-v5", **kw)
    cuda = cule.envpool.make_gymnasium("Breakout-v5", backend="cuda", **kw)
    cuda._env._backend.split_render = cuda_step != "one-kernel"
    cuda._env._backend.warp_schedule = cuda_step == "in-passes"
    repeated, new, lives, _ = run_both(cpu, cuda, 700, 8)
    assert repeated + new >= 4 and lives >= 30, (repeated, new, lives)


def test_cleanrl_style_loop():
    """What CleanRL's ppo_atari_envpool.py does with EnvPool: the gym API of EnvPool before 1.0
    (reset gives observations, step four values), spaces set by hand, episode returns summed from
    info["reward"] and cleared by info["terminated"], reported where info["lives"] is 0."""
    envs = cule.envpool.make("Breakout-v5", env_type="gym", num_envs=4, episodic_life=True, reward_clip=True,
                             seed=1, device="cpu")
    envs.num_envs = 4
    envs.single_action_space = envs.action_space
    envs.single_observation_space = envs.observation_space
    obs = envs.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (4, 4, 84, 84) == (4, *envs.single_observation_space.shape)
    returns, reported, clipped, episodes = np.zeros(4), [], np.zeros(4), np.zeros(4, dtype=int)
    rng = np.random.default_rng(0)
    for _ in range(800):
        obs, reward, done, info = envs.step(rng.integers(0, envs.single_action_space.n, 4))
        assert reward.dtype == np.float32 and done.dtype == bool and np.all(np.abs(reward) <= 1)
        assert set(info) == {"env_id", "players", "lives", "reward", "terminated", "elapsed_step", "ram",
                             "TimeLimit.truncated"}
        returns += info["reward"]
        clipped += reward
        episodes += done
        for i in np.flatnonzero(done & (info["lives"] == 0)):
            reported.append((returns[i], episodes[i]))
            episodes[i] = 0
        returns *= 1 - info["terminated"]
    # A game of Breakout: five lives, an episode each, and its return summed over all of them.
    assert len(reported) >= 8 and all(n == 5 for _, n in reported), reported
    assert sum(r for r, _ in reported) > 0 and clipped.sum() > 0


def test_batches_send_and_recv():
    """batch_size below num_envs: batches of envs in turn, each env's results those of the whole."""
    kw = dict(num_envs=4, noop_max=1, episodic_life=True, device="cpu")
    whole = cule.envpool.make_gymnasium("Pong-v5", **kw)
    batched = cule.envpool.make_gymnasium("Pong-v5", batch_size=2, **kw)
    assert batched.is_async and not whole.is_async
    obs, _ = whole.reset()
    batched.async_reset()
    got = [batched.recv(), batched.recv()]
    assert np.array_equal(np.concatenate([g[0] for g in got]), obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = rng.integers(0, 6, 4)
        expected = whole.step(actions)
        for ids in (np.array([0, 1]), np.array([2, 3])):
            batched.send(actions[ids], ids)
        for ids in (np.array([0, 1]), np.array([2, 3])):
            result = batched.recv()
            assert np.array_equal(result[4]["env_id"], ids)
            for a, b in zip(expected[:4], result[:4]):
                assert np.array_equal(a[ids], b)


def test_torch_outputs_stay_on_the_device():
    envs = cule.envpool.make_gymnasium("Pong-v5", num_envs=2, output="torch", device="cpu")
    obs, info = envs.reset()
    assert isinstance(obs, torch.Tensor) and obs.shape == (2, 4, 84, 84)
    obs, reward, terminated, truncated, info = envs.step(torch.zeros(2, dtype=torch.int64))
    assert reward.dtype == torch.float32 and isinstance(info["ram"], torch.Tensor)


def test_spec_ids_and_refusals():
    spec = cule.envpool.make_spec("MsPacman-v5", stack_num=2)
    assert spec.config.stack_num == 2 and spec.config.max_episode_steps == 27000 and spec.config.task == "ms_pacman"
    assert spec.observation_space.shape == (2, 84, 84) and spec.action_space.n == 9
    ids = cule.envpool.list_all_envs()
    assert "Pong-v5" in ids and "MsPacman-v5" in ids and len(ids) == 104
    for call, match in [(lambda: cule.envpool.make("Pong", "gym"), "task id 'Pong'"),
                        (lambda: cule.envpool.make("Pong-v5", "dm"), "dm_env"),
                        (lambda: cule.envpool.make_gym("Pong-v5", stack=4), "unknown option 'stack'"),
                        (lambda: cule.envpool.make_gym("Pong-v5", use_inter_area_resize=False), "INTER_AREA"),
                        (lambda: cule.envpool.make_gym("Pong-v5", num_envs=4, batch_size=3), "batch_size")]:
        with pytest.raises(ValueError, match=match):
            call()


def test_envpool_starts_are_noops_then_fire():
    """conventions="EnvPool": episodes start after 1 .. noop_max frames, NOOPs then FIRE, where
    AtariVectorEnv plays FIRE first: the starts' RAMs are ale-py's after k NOOPs and a FIRE."""
    env = CuleEnv("breakout", 64, noop_max=5, use_fire_reset=True, full_action_space=False, conventions="EnvPool")
    env.reset(seed=0)
    ours = {bytes(r) for r in env.get_ram().numpy()}
    expected = set()
    for noops in range(5):
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(ale_py.roms.get_rom_path("breakout"))
        ale.reset_game()
        for _ in range(noops):
            ale.act(ale_py.Action.NOOP)
        ale.act(ale_py.Action.FIRE)
        expected.add(bytes(ale.getRAM()))
    assert ours == expected


@pytest.mark.parametrize("options, match", [
    (dict(conventions="envpool"), "conventions must be one of"),
    (dict(conventions="EnvPool", noop_max=0), "noop_max must be at least 1"),
    (dict(conventions="EnvPool", noop_max=30, episodic_life=True, autoreset_mode="SameStep"), "NextStep"),
])
def test_conventions_refused(options, match):
    with pytest.raises(ValueError, match=match):
        CuleEnv("pong", 1, **options)
