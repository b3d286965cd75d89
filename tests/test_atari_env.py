"""gymnasium.make("cule/<Game>-v5"): one env with ale-py's AtariEnv interface, against
gymnasium.make("ALE/<Game>-v5") step by step (sticky actions off: their draws are each engine's
own), through episode ends and resets; gymnasium's env checker; gymnasium's own vector envs; ale-py's
older ids (-v0, -v4, NoFrameskip)."""
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import AtariPreprocessing

import ale_py
import cule   # registers cule/<Game>-v5 and ale-py's older ids

gymnasium.register_envs(ale_py)
INFO = ("lives", "episode_frame_number", "frame_number")


@pytest.mark.parametrize("obs_type", ["rgb", "grayscale", "ram"])
def test_steps_as_ale_pys_atari_env(obs_type):
    ale = gymnasium.make("ALE/Breakout-v5", repeat_action_probability=0.0, obs_type=obs_type)
    env = gymnasium.make("cule/Breakout-v5", repeat_action_probability=0.0, obs_type=obs_type)
    assert env.observation_space == ale.observation_space and env.action_space == ale.action_space
    assert env.unwrapped.get_action_meanings() == ale.unwrapped.get_action_meanings()
    a_obs, a_info = ale.reset(seed=3)
    c_obs, c_info = env.reset(seed=3)
    assert np.array_equal(a_obs, c_obs) and c_info == a_info and "seeds" in c_info   # ale-py's seeds too
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(1500):
        action = int(rng.integers(0, env.action_space.n))
        a, c = ale.step(action), env.step(action)
        assert np.array_equal(a[0], c[0]) and a[1:4] == c[1:4] and c[4] == {k: a[4][k] for k in INFO}
        assert type(c[1]) is float and type(c[2]) is bool
        if a[2] or a[3]:
            ends += 1
            assert np.array_equal(ale.reset()[0], env.reset()[0])   # the same console, no seed
    assert ends >= 5


def test_the_lean_step_of_int_actions_is_the_general_steps():
    # An int action takes the lean path (one engine call, no tensors); a 0-d array the general
    # one (CuleEnv.step): the same episodes, through ends and next-step resets.
    lean, general = (gymnasium.make("cule/Breakout-v5").unwrapped for _ in range(2))
    assert np.array_equal(lean.reset(seed=5)[0], general.reset(seed=5)[0])
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(1200):
        action = int(rng.integers(0, lean.action_space.n))
        a, b = lean.step(np.int64(action) if action % 2 else action), general.step(np.array(action))
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:] and type(a[1]) is float
        ends += a[2] or a[3]
    assert ends >= 1
    with pytest.raises(ValueError, match="action"):
        lean.step(lean.action_space.n)   # out of range: the general path's error


def test_the_lean_step_checks_as_the_general_step():
    """The lean path writes out CuleEnv's checks: a step before the first reset, and a step while
    another thread is in a call on the env, are refused with CuleEnv.step()'s errors."""
    import threading
    env = gymnasium.make("cule/Pong-v5").unwrapped
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    env.reset(seed=0)
    errors = []

    def step():
        try:
            env.step(0)
        except RuntimeError as e:
            errors.append(str(e))

    with env._env._in_call:   # this thread is inside a call of the env
        other = threading.Thread(target=step)
        other.start()
        other.join()
    assert errors == ["CuleEnv.step() called while another thread is in a call on this env (pong): use each env "
                      "from one thread at a time"]
    assert env.step(0)[0].shape == (210, 160, 3)   # the lock was let go


def test_passes_gymnasiums_env_checker():
    env = gymnasium.make("cule/Pong-v5", render_mode="rgb_array").unwrapped
    check_env(env, skip_render_check=False)
    env.reset(seed=0)
    assert env.render().shape == (210, 160, 3)


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
def test_gymnasiums_vectorization_modes(mode):
    envs = gymnasium.make_vec("cule/Pong-v5", num_envs=2, vectorization_mode=mode)
    obs, _ = envs.reset(seed=0)
    obs, reward, terminated, truncated, _ = envs.step(np.zeros(2, dtype=np.int64))
    assert obs.shape[0] == 2 and reward.shape == (2,)
    envs.close()


