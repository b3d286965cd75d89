"""CuleEnv against ale-py's AtariVectorEnv on the CPU backend, step by step with the same actions:
observations, rewards, terminated, truncated and every info key, for both autoreset modes,
reward clipping, the frame cap, episodic life, life-loss terminations, fire reset, max-pooling,
resized frames, partial resets and the gymnasium registrations.

Both run without the randomness they cannot share (sticky actions, noop starts). NameThisGame's
reset counts 134 frames: the frame cap still counts the frames stepped, as in AtariVectorEnv.
On the step that ends an episode AtariVectorEnv shows the previous step's frame again (its
frameskip loop stops before it captures the screen), max-pooled with the step's next-to-last
frame where the episode ended on the step's last frame: so does cule, unless show_end_frame.
"""
import gymnasium
import numpy as np
import pytest
import torch
from ale_py.vector_env import AtariVectorEnv

from cule import GAMES, CuleEnv

SHARED = dict(frameskip=4, repeat_action_probability=0.0, noop_max=0, use_fire_reset=False, maxpool=False,
              img_height=210, img_width=160, grayscale=True, stack_num=4, full_action_space=False,
              max_num_frames_per_episode=600, reward_clipping=True)
NUM_ENVS = 4


def both(game="breakout", **options):
    kw = {**SHARED, **options}
    return AtariVectorEnv(game, NUM_ENVS, **kw), CuleEnv(game, NUM_ENVS, **kw)


def _host(x):
    """numpy, whether the env gave a tensor (CuleEnv's default) or an array (make_vec's)."""
    return x.numpy() if hasattr(x, "numpy") else x


def assert_same_outcome(ale_out, cule_out):
    """Rewards, terminated, truncated and every info key but final_obs equal, of the same dtypes."""
    _, a_reward, a_term, a_trunc, a_info = ale_out
    _, c_reward, c_term, c_trunc, c_info = cule_out
    assert np.array_equal(a_reward, _host(c_reward)) and a_reward.dtype == _host(c_reward).dtype
    assert np.array_equal(a_term, _host(c_term)) and np.array_equal(a_trunc, _host(c_trunc))
    assert a_term.dtype == _host(c_term).dtype == a_trunc.dtype == _host(c_trunc).dtype
    assert set(a_info) == set(c_info)
    for key in set(a_info) - {"final_obs"}:
        assert np.array_equal(a_info[key], _host(c_info[key])), key
        assert a_info[key].dtype == _host(c_info[key]).dtype, key


def episode_over(out, episodic_life=False):
    """Truncated, game over (no lives left), or with episodic_life any termination; a life lost
    under life_loss_info alone sets terminated while the game goes on."""
    _, _, terminated, truncated, info = out
    return truncated | (terminated & ((info["lives"] == 0) | episodic_life))


def assert_same_step(ale_out, cule_out):
    assert_same_outcome(ale_out, cule_out)
    assert np.array_equal(ale_out[0], _host(cule_out[0]))


class EpisodeEnds:
    """Counts the episodes that end, and those that end on a step's last frame (AtariVectorEnv
    then max-pools the frame before the step with the step's next-to-last one)."""

    def __init__(self, info, frameskip=4, episodic_life=False):
        self.frameskip, self.episodic_life = frameskip, episodic_life
        self.frames = info["episode_frame_number"]
        self.total = self.on_last_frame = 0

    def count(self, out):
        over = episode_over(out, self.episodic_life)
        frames = out[4]["episode_frame_number"]
        self.total += over.sum()
        self.on_last_frame += (over & (frames - self.frames == self.frameskip)).sum()
        self.frames = frames


