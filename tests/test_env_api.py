"""CuleEnv's contract: shapes, dtypes, info keys, determinism, and clear errors for bad input."""
import re

import numpy as np
import pytest
import torch

from cule import CuleEnv
from cule.games import get_game
from cule.roms import RomError, check_rom


@pytest.fixture(scope="module")
def pong():
    return CuleEnv("Pong", num_envs=3)


def test_reset_and_step_shapes(pong):
    obs, info = pong.reset(seed=0)
    assert obs.shape == (3, 1, 210, 160, 3) and obs.dtype == torch.uint8
    obs, reward, terminated, truncated, info = pong.step([0, 1, 2])
    assert obs.shape == (3, 1, 210, 160, 3)
    assert reward.shape == terminated.shape == truncated.shape == (3,)
    assert terminated.dtype == truncated.dtype == torch.bool
    for key in ("lives", "frame_number", "episode_frame_number", "env_id"):
        assert info[key].shape == (3,)
    assert info["frame_number"].tolist() == [1, 1, 1]
    assert pong.get_ram().shape == (3, 128) and pong.get_ram().dtype == torch.uint8


def test_every_env_starts_from_ales_post_reset_state(pong):
    obs, _ = pong.reset(seed=5)
    assert torch.equal(obs[0], obs[1]) and torch.equal(obs[1], obs[2])
    ram = pong.get_ram()
    assert torch.equal(ram[0], ram[2])


def test_actions_accepted_as_tensor_array_and_list(pong):
    pong.reset(seed=0)
    for actions in (torch.tensor([3, 3, 3]), np.array([3, 3, 3], dtype=np.int32), [3, 3, 3]):
        pong.step(actions)


def test_same_seed_same_run():
    a = CuleEnv("Breakout", num_envs=2, repeat_action_probability=0.25)
    b = CuleEnv("Breakout", num_envs=2, repeat_action_probability=0.25)
    a.reset(seed=3)
    b.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(50):
        act = rng.integers(0, 18, size=2)
        oa, ra, *_ = a.step(act)
        ob, rb, *_ = b.step(act)
        assert torch.equal(oa, ob) and torch.equal(ra, rb)
    assert torch.equal(a.get_ram(), b.get_ram())