def test_async_steps_as_sync():
    """gymnasium's AsyncVectorEnv (one process per env) gives what its SyncVectorEnv gives."""
    envs = {mode: gymnasium.make_vec("cule/Pong-v5", num_envs=2, vectorization_mode=mode) for mode in ("sync", "async")}
    assert isinstance(envs["async"], gymnasium.vector.AsyncVectorEnv)
    first = [env.reset(seed=0) for env in envs.values()]
    assert np.array_equal(first[0][0], first[1][0])
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = rng.integers(0, 6, 2)
        sync, async_ = (env.step(actions) for env in envs.values())
        assert all(np.array_equal(s, a) for s, a in zip(sync[:4], async_[:4]))
        assert {k: v.tolist() for k, v in sync[4].items()} == {k: v.tolist() for k, v in async_[4].items()}
    for env in envs.values():
        env.close()


def test_v4_steps_as_ale_pys():
    """A stochastic frameskip (-v4: 2 to 4 frames a step), drawn from np_random as ale-py draws it."""
    ale, env = gymnasium.make("Breakout-v4"), gymnasium.make("cule/Breakout-v4")
    assert env.unwrapped._frameskip == ale.unwrapped._frameskip == (2, 5)
    assert np.array_equal(ale.reset(seed=3)[0], env.reset(seed=3)[0])
    rng = np.random.default_rng(3)
    frames = set()
    for _ in range(400):
        action = int(rng.integers(0, env.action_space.n))
        before = env.unwrapped.ale.getEpisodeFrameNumber()
        a, c = ale.step(action), env.step(action)
        assert np.array_equal(a[0], c[0]) and a[1:4] == c[1:4] and c[4] == {k: a[4][k] for k in INFO}
        frames.add(c[4]["episode_frame_number"] - before)
        if a[2] or a[3]:
            break
    assert frames >= {2, 3, 4}


def test_bad_frameskips_are_refused_as_ale_py_refuses_them():
    for frameskip, message in ((0, r"Invalid frameskip of 0"), (4.0, r"Invalid frameskip type"),
                               ((5, 2), r"Invalid stochastic frameskip \(5, 2\)"),
                               ((2, 3, 4), r"Invalid stochastic frameskip")):
        with pytest.raises(gymnasium.error.Error, match=message):
            gymnasium.make("cule/Pong-v5", frameskip=frameskip)


def test_ale_pys_older_ids_have_its_settings():
    """cule/<Game><suffix> for each of ale-py's older ids, with the settings ale-py registers."""
    legacy = [k for k in gymnasium.registry if not k.startswith(("ALE/", "cule/")) and k.endswith(("-v0", "-v4"))
              and gymnasium.spec(k).entry_point == "ale_py.env:AtariEnv"]
    ours = [k for k in gymnasium.registry if k.startswith("cule/") and k.endswith(("-v0", "-v4"))]
    assert len(legacy) == len(ours) == 4 * 62   # ale-py's older games
    for env_id in legacy:
        ours, theirs = gymnasium.spec(f"cule/{env_id}"), gymnasium.spec(env_id)
        assert {k: v for k, v in ours.kwargs.items() if k != "game"} == \
            {k: v for k, v in theirs.kwargs.items() if k != "game"}, env_id
        assert cule.get_game(ours.kwargs["game"]) == cule.get_game(theirs.kwargs["game"]), env_id
        assert ours.vector_entry_point is theirs.vector_entry_point is None


def test_noframeskip_v4_steps_as_ale_pys():
    ale, env = gymnasium.make("BreakoutNoFrameskip-v4"), gymnasium.make("cule/BreakoutNoFrameskip-v4")
    assert env.observation_space == ale.observation_space and env.action_space == ale.action_space
    assert np.array_equal(ale.reset(seed=1)[0], env.reset(seed=1)[0])
    rng = np.random.default_rng(1)
    for _ in range(400):
        action = int(rng.integers(0, env.action_space.n))
        a, c = ale.step(action), env.step(action)
        assert np.array_equal(a[0], c[0]) and a[1:4] == c[1:4] and c[4] == {k: a[4][k] for k in INFO}
        if a[2] or a[3]:
            break