@pytest.mark.parametrize("game, options", [
    ("breakout", {}), ("space_invaders", {"reward_clipping": True}), ("space_invaders", {"reward_clipping": False}),
    ("breakout", {"episodic_life": True}), ("breakout", {"life_loss_info": True}),
    ("breakout", {"use_fire_reset": True}), ("name_this_game", {}),
    ("breakout", {"maxpool": True}), ("space_invaders", {"maxpool": True, "grayscale": False}),
    ("ms_pacman", {"maxpool": True, "grayscale": False}),   # its reset frame must not be pooled
    # Frames shrunk with OpenCV's INTER_AREA: AtariVectorEnv's 84 x 84 and another size, RGB;
    # whole scales (OpenCV's block sums): 2 x 2 blocks (rounded halves up), 3 x 2, 1 x 2, 5 x 5.
    ("breakout", {"maxpool": True, "use_fire_reset": True, "img_height": 84, "img_width": 84}),
    ("space_invaders", {"img_height": 100, "img_width": 120, "grayscale": False}),
    ("space_invaders", {"maxpool": True, "img_height": 105, "img_width": 80}),
    ("ms_pacman", {"maxpool": True, "img_height": 105, "img_width": 80, "grayscale": False}),
    ("breakout", {"img_height": 70, "img_width": 80, "grayscale": False}),
    ("space_invaders", {"img_height": 210, "img_width": 80}),
    ("breakout", {"img_height": 42, "img_width": 32}),
    # Other displays: PAL (250 rows, its palette) shrunk and at full size; 214 rows from line 26.
    ("king_kong", {"maxpool": True, "img_height": 84, "img_width": 84}),
    ("king_kong", {"img_height": 250, "grayscale": False}),
    ("carnival", {"maxpool": True, "img_height": 84, "img_width": 84}),
])
def test_next_step_autoreset_as_atari_vector_env(game, options):
    ale, cule = both(game, **options)
    a_obs, a_info = ale.reset(seed=0)
    c_obs, c_info = cule.reset(seed=0)
    assert np.array_equal(a_obs, c_obs.numpy())
    assert all(np.array_equal(a_info[k], c_info[k].numpy()) for k in a_info)
    rng = np.random.default_rng(0)
    seen = {"terminated": 0, "truncated": 0, "reward > 1": 0, "terminated with lives": 0}
    ends = EpisodeEnds(a_info, episodic_life=options.get("episodic_life", False))
    for _ in range(420):
        actions = rng.integers(0, cule.single_action_space.n, size=NUM_ENVS)
        ale_out, cule_out = ale.step(actions), cule.step(actions)
        assert_same_step(ale_out, cule_out)
        ends.count(ale_out)
        seen["terminated"] += ale_out[2].sum()
        seen["truncated"] += ale_out[3].sum()
        seen["reward > 1"] += (cule_out[1] > 1).sum().item()
        seen["terminated with lives"] += (ale_out[2] & (ale_out[4]["lives"] > 0)).sum()
    # Breakout's games end before the cap, Space Invaders' reach it; single lives never do.
    assert seen["terminated"] or game != "breakout"
    assert seen["truncated"] or options.get("episodic_life")
    if game == "space_invaders":   # rewards of 5 to 30 points, unless clipped
        assert (seen["reward > 1"] > 0) == (not {**SHARED, **options}["reward_clipping"])
    life_loss_ends = options.get("episodic_life") or options.get("life_loss_info")
    assert (seen["terminated with lives"] > 0) == bool(life_loss_ends)
    # Both kinds of end: on a step's last frame (truncations always) and before it.
    assert ends.on_last_frame > 0 or options.get("episodic_life")
    assert ends.total > ends.on_last_frame or game != "breakout"


@pytest.mark.parametrize("options", [{}, {"maxpool": True, "img_height": 84, "img_width": 84}])
def test_same_step_autoreset_as_atari_vector_env(options):
    ale, cule = both(autoreset_mode="SameStep", **options)
    assert cule.metadata["autoreset_mode"] == ale.metadata["autoreset_mode"]
    ale.reset(seed=0)
    cule.reset(seed=0)
    rng = np.random.default_rng(1)
    final_steps = 0
    for _ in range(420):
        actions = rng.integers(0, cule.single_action_space.n, size=NUM_ENVS)
        ale_out, cule_out = ale.step(actions), cule.step(actions)
        assert_same_outcome(ale_out, cule_out)
        # The returned observation already belongs to the next episode: equal everywhere.
        assert np.array_equal(ale_out[0], cule_out[0].numpy())
        a_info, c_info = ale_out[4], cule_out[4]
        assert ("final_obs" in a_info) == ("final_obs" in c_info)
        if "final_obs" in a_info:   # the ended episodes' last observations (other rows: unspecified)
            final_steps += 1
            over = episode_over(ale_out)
            assert np.array_equal(a_info["final_obs"][over], c_info["final_obs"][over].numpy())
    assert final_steps > 3