def test_grayscale_observation():
    env = CuleEnv("Breakout", num_envs=1, grayscale=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (1, 1, 210, 160) and obs.dtype == torch.uint8


def test_minimal_action_set():
    env = CuleEnv("pong", num_envs=1, full_action_space=False)
    assert env.action_set == (0, 1, 3, 4, 11, 12)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 6 is out of range: actions are 0\.\.5"):
        env.step([6])


def test_unknown_game_names_the_value_and_the_choices():
    with pytest.raises(ValueError, match=r"'Pongg'.*pong"):
        CuleEnv("Pongg")
    with pytest.raises(ValueError, match=r"a game is named by a string, got int 3"):
        CuleEnv(3)


@pytest.mark.parametrize("name", ["ms_pacman", "MsPacman", "ALE/MsPacman-v5", "MSPACMAN", "mspacman", "Ms_Pacman"])
def test_game_names_in_any_case(name):
    assert get_game(name).id == "ms_pacman"


def test_roms_without_settings_are_refused_in_any_case():
    with pytest.raises(ValueError, match=r"ships a ROM for 'maze_craze' but has no game settings"):
        get_game("MAZECRAZE")


@pytest.mark.parametrize("n", [0, -4, 2.5, True])
def test_bad_num_envs(n):
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        CuleEnv("Pong", num_envs=n)


def test_bad_actions(pong):
    pong.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 18 is out of range"):
        pong.step([0, 18, 0])
    with pytest.raises(ValueError, match=r"action -1 is out of range"):
        pong.step([0, -1, 0])
    with pytest.raises(ValueError, match=r"shape \(3,\), got \(2,\)"):
        pong.step([0, 1])
    with pytest.raises(ValueError, match="must be integers, got dtype float"):
        pong.step(np.zeros(3))


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
@pytest.mark.parametrize("threads", [-1, 0, 1.5, True])
def test_bad_num_threads(backend, threads):
    with pytest.raises(ValueError, match=f"num_threads must be a positive integer up to 1,024, got {threads!r}"):
        CuleEnv("pong", device="cpu", backend=backend, num_threads=threads)


def test_missing_device_is_a_clear_error():
    with pytest.raises(ValueError, match="device 'cuda' is not available"):
        CuleEnv("Pong", device="cuda")


def test_rom_with_wrong_md5_is_refused(tmp_path):
    game = get_game("pong")
    with pytest.raises(RomError, match=f"expects {game.md5}"):
        check_rom(game, b"\x00" * 2048)
    bad = tmp_path / "pong.bin"
    bad.write_bytes(b"\xea" * 2048)
    with pytest.raises(RomError, match="md5"):
        CuleEnv("Pong", rom_path=str(bad))


def test_truncation_then_next_step_autoreset():
    env = CuleEnv("Pong", num_envs=2, max_num_frames_per_episode=10)
    first, _ = env.reset(seed=0)
    for step in range(1, 11):
        obs, reward, terminated, truncated, info = env.step([3, 4])
        assert truncated.tolist() == [step == 10] * 2 and not terminated.any()
    assert info["episode_frame_number"].tolist() == [10, 10]
    obs, reward, terminated, truncated, info = env.step([3, 4])   # starts the next episode
    assert torch.equal(obs, first) and reward.tolist() == [0.0, 0.0]
    assert info["episode_frame_number"].tolist() == [0, 0] and not truncated.any()


def test_states_round_trip(pong):
    pong.reset(seed=0)
    for _ in range(20):
        pong.step([1, 3, 4])
    states, ram = pong.get_states(), pong.get_ram()
    after_20 = pong.step([2, 2, 2])[0]
    pong.set_states(states)
    assert torch.equal(pong.get_ram(), ram)
    assert torch.equal(pong.step([2, 2, 2])[0], after_20)


def test_frame_stack_shifts_and_returns_fresh_tensors():
    env = CuleEnv("Breakout", num_envs=2, stack_num=4, grayscale=True)
    first, _ = env.reset(seed=0)
    # As AtariVectorEnv: a new stack is zeros, then the episode's first frame.
    assert first.shape == (2, 4, 210, 160) and not first[:, :3].any() and first[:, 3].any()
    previous = first.clone()
    for _ in range(5):
        obs = env.step([1, 3])[0]
        assert torch.equal(obs[:, :3], previous[:, 1:])
        previous = obs.clone()
    obs.zero_()   # the caller's tensor: changing it changes nothing inside the env
    assert torch.equal(env.step([0, 0])[0][:, :3], previous[:, 1:])


def _tensors(value):
    """The tensors in an output: a tensor, or those of a tuple or a dict, nested."""
    if isinstance(value, torch.Tensor):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else []
    return [t for item in items for t in _tensors(item)]


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
@pytest.mark.parametrize("num_envs", [1, 3])
@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_every_tensor_handed_out_keeps_its_values(backend, num_envs, autoreset_mode):
    # Later steps, resets (episodes of 24 frames) and reads never write into a tensor handed out:
    # with one env the CUDA backend's info counters were views of its state.
    env = CuleEnv("breakout", num_envs, device="cpu", backend=backend, frameskip=4, grayscale=True, img_height=42,
                  img_width=32, stack_num=2, autoreset_mode=autoreset_mode, max_num_frames_per_episode=24)
    handed_out = []
    def keep(output):
        handed_out.extend((t, t.clone()) for t in _tensors(output))
    keep(env.reset(seed=0))
    for step in range(16):
        keep(env.step([1 + step % 3] * num_envs))
        keep((env.get_ram(), env.get_states(), env.get_screens()))
    assert len(handed_out) > 16 * 8
    assert all(torch.equal(t, copy) for t, copy in handed_out)


def test_set_ram_checks_shape_dtype_and_ids():
    env = CuleEnv("pong", num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"ram must be uint8 of shape \(1, 128\), got int64 \(1, 128\)"):
        env.set_ram(np.zeros((1, 128), dtype=np.int64), env_ids=[1])
    with pytest.raises(ValueError, match=r"env id 2 is out of range: ids are 0..1"):
        env.set_ram(np.zeros((1, 128), dtype=np.uint8), env_ids=[2])
    ram = env.get_ram()
    ram[1, 5] = 77
    env.set_ram(ram[1:], env_ids=[1])
    assert env.get_ram()[1, 5] == 77 and torch.equal(env.get_ram()[0], ram[0])


def test_ram_observations_are_the_ram_after_each_step():
    env = CuleEnv("breakout", num_envs=3, obs_type="ram", stack_num=2, frameskip=4)
    assert env.single_observation_space.shape == (2, 128)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (3, 2, 128) and not obs[:, 0].any() and torch.equal(obs[:, 1], env.get_ram())
    previous = obs[:, 1]
    for _ in range(20):
        obs, *_ = env.step([1, 3, 4])
        assert torch.equal(obs[:, 0], previous) and torch.equal(obs[:, 1], env.get_ram())
        previous = obs[:, 1]


def test_unknown_obs_type_is_refused():
    with pytest.raises(ValueError, match=r"obs_type must be one of \('pixels', 'ram'\), got 'rgb'"):
        CuleEnv("pong", obs_type="rgb")


def test_cuda_step_chooses_the_cuda_backends_kernels():
    with pytest.raises(ValueError,
                       match=r"cuda_step must be one of \('split', 'in-passes', 'one-kernel'\), got 'fast'"):
        CuleEnv("pong", device="cpu", backend="cuda", cuda_step="fast")
    with pytest.raises(ValueError, match=r"cuda_step 'in-passes' chooses the CUDA backend's kernels; this env's "
                                         r"backend is 'cpu' \(pass backend='cuda' to run them on the host\)"):
        CuleEnv("pong", device="cpu", cuda_step="in-passes")
    for step, split, warps in (("split", True, False), ("in-passes", True, True), ("one-kernel", False, False)):
        env = CuleEnv("pong", device="cpu", backend="cuda", cuda_step=step)
        assert env.cuda_step == step
        assert (env._backend.split_render, env._backend.warp_schedule) == (split, warps)
    assert CuleEnv("pong", device="cpu", backend="cuda").cuda_step == "in-passes"   # the fastest on a GPU
    assert CuleEnv("pong", device="cpu").cuda_step is None   # the CPU backend has no such choice


def test_set_reset_states_restarts_episodes_from_captured_states():
    env = CuleEnv("breakout", num_envs=4, frameskip=4)
    env.reset(seed=0)
    for _ in range(30):
        env.step([1, 3, 4, 0])
    captured = env.get_states()[2:3]
    ram = env.get_ram()[2].clone()
    env.set_reset_states(captured)
    env.reset(options={"reset_mask": np.array([True, True, False, False])})
    assert torch.equal(env.get_ram()[0], ram) and torch.equal(env.get_ram()[1], ram)
    assert torch.equal(env.get_states()[0], env.get_states()[1])
    with pytest.raises(ValueError, match="states must be uint8 of shape"):
        env.set_reset_states(np.zeros((1, 10), dtype=np.uint8))


@pytest.mark.parametrize("settings", [dict(), dict(grayscale=True, img_height=84, img_width=84, stack_num=4, maxpool=True,
                                                   repeat_action_probability=0.25, noop_max=30)])
def test_steps_timed_apart_are_the_steps_in_one_task(settings):
    # Without a phase timer the CPU backend steps each env and advances its stack in one task;
    # with one, in two passes: the same episodes, through ends (truncations at 600 frames).
    from cule.profiling import PhaseTimer
    one_task, apart = (CuleEnv("breakout", num_envs=6, num_threads=2, frameskip=4, max_num_frames_per_episode=600,
                               **settings) for _ in range(2))
    apart.phase_timer = PhaseTimer(apart.device)
    for env in (one_task, apart):
        env.reset(seed=4)
    rng = np.random.default_rng(2)
    ends = 0
    for _ in range(400):
        actions = torch.from_numpy(rng.integers(0, one_task.single_action_space.n, 6))
        a, b = one_task.step(actions), apart.step(actions)
        for x, y in zip(a[:4], b[:4]):
            assert torch.equal(x, y)
        ends += int((a[2] | a[3]).sum())
    assert ends >= 6


def test_phase_timer_times_the_env_and_the_caller():
    from cule.profiling import PhaseTimer
    env = CuleEnv("pong", num_envs=2, frameskip=4)
    timer = PhaseTimer(env.device)
    env.phase_timer = timer
    env.reset(seed=0)
    for _ in range(3):
        with timer("inference"):
            actions = torch.zeros(2, dtype=torch.int64)
        env.step(actions)
    seconds = timer.seconds()
    assert set(seconds) == {"emulation", "rendering", "inference"}
    assert seconds["emulation"] > 0 and seconds["rendering"] > 0
    assert "emulation" in timer.report() and "(" in timer.report()
    timer.reset()
    assert timer.seconds() == {}
    env.phase_timer = None   # timing off again: the env steps as before
    env.step(torch.zeros(2, dtype=torch.int64))
    assert timer.seconds() == {}


def test_actions_checked_on_the_device_fail_at_a_later_step_and_run_no_env():
    """On a GPU the range of device-tensor actions is checked there and read back without
    waiting; the CPU backend runs the same path when asked (its results are on the host at once,
    so the next call raises)."""
    env = CuleEnv("pong", num_envs=3, frameskip=4)
    env._check_actions_on_device = True
    env.reset(seed=0)
    env.step(torch.tensor([0, 1, 2]))
    before = env.get_states()
    _, reward, terminated, truncated, _ = env.step(torch.tensor([0, 1, -1]))   # no error yet
    assert torch.equal(env.get_states(), before)   # and no env stepped
    assert not (reward.any() or terminated.any() or truncated.any())
    with pytest.raises(ValueError, match=r"action -1 is out of range: actions are 0..17 \(full action set of pong\); "
                                         "that step and any after it ran no environment"):
        env.step(torch.tensor([0, 1, 2]))
    assert torch.equal(env.get_states(), before)
    env.reset(seed=0)
    env.step(torch.tensor([3, 4, 5]))   # the error is cleared: envs step again
    assert not torch.equal(env.get_states(), before)


def test_full_size_observations_are_the_screens_through_ales_palette():
    from cule import _core
    rgb, grey = CuleEnv("ms_pacman", num_envs=3, frameskip=4), CuleEnv("ms_pacman", num_envs=3, frameskip=4,
                                                                         grayscale=True)
    rgb.reset(seed=0), grey.reset(seed=0)
    palette, greys = _core.palette_rgb().astype(np.uint8), _core.palette_grey()
    for action in np.random.default_rng(0).integers(0, 18, size=(25, 3)):
        obs_rgb, obs_grey = rgb.step(action)[0], grey.step(action)[0]
        screens = rgb.get_screens().numpy()
        assert np.array_equal(obs_rgb[:, 0].numpy(), palette[screens])
        assert np.array_equal(obs_grey[:, 0].numpy(), greys[screens])


@pytest.mark.parametrize("option, value, message", [
    ("frameskip", 2**31, "frameskip must be a positive integer up to 1,000, got 2147483648"),
    ("max_num_frames_per_episode", 2**31,
     "max_num_frames_per_episode must be an integer from 0 up to 2,147,483,647, got 2147483648"),
    ("noop_max", "30", "noop_max must be an integer from 0 up to 1,000, got '30'"),
    ("noop_max", 10**6, "noop_max must be an integer from 0 up to 1,000, got 1000000"),
    ("num_envs", 10**9, "num_envs must be a positive integer up to 1,048,576, got 1000000000"),
    ("stack_num", 4.0, "stack_num must be a positive integer up to 64, got 4.0"),
])
def test_integer_options_are_checked_against_their_range(option, value, message):
    """Each fails at once with its range, not in pybind11, numpy or after minutes of no-op starts."""
    with pytest.raises(ValueError, match=re.escape(message)):
        CuleEnv("pong", device="cpu", **{option: value})


@pytest.mark.parametrize("seed", ["123", 1.5, [1.9, 2.9, 3.9], -1, [True, 1, 2], [1, 2, -3]])
def test_seeds_that_are_not_non_negative_ints_are_refused(seed):
    env = CuleEnv("pong", num_envs=3, device="cpu")
    with pytest.raises(ValueError, match=r"seed must be a non-negative int or a sequence of them"):
        env.reset(seed=seed)
    env.reset(seed=np.array([1, 2, 3]))   # arrays and tensors of ints are seeds
    env.reset(seed=torch.tensor([1, 2, 3]))


def test_a_bool_mask_is_not_taken_for_env_ids():
    env = CuleEnv("pong", num_envs=3, device="cpu")
    env.reset(seed=0)
    ram = np.zeros((2, 128), np.uint8)
    with pytest.raises(ValueError, match=r"env_ids must be integer ids, got dtype bool \(for a mask, pass np\.flatnonzero"):
        env.set_ram(ram, env_ids=np.array([True, False, True]))
    with pytest.raises(ValueError, match="env_ids must be integer ids, got dtype float64"):
        env.set_ram(ram, env_ids=[0.0, 2.0])
    env.set_ram(ram, env_ids=np.flatnonzero([True, False, True]))
    assert (env.get_ram()[[0, 2]] == 0).all()


def test_a_closed_env_says_so():
    import gymnasium
    env = CuleEnv("pong", num_envs=2, device="cpu")
    env.reset(seed=0)
    env.close()
    calls = [lambda: env.reset(seed=0), lambda: env.step(np.zeros(2, np.int64)), env.get_ram, env.render,
             env.get_states]
    for call in calls:
        with pytest.raises(gymnasium.error.ClosedEnvironmentError, match=r"this CuleEnv \(pong\) is closed"):
            call()


def test_reading_before_reset_says_so():
    """Before the first reset() there are no episodes: calls that read or step them say so (they
    returned zeros before)."""
    import gymnasium
    env = CuleEnv("pong", num_envs=2, device="cpu")
    for name, call in [("step", lambda: env.step([0, 0])), ("render", env.render), ("get_ram", env.get_ram),
                       ("get_screens", env.get_screens), ("get_states", env.get_states),
                       ("set_ram", lambda: env.set_ram(np.zeros((2, 128), np.uint8)))]:
        with pytest.raises(gymnasium.error.ResetNeeded, match=rf"call reset\(\) before {name}\(\)"):
            call()
    env.reset(seed=0)
    assert np.stack(env.render()).shape == (2, 210, 160, 3)


def test_a_call_from_a_second_thread_is_refused():
    """The engine steps without the GIL: two threads in one env at once would corrupt it (frame
    counters were seen to lose steps), so the second is refused."""
    import threading
    env = CuleEnv("pong", num_envs=2, device="cpu", num_threads=1)
    env.reset(seed=0)
    errors = []

    def step():
        try:
            env.step([0, 0])
        except RuntimeError as e:
            errors.append(str(e))

    with env._in_call:   # this thread is inside a call of the env
        other = threading.Thread(target=step)
        other.start()
        other.join()
    assert errors == ["CuleEnv.step() called while another thread is in a call on this env (pong): use each env "
                      "from one thread at a time"]
    # Two threads stepping freely: every step either runs whole or is refused, none is lost.
    done = []

    def steps():
        for _ in range(200):
            try:
                env.step([0, 0])
                done.append(1)
            except RuntimeError:
                pass

    threads = [threading.Thread(target=steps) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert env._info()["frame_number"].tolist() == [len(done)] * 2


def test_an_env_cannot_be_pickled_or_copied():
    import copy
    import pickle
    env = CuleEnv("pong", num_envs=1, device="cpu")
    for call in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="a CuleEnv cannot be pickled or copied: .* restore them with set_states"):
            call(env)


@pytest.mark.parametrize("split_render", [False, True])
def test_threads_give_the_same_bytes(split_render):
    """The backend's threads (bindings/thread_pool.h) change nothing but the speed: 7 envs
    on 3 threads, then on 1, give the same observations, rewards, flags and whole states."""
    runs = []
    for threads in (3, 1):
        env = CuleEnv("breakout", num_envs=7, device="cpu", num_threads=threads, frameskip=4, grayscale=True,
                      img_height=84, img_width=84, stack_num=4, maxpool=True, repeat_action_probability=0.25,
                      max_num_frames_per_episode=300)
        env._backend._vec.split_render = split_render
        env.reset(seed=3)
        rng = np.random.default_rng(0)
        out = []
        for _ in range(120):
            obs, reward, terminated, truncated, _ = env.step(rng.integers(0, 4, 7))
            out.append((obs, reward, terminated, truncated))
        runs.append((out, env.get_states()))
    (a, states_a), (b, states_b) = runs
    for step, (x, y) in enumerate(zip(a, b)):
        assert all(torch.equal(u, v) for u, v in zip(x, y)), f"step {step}"
    assert torch.equal(states_a, states_b)


def test_no_two_games_share_a_name_in_any_case():
    from cule.games import _CATALOGUE, _folded
    owners = {}
    for game in _CATALOGUE:
        for name in (game.id, game.name):
            owner = owners.setdefault(_folded(name), game.id)
            assert owner == game.id, f"{name!r} folds onto {owner!r}'s name"


def test_every_option_is_described_in_the_class_docstring():
    import inspect
    options = [name for name in inspect.signature(CuleEnv.__init__).parameters if name not in ("self", "unknown")]
    described = CuleEnv.__doc__.split("Options")[1]
    missing = [name for name in options if not re.search(rf"\b{name}\b", described)]
    assert not missing, f"not in CuleEnv's docstring: {missing}"