def test_gymnasiums_atari_preprocessing_runs_as_on_ale_py():
    """AtariPreprocessing (no-op starts drawn from the env's np_random, frames read through
    env.unwrapped.ale into its buffers, lives for the terminal life loss) on the NoFrameskip ids."""
    pytest.importorskip("cv2")
    options = dict(noop_max=30, frame_skip=4, terminal_on_life_loss=True)
    ale = AtariPreprocessing(gymnasium.make("BreakoutNoFrameskip-v4"), **options)
    env = AtariPreprocessing(gymnasium.make("cule/BreakoutNoFrameskip-v4"), **options)
    a, c = ale.reset(seed=5), env.reset(seed=5)
    assert np.array_equal(a[0], c[0]) and a[1] == c[1]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(600):
        action = int(rng.integers(0, env.action_space.n))
        a, c = ale.step(action), env.step(action)
        assert np.array_equal(a[0], c[0]) and a[1:] == c[1:]
        if a[2] or a[3]:
            ends += 1
            a, c = ale.reset(), env.reset()
            assert np.array_equal(a[0], c[0]) and a[1] == c[1]
    assert ends >= 3


def test_the_ale_interface_of_one_env():
    """env.unwrapped.ale: ALEInterface's reads and writes as ale-py's give them, its states, and
    clear errors where cule cannot do what it asks."""
    ale, env = gymnasium.make("PongNoFrameskip-v4").unwrapped, gymnasium.make("cule/PongNoFrameskip-v4").unwrapped
    ale.reset(seed=0), env.reset(seed=0)
    for t in range(200):
        action = [0, 1, 3, 4][t % 4]
        assert ale.ale.act(action) == env.ale.act(action)
    theirs, ours = ale.ale, env.ale
    assert ours.getMinimalActionSet() == [a.value for a in theirs.getMinimalActionSet()]
    assert ours.getLegalActionSet() == [a.value for a in theirs.getLegalActionSet()]
    assert ours.getScreenDims() == theirs.getScreenDims() and ours.getRAMSize() == theirs.getRAMSize()
    for read in ("getScreen", "getScreenRGB", "getScreenGrayscale", "getRAM"):
        expected = getattr(theirs, read)()
        assert np.array_equal(getattr(ours, read)(), expected), read
        buffer = np.zeros_like(expected)
        assert getattr(ours, read)(buffer) is None and np.array_equal(buffer, expected), read
    for read in ("lives", "getFrameNumber", "getEpisodeFrameNumber", "game_over"):
        assert getattr(ours, read)() == getattr(theirs, read)(), read
    state = ours.cloneState()
    ours.setRAM(3, 77)
    assert ours.getRAM()[3] == 77
    screens = [env.step(1)[0] for _ in range(20)]
    ours.restoreState(state)
    assert ours.getRAM()[3] != 77 and all(np.array_equal(s, env.step(1)[0]) for s in screens)
    # As ale-py's ALEState: bytes and back, equal when equal, pickled (into another env too).
    assert isinstance(state.serialize(), bytes) and type(state)(state.serialize()) == state != ours.cloneState()
    other = gymnasium.make("cule/PongNoFrameskip-v4").unwrapped
    other.reset(seed=5)
    other.ale.restoreState(pickle.loads(pickle.dumps(state)))
    assert all(np.array_equal(s, other.step(1)[0]) for s in screens)
    with pytest.raises(gymnasium.error.Error, match=r"setRAM takes an index in \[0, 128\) and a byte, got 128, 0"):
        ours.setRAM(128, 0)
    with pytest.raises(gymnasium.error.Error, match=r"action 18 is not one of ALE's actions 0..17"):
        ours.act(18)
    with pytest.raises(gymnasium.error.Error, match=r"the buffer must be uint8 of shape \(210, 160\), got uint8 \(84, 84\)"):
        ours.getScreenGrayscale(np.zeros((84, 84), np.uint8))
    v5 = gymnasium.make("cule/Pong-v5").unwrapped
    v5.reset(seed=0)
    with pytest.raises(gymnasium.error.Error, match="needs an env made with frameskip=1 .* this one skips 4"):
        v5.ale.act(0)