def test_maxpool_with_frameskip_1_is_the_last_frame_as_atari_vector_env():
    ale, cule = both("space_invaders", maxpool=True, frameskip=1)
    a_obs, _ = ale.reset(seed=0)
    c_obs, _ = cule.reset(seed=0)
    assert np.array_equal(a_obs, c_obs.numpy())
    for action in np.random.default_rng(2).integers(0, 6, size=200):
        actions = np.full(NUM_ENVS, action)
        assert np.array_equal(ale.step(actions)[0], cule.step(actions)[0].numpy())


def test_partial_reset_as_atari_vector_env():
    ale, cule = both()
    ale.reset(seed=0)
    cule.reset(seed=0)
    actions = np.array([1, 2, 3, 0])
    for _ in range(30):
        ale.step(actions)
        before = cule.step(actions)[0]
    mask = np.array([False, True, False, True])
    a_obs, a_info = ale.reset(options={"reset_mask": mask})
    c_obs, c_info = cule.reset(options={"reset_mask": mask})
    assert np.array_equal(a_obs, c_obs.numpy())
    assert all(np.array_equal(a_info[k], c_info[k].numpy()) for k in a_info)
    assert torch.equal(c_obs[~mask], before[~mask])           # the others keep their observation
    assert not c_obs[mask, :3].any() and c_obs[mask, 3].any()  # a new stack: zeros, then one frame
    for _ in range(20):
        assert_same_step(ale.step(actions), cule.step(actions))


@pytest.mark.parametrize("options", [{}, {"maxpool": True, "img_height": 84, "img_width": 84}])
def test_reset_mask_keeps_an_ended_episodes_observation(options):
    """An env whose episode ended, left out of a reset mask, keeps AtariVectorEnv's observation
    of its end until its next step resets it."""
    ale, cule = both("space_invaders", **options)
    ale.reset(seed=0)
    cule.reset(seed=0)
    actions = np.zeros(NUM_ENVS, dtype=np.int64)
    while True:
        ale_out = ale.step(actions)
        assert_same_step(ale_out, cule.step(actions))
        over = episode_over(ale_out)
        if over.any():
            break
    mask = ~over
    a_obs, _ = ale.reset(options={"reset_mask": mask})
    c_obs, _ = cule.reset(options={"reset_mask": mask})
    assert np.array_equal(a_obs, c_obs.numpy())
    assert np.array_equal(a_obs[over], ale_out[0][over])
    for _ in range(3):
        assert_same_step(ale.step(actions), cule.step(actions))


def test_show_end_frame_shows_the_frame_the_episode_ended_on():
    options = dict(stack_num=1, grayscale=False, maxpool=False)
    shown, vector = (CuleEnv("breakout", NUM_ENVS, **{**SHARED, **options, "show_end_frame": end})
                     for end in (True, False))
    shown.reset(seed=0)
    previous, _ = vector.reset(seed=0)
    rng = np.random.default_rng(4)
    ends = differ = 0
    for _ in range(300):
        actions = rng.integers(0, 4, size=NUM_ENVS)
        s_out, v_out = shown.step(actions), vector.step(actions)
        over = (s_out[2] | s_out[3]).numpy()
        assert torch.equal(s_out[0][~over], v_out[0][~over])
        frames = np.stack(shown.render())
        for i in np.flatnonzero(over):
            assert np.array_equal(s_out[0][i, 0].numpy(), frames[i])
            assert torch.equal(v_out[0][i], previous[i])
            differ += not torch.equal(s_out[0][i], v_out[0][i])
        ends += over.sum()
        previous = v_out[0]
    assert ends > 3 and differ > 0