@pytest.mark.parametrize("name", ["Pong", "MsPacman", "Breakout", "Seaquest", "Venture"])
def test_keys_to_action_are_ale_pys(name):
    for full in (False, True):
        ours = gymnasium.make(f"cule/{name}-v5", full_action_space=full).unwrapped.get_keys_to_action()
        assert ours == gymnasium.make(f"ALE/{name}-v5", full_action_space=full).unwrapped.get_keys_to_action()


def test_ale_pys_arguments_are_taken():
    env = gymnasium.make("cule/Pong-v5", continuous=False, continuous_action_threshold=0.3, sound_obs=False)
    assert env.reset(seed=0)[0].shape == (210, 160, 3)


@pytest.mark.parametrize("name, options, reset_seed", [
    # A stochastic frameskip and a frame cap inside steps: ALE's frames after an episode's end
    # run the sound.
    ("MsPacman", dict(frameskip=(2, 5), max_num_frames_per_episode=303), None),
    # Their mode selection plays frames with sound in every reset, DoubleDunk's in an unseeded
    # one too (Berzerk's reset_game lands elsewhere than the reset pool: README, known
    # differences).
    ("DoubleDunk", dict(obs_type="ram"), None),
    ("Berzerk", {}, 9)])
def test_sound_obs_is_ale_pys(name, options, reset_seed):
    """ale-py's sound observation sample for sample, across resets and a restored state (ALE's
    generator runs on through both, and through a reset that is not seeded)."""
    options = dict(sound_obs=True, repeat_action_probability=0.0, **options)
    ale, env = gymnasium.make(f"ALE/{name}-v5", **options), gymnasium.make(f"cule/{name}-v5", **options)
    assert env.observation_space == ale.observation_space

    def same(a, c, what):
        assert a.keys() == c.keys() == {"image", "sound"}, what
        assert np.array_equal(a["image"], c["image"]) and np.array_equal(a["sound"], c["sound"]), what

    same(ale.reset(seed=4)[0], env.reset(seed=4)[0], "seeded reset")
    rng = np.random.default_rng(4)
    loud = 0
    for t in range(400):
        if t == 150:
            same(ale.reset(seed=reset_seed)[0], env.reset(seed=reset_seed)[0], "reset")
        if t == 200:
            saved = ale.unwrapped.ale.cloneState(), env.unwrapped.ale.cloneState()
        if t == 260:
            ale.unwrapped.ale.restoreState(saved[0]), env.unwrapped.ale.restoreState(saved[1])
        action = int(rng.integers(env.action_space.n))
        a, c = ale.step(action), env.step(action)
        same(a[0], c[0], f"step {t}")
        assert a[1:4] == c[1:4]
        assert np.array_equal(ale.unwrapped.ale.getAudio(), env.unwrapped.ale.getAudio())
        loud += bool((c[0]["sound"] != 128).any())
        if a[2] or a[3]:
            same(ale.reset(seed=reset_seed)[0], env.reset(seed=reset_seed)[0], f"reset after step {t}")
    assert loud >= 40


@pytest.mark.parametrize("name", ["Berzerk", "NameThisGame"])
def test_frame_caps_count_the_resets_frames_as_ale_pys(name):
    """ale-py's AtariEnv counts the frames a reset plays (16 games' mode selection: 20 on
    Berzerk, 134 on Name This Game) towards max_num_frames_per_episode."""
    options = dict(repeat_action_probability=0.0, max_num_frames_per_episode=250)
    ale, env = gymnasium.make(f"ALE/{name}-v5", **options), gymnasium.make(f"cule/{name}-v5", **options)
    ale.reset(seed=1), env.reset(seed=1)
    for _ in range(100):
        a, c = ale.step(0), env.step(0)
        assert np.array_equal(a[0], c[0]) and a[1:4] == c[1:4] and c[4] == {k: a[4][k] for k in INFO}
        if a[3]:
            break
    assert a[3] and c[4]["episode_frame_number"] == 250


def test_sound_obs_passes_gymnasiums_env_checker():
    """ale-py's own test of sound_obs (tests/python/test_atari_env.py, test_sound_obs)."""
    with warnings.catch_warnings(record=True) as caught:
        check_env(gymnasium.make("cule/MsPacman-v5", sound_obs=True).unwrapped, skip_render_check=True)
    assert caught == [], [w.message for w in caught]


@pytest.mark.parametrize("name, threshold", [("MsPacman", 0.2), ("MsPacman", 0.8), ("Pong", 0.5), ("Breakout", 0.3)])
def test_continuous_actions_step_as_ale_pys(name, threshold):
    """On a joystick game and on paddle games, where the radius is ALE's paddle strength."""
    options = dict(continuous=True, continuous_action_threshold=threshold, repeat_action_probability=0.0)
    ale, env = gymnasium.make(f"ALE/{name}-v5", **options), gymnasium.make(f"cule/{name}-v5", **options)
    assert env.action_space == ale.action_space
    assert np.array_equal(ale.reset(seed=2)[0], env.reset(seed=2)[0])
    ale.action_space.seed(2)
    for _ in range(300):
        action = ale.action_space.sample()
        a, c = ale.step(action), env.step(action)
        assert np.array_equal(a[0], c[0]) and a[1:4] == c[1:4] and c[4] == {k: a[4][k] for k in INFO}
        if a[2] or a[3]:
            assert np.array_equal(ale.reset()[0], env.reset()[0])
    with pytest.raises(AttributeError, match="can't be provided for this Atari environment as `continuous=True`"):
        env.unwrapped.get_keys_to_action()
    with pytest.raises(ValueError, match=r"continuous actions must be finite, got \[nan, 0.0, 0.0\] for env 0"):
        env.step(np.array([np.nan, 0, 0], np.float32))


def test_paddle_strengths_of_ale_act_are_ale_pys():
    """ale.act(action, paddle_strength) frame by frame: strengths drawn, the edges of their
    truncation (23000 x strength just below an integer), actions outside the minimal set."""
    ale, env = (gymnasium.make(f"{prefix}BreakoutNoFrameskip-v4").unwrapped for prefix in ("", "cule/"))
    ale.reset(seed=1), env.reset(seed=1)
    rng = np.random.default_rng(1)
    edges = [np.nextafter(np.float32(k / 23000), np.float32(0)) for k in (1, 2, 7, 11500)]
    for t in range(400):
        action = int(rng.integers(18))
        strength = float(edges[t % 4] if t % 3 == 0 else rng.uniform(-1, 1))
        assert ale.ale.act(action, strength) == env.ale.act(action, strength)
        assert np.array_equal(ale.ale.getRAM(), env.ale.getRAM()), t
        assert np.array_equal(ale.ale.getScreen(), env.ale.getScreen()), t
        if ale.ale.game_over():
            ale.ale.reset_game(), env.ale.reset_game()


def test_system_states_hold_the_sticky_actions_draws():
    """cloneSystemState, as ALE's, brings back the env's random stream: with sticky actions the
    steps after it repeat; cloneState's do not hold it."""
    env = gymnasium.make("cule/BreakoutNoFrameskip-v4", repeat_action_probability=0.5).unwrapped
    env.reset(seed=3)
    for t in range(50):
        env.step(t % 4)
    state, plain = env.ale.cloneSystemState(), env.ale.cloneState()
    assert len(state.serialize()) == len(plain.serialize()) + 16
    actions = [t % 4 for t in range(100)]
    first = [env.step(a)[0] for a in actions]
    env.ale.restoreSystemState(pickle.loads(pickle.dumps(state)))
    assert all(np.array_equal(f, env.step(a)[0]) for f, a in zip(first, actions))
    env.ale.restoreState(plain)   # the stream goes on: the sticky draws differ
    assert not all(np.array_equal(f, env.step(a)[0]) for f, a in zip(first, actions))


def test_the_modules_for_other_libraries_are_attributes():
    assert cule.wrappers.RecordEpisodeStatistics and cule.video.__name__ == "cule.video"
    with pytest.raises(AttributeError, match="module 'cule' has no attribute 'wrapper'"):
        cule.wrapper