@pytest.mark.parametrize("output", ["numpy", "torch"])
def test_batches_give_each_env_what_the_whole_env_gives(output):
    """batch_size < num_envs, as AtariVectorEnv's test of it: each env's results, batch by batch,
    are those of the env stepping all envs with the same actions (sticky actions and no-op
    starts included)."""
    whole = gymnasium.make_vec("cule/Breakout-v5", 8, output=output)
    batched = gymnasium.make_vec("cule/Breakout-v5", 8, batch_size=4, output=output)
    assert batched.num_envs == 8 and batched.action_space.shape == (4,) and batched.observation_space.shape[0] == 4
    results = [whole.reset(seed=5)]
    obs, info = batched.reset(seed=5)
    steps_done = np.zeros(8, dtype=int)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 4, size=(80, 8))
    for t in range(80):
        ids = _host(info["env_id"])
        assert len(ids) == 4
        for k, i in enumerate(ids):
            expected = results[steps_done[i]]
            assert np.array_equal(_host(obs[k]), _host(expected[0][i]))
            for key in ("lives", "episode_frame_number"):
                assert _host(info[key])[k] == _host(expected[-1][key])[i]
            if steps_done[i]:
                assert _host(rewards[k]) == _host(expected[1][i])
                assert _host(terminated[k]) == _host(expected[2][i]) and _host(truncated[k]) == _host(expected[3][i])
        steps_done[ids] += 1
        results.append(whole.step(actions[t]))
        obs, rewards, terminated, truncated, info = batched.step(actions[steps_done[ids] - 1, ids])
    assert steps_done.min() >= 39


def test_batches_refuse_what_they_cannot_give():
    env = gymnasium.make_vec("cule/Pong-v5", 4, batch_size=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"reset_mask needs every env's observation, which batch_size < num_envs"):
        env.reset(options={"reset_mask": np.array([True, False, False, False])})
    with pytest.raises(ValueError, match=r"send takes one action per env id of 0 .. 3, got 3 actions"):
        env.step(np.zeros(3, dtype=np.int64))
    env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(RuntimeError, match=r"send\(\) each of them an action first"):
        env.recv()
    env.send(np.zeros(2, dtype=np.int64), env_id=[2, 3])   # EnvPool's call: all four have actions
    assert env.recv()[-1]["env_id"].tolist() == [0, 1]
    env.send(np.zeros(2, dtype=np.int64))   # 0 and 1 have actions; a reset drops them
    assert env.reset(seed=1)[1]["env_id"].tolist() == [0, 1]
    env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(RuntimeError, match="send\\(\\) each of them an action first"):
        env.recv()


def test_spaces_as_atari_vector_env():
    for grayscale, size in ((True, 84), (False, 100)):
        ale, cule = both(grayscale=grayscale, stack_num=2, img_height=size, img_width=size)
        assert cule.single_observation_space == ale.single_observation_space
        assert cule.observation_space == ale.observation_space
        assert cule.single_action_space == ale.single_action_space
        assert cule.action_space == ale.action_space
        obs, _ = cule.reset(seed=0)
        assert cule.observation_space.contains(obs.numpy())


def test_every_game_is_registered_as_ale_py_registers_it():
    for game in GAMES.values():
        ours, theirs = gymnasium.spec(f"cule/{game.name}-v5"), gymnasium.spec(f"ALE/{game.name}-v5")
        assert ours.kwargs == theirs.kwargs
    for name in ("Pong", "MsPacman", "Seaquest"):
        cule_env, ale_env = gymnasium.make_vec(f"cule/{name}-v5", 2), gymnasium.make_vec(f"ALE/{name}-v5", 2)
        for attribute in ("single_observation_space", "single_action_space", "observation_space", "action_space"):
            assert getattr(cule_env, attribute) == getattr(ale_env, attribute), attribute
        assert cule_env.metadata["autoreset_mode"] == ale_env.metadata["autoreset_mode"]
        (c_obs, c_info), (a_obs, a_info) = cule_env.reset(seed=0), ale_env.reset(seed=0)
        assert type(c_obs) is type(a_obs) is np.ndarray and c_obs.shape == a_obs.shape and c_obs.dtype == a_obs.dtype
        assert all(type(c_info[k]) is np.ndarray and c_info[k].dtype == a_info[k].dtype for k in a_info)
        assert set(c_info) == set(a_info)


def test_make_vec_steps_as_ale_py():
    """make_vec with the v5 registration and AtariVectorEnv's defaults (84 x 84 grey frames,
    stacks of 4, max-pooling, fire reset, clipped rewards), without sticky actions and noops."""
    deterministic = dict(repeat_action_probability=0.0, noop_max=0)
    cule_env = gymnasium.make_vec("cule/Breakout-v5", NUM_ENVS, **deterministic)
    ale_env = gymnasium.make_vec("ALE/Breakout-v5", NUM_ENVS, **deterministic)
    a_obs, a_info = ale_env.reset(seed=0)
    assert np.array_equal(a_obs, cule_env.reset(seed=0)[0])
    rng = np.random.default_rng(3)
    ends = EpisodeEnds(a_info)
    for _ in range(300):
        actions = rng.integers(0, 4, size=NUM_ENVS)
        ale_out = ale_env.step(actions)
        assert_same_step(ale_out, cule_env.step(actions))
        ends.count(ale_out)
    assert ends.on_last_frame > 0 and ends.total > ends.on_last_frame


def test_render_gives_rgb_frames_of_chosen_envs():
    env = CuleEnv("pong", num_envs=3, stack_num=1)
    obs, _ = env.reset(seed=0)
    frames = env.render(env_ids=[2, 0])
    assert isinstance(frames, tuple) and len(frames) == 2   # gymnasium's VectorEnv.render: one frame per env
    assert all(f.shape == (210, 160, 3) and f.dtype == np.uint8 for f in frames)
    assert np.array_equal(frames[1], obs[0, 0].numpy())


def test_bad_options_are_named():
    with pytest.raises(ValueError, match=r"at most 210 x 160 for pong \(frames can only shrink\), got 300 x 84"):
        CuleEnv("pong", img_height=300, img_width=84)
    with pytest.raises(TypeError, match=r"unknown option 'stack'; CuleEnv takes .*stack_num"):
        CuleEnv("pong", stack=4)
    with pytest.raises(ValueError, match=r"autoreset_mode must be one of \['NextStep', 'SameStep'\]"):
        CuleEnv("pong", autoreset_mode="Disabled")
    env = CuleEnv("pong", num_envs=2)
    with pytest.raises(RuntimeError, match="first reset"):
        env.reset(options={"reset_mask": np.array([True, False])})
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"reset_mask must be a boolean numpy array or tensor of shape \(2,\)"):
        env.reset(options={"reset_mask": np.array([1, 0])})
    with pytest.raises(ValueError, match=r"reset_mask must have shape \(2,\), got \(3,\)"):
        env.reset(options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(ValueError, match="unknown reset option 'mask'"):
        env.reset(options={"mask": np.array([True, False])})
    with pytest.raises(ValueError, match=r"one entry per sub-environment reset \(1\), got 2"):
        env.reset(seed=[1, 2], options={"reset_mask": np.array([True, False])})
    for frameskip in (0, -1, 4.0):   # gymnasium's error, as AtariVectorEnv raises
        with pytest.raises(gymnasium.error.Error, match=rf"frameskip must be a positive int, got {frameskip}"):
            gymnasium.make_vec("cule/Pong-v5", 1, frameskip=frameskip)


def test_make_vec_gives_numpy_as_ale_pys_and_tensors_when_asked():
    """gymnasium's vector wrappers take make_vec's envs unchanged; output="torch" gives tensors."""
    import torch

    envs = gymnasium.wrappers.vector.NormalizeObservation(
        gymnasium.wrappers.vector.RecordEpisodeStatistics(gymnasium.make_vec("cule/Pong-v5", 2)))
    obs, _ = envs.reset(seed=0)
    for _ in range(3):
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
    assert obs.dtype == np.float32 and obs.shape == (2, 4, 84, 84) and reward.dtype == np.int32   # as ale-py's
    tensors = gymnasium.make_vec("cule/Pong-v5", 2, output="torch")
    assert isinstance(tensors.reset(seed=0)[0], torch.Tensor)


def test_atari_vector_envs_own_options_are_taken_or_refused():
    from cule import atari_vector_env

    env = atari_vector_env("pong", 2, batch_size=2, thread_affinity_offset=-1, continuous=False,
                           continuous_action_threshold=0.3, num_threads=0)
    assert env.num_envs == 2 and atari_vector_env("pong", 2, batch_size=0).num_envs == 2
    refused = {"batch_size": (3, r"batch_size must be 0, num_envs \(2\) or a divisor of it: cule steps every env"),
               "thread_affinity_offset": (0, r"thread_affinity_offset must be -1: cule does not pin its threads")}
    for name, (value, message) in refused.items():
        with pytest.raises(ValueError, match=message):
            atari_vector_env("pong", 2, **{name: value})


@pytest.mark.parametrize("game, threshold", [("breakout", 0.5), ("pong", 0.3), ("ms_pacman", 0.7)])
def test_continuous_actions_as_atari_vector_env(game, threshold):
    """(radius, angle, fire) actions, on paddles the radius ALE's paddle strength, in batches too."""
    kw = dict(SHARED, continuous=True, continuous_action_threshold=threshold)
    ale, env = AtariVectorEnv(game, NUM_ENVS, **kw), CuleEnv(game, NUM_ENVS, **kw)
    assert env.single_action_space == ale.single_action_space and env.action_space == ale.action_space
    assert np.array_equal(ale.reset(seed=0)[0], env.reset(seed=0)[0].numpy())
    ale.action_space.seed(0)
    for _ in range(300):
        actions = ale.action_space.sample()
        assert_same_step(ale.step(actions), env.step(torch.from_numpy(actions)))
    with pytest.raises(ValueError, match=r"continuous actions must have shape \(4, 3\): \(radius, angle, fire\)"):
        env.step(actions[:, :2])
    with pytest.raises(ValueError, match="continuous actions must be floats, got dtype int64"):
        env.step(np.zeros((NUM_ENVS, 3), np.int64))


def test_the_vector_ale_interface_as_atari_vector_envs():
    """env.ale, through which AtariVectorEnv resets and steps: reset(env ids, seeds), send(actions,
    paddle strengths) and recv() give what the env's own calls give, and its refusals."""
    kw = dict(SHARED, full_action_space=True)
    ale, env = AtariVectorEnv("breakout", NUM_ENVS, **kw), CuleEnv("breakout", NUM_ENVS, output="numpy", **kw)
    assert env.ale.get_num_envs() == ale.ale.get_num_envs() and env.ale.get_action_set() == list(range(18))
    ale.reset(seed=0), env.reset(seed=0)
    rng = np.random.default_rng(0)
    for t in range(120):
        actions, strengths = rng.integers(0, 18, NUM_ENVS), rng.uniform(0, 1, NUM_ENVS).astype(np.float32)
        ale.ale.send(actions, strengths), env.ale.send(actions, strengths)
        assert_same_step(ale.ale.recv(), env.ale.recv())
        if t % 40 == 39:   # some envs again, without seeds: the same frames as AtariVectorEnv's
            a_obs, _ = ale.ale.reset([2, 0], [-1, -1])
            assert np.array_equal(a_obs, env.ale.reset([2, 0], [-1, -1])[0])
    with pytest.raises(ValueError, match="duplicate env_id"):
        env.ale.reset([0, 0], [-1, -1])
    with pytest.raises(IndexError, match="out of range"):
        env.ale.reset([NUM_ENVS], [-1])
    with pytest.raises(RuntimeError, match="call send"):
        env.ale.recv()
