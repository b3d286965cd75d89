"""gymnasium's own vector wrappers on CuleEnv(output="numpy"), against the same wrappers on ale-py's
AtariVectorEnv, step by step with the same actions (the settings of tests/test_vector_env.py,
without the randomness the two cannot share). Episodes are cut at 600 frames (150 steps), so
that the statistics wrappers see several end. Then gymnasium's RecordVideo, and its
ArrayConversion from cule's torch outputs to numpy, under the numpy wrappers."""
import gymnasium
import numpy as np
import pytest
from ale_py.vector_env import AtariVectorEnv
from gymnasium.wrappers import vector as wrappers

import cule
from cule import CuleEnv

SHARED = dict(frameskip=4, repeat_action_probability=0.0, noop_max=0, use_fire_reset=False, maxpool=True,
              img_height=84, img_width=84, grayscale=True, stack_num=4, full_action_space=False,
              max_num_frames_per_episode=600, reward_clipping=False)
NUM_ENVS = 4


def both(wrap, game="space_invaders"):
    return (wrap(AtariVectorEnv(game, NUM_ENVS, **SHARED)),
            wrap(CuleEnv(game, NUM_ENVS, output="numpy", **SHARED)))


def play(ale, cule_env, steps, check):
    ale.reset(seed=0)
    cule_env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = rng.integers(0, cule_env.single_action_space.n, size=NUM_ENVS)
        check(ale.step(actions), cule_env.step(actions))


def test_numpy_outputs_are_atari_vector_envs_types():
    ale, env = both(lambda e: e)
    for a, c in zip(ale.reset(seed=0), env.reset(seed=0)):
        assert type(a) is type(c)
    a_out, c_out = ale.step(np.zeros(NUM_ENVS, np.int64)), env.step(np.zeros(NUM_ENVS, np.int64))
    for a, c in zip(a_out[:4], c_out[:4]):
        assert isinstance(c, np.ndarray) and (c.dtype, c.shape) == (a.dtype, a.shape)
    assert {k: (v.dtype, v.shape) for k, v in a_out[4].items()} == {k: (v.dtype, v.shape) for k, v in c_out[4].items()}


def test_record_episode_statistics():
    ale, env = both(wrappers.RecordEpisodeStatistics)
    ended = []

    def check(a, c):
        assert np.array_equal(a[1], c[1])
        assert ("episode" in a[4]) == ("episode" in c[4])
        if "episode" in c[4]:
            assert np.array_equal(a[4]["_episode"], c[4]["_episode"])
            for key in ("r", "l"):
                assert np.array_equal(a[4]["episode"][key], c[4]["episode"][key]), key
            ended.append(c[4]["_episode"].sum())
    play(ale, env, 400, check)
    assert sum(ended) >= NUM_ENVS * 2   # every env ended two episodes, at the frame cap
    assert list(env.return_queue) == list(ale.return_queue) and list(env.length_queue) == list(ale.length_queue)


@pytest.mark.parametrize("wrap", [
    lambda e: wrappers.NormalizeReward(e),
    lambda e: wrappers.ClipReward(e, -1, 1),
    lambda e: wrappers.TransformReward(e, lambda r: r * 0.5 + 1),
], ids=["NormalizeReward", "ClipReward", "TransformReward"])
def test_reward_wrappers(wrap):
    ale, env = both(wrap)
    rewarded = []

    def check(a, c):
        assert np.allclose(a[1], c[1], rtol=0, atol=1e-6)
        rewarded.append(np.count_nonzero(a[1]))
    play(ale, env, 300, check)
    assert sum(rewarded) > 0


@pytest.mark.parametrize("wrap", [
    lambda e: wrappers.NormalizeObservation(e),
    lambda e: wrappers.TransformObservation(e, lambda o: o // 2),
    lambda e: wrappers.DtypeObservation(e, np.float32),
], ids=["NormalizeObservation", "TransformObservation", "DtypeObservation"])
def test_observation_wrappers(wrap):
    # Before the first episode ends (150 steps): the two envs show different frames on an ending
    # step (tests/test_vector_env.py), and a running mean would carry that on.
    ale, env = both(wrap)
    play(ale, env, 140, lambda a, c: np.testing.assert_allclose(a[0], c[0], rtol=0, atol=1e-5))


def test_make_vec_with_render_mode_and_numpy_outputs():
    env = gymnasium.make_vec("cule/Pong-v5", num_envs=2, render_mode="rgb_array", output="numpy")
    assert env.render_mode == "rgb_array"
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 4, 84, 84)
    frames = env.render()
    assert isinstance(frames, tuple) and len(frames) == 2 and frames[0].shape == (210, 160, 3)


def test_bad_output_and_render_mode_are_named():
    with pytest.raises(ValueError, match=r"output must be one of \('torch', 'numpy'\), got 'jax'"):
        cule.CuleEnv("pong", output="jax")
    with pytest.raises(ValueError, match=r"render_mode must be one of \('rgb_array', None\), got 'human'"):
        cule.CuleEnv("pong", render_mode="human")


def cleanrl_style_rollouts(envs, num_steps=60, seed=1) -> list[float]:
    """The rollout and update of CleanRL's ppo_atari (gymnasium's vector API, numpy at the env's
    edge, torch for the agent), cut down: returns the episode returns RecordEpisodeStatistics gave."""
    import torch
    from torch import nn
    torch.manual_seed(seed)
    n = envs.num_envs
    actions = envs.single_action_space.n
    agent = nn.Sequential(nn.Flatten(), nn.Linear(4 * 84 * 84, 16), nn.ReLU(), nn.Linear(16, actions + 1))
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4)
    obs = torch.zeros((num_steps, n, 4, 84, 84))
    logprobs, rewards, dones = torch.zeros((num_steps, n)), torch.zeros((num_steps, n)), torch.zeros((num_steps, n))
    next_obs, _ = envs.reset(seed=seed)
    next_obs, next_done = torch.Tensor(next_obs), torch.zeros(n)
    episode_returns = []
    for step in range(num_steps):
        obs[step], dones[step] = next_obs, next_done
        with torch.no_grad():
            out = agent(next_obs / 255.0)
        dist = torch.distributions.Categorical(logits=out[:, :-1])
        action = dist.sample()
        logprobs[step] = dist.log_prob(action)
        next_obs, reward, terminations, truncations, infos = envs.step(action.cpu().numpy())
        next_done = np.logical_or(terminations, truncations)
        rewards[step] = torch.tensor(reward).view(-1)
        next_obs, next_done = torch.Tensor(next_obs), torch.Tensor(next_done)
        if "episode" in infos:
            episode_returns += [float(infos["episode"]["r"][i]) for i in np.flatnonzero(infos["_episode"])]
    out = agent(obs.reshape(-1, 4, 84, 84) / 255.0)
    loss = -(torch.distributions.Categorical(logits=out[:, :-1]).entropy()).mean() + out[:, -1].pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return episode_returns


def test_a_cleanrl_style_loop_runs_with_only_the_env_line_changed():
    options = dict(num_envs=4, max_num_frames_per_episode=200)   # episodes of 50 steps
    ale = wrappers.RecordEpisodeStatistics(gymnasium.make_vec("ALE/Pong-v5", **options))
    envs = wrappers.RecordEpisodeStatistics(gymnasium.make_vec("cule/Pong-v5", output="numpy", **options))
    ale_returns, cule_returns = cleanrl_style_rollouts(ale), cleanrl_style_rollouts(envs)
    assert len(cule_returns) == len(ale_returns) == 4   # every env ended one episode


@pytest.mark.parametrize("output", ["numpy", "torch"])
def test_gymnasiums_record_video(tmp_path, output):
    """gymnasium's vector RecordVideo (MoviePy): every env's frame side by side, one MP4 per
    episode of env 0. Episodes of 50 steps: the video holds the reset frame and the 50 steps'."""
    env = CuleEnv("pong", 2, frameskip=4, max_num_frames_per_episode=200, output=output)
    folder = tmp_path / "videos"
    envs = wrappers.RecordVideo(env, str(folder), episode_trigger=lambda episode: episode == 0)
    envs.reset(seed=0)
    first = np.concatenate(env.render(), axis=1)   # the two envs' frames, side by side
    for _ in range(60):
        envs.step(np.ones(2, np.int64))
    envs.close()
    assert [p.name for p in folder.iterdir()] == ["rl-video-episode-0.mp4"]
    import imageio_ffmpeg
    video = str(folder / "rl-video-episode-0.mp4")
    assert imageio_ffmpeg.count_frames_and_secs(video)[0] == 51
    reader = imageio_ffmpeg.read_frames(video)
    meta = next(reader)
    assert meta["size"] == (320, 210) and meta["fps"] == 15   # render_fps: 60 over the frameskip
    decoded = np.frombuffer(next(reader), np.uint8).reshape(210, 320, 3)
    assert np.abs(decoded.astype(int) - first).mean() < 3   # the reset frame, through H.264
    reader.close()


@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_torch_outputs_through_array_conversion_to_numpy_wrappers(autoreset_mode):
    """The way for torch outputs into gymnasium's numpy wrappers: ArrayConversion (gymnasium
    1.4.0 has no vector TorchToNumpy) from torch to numpy, then RecordEpisodeStatistics and
    NormalizeReward, equal step by step to the same wrappers on output="numpy"."""
    import torch
    from gymnasium.wrappers.vector import ArrayConversion

    def wrapped(env):
        return wrappers.NormalizeReward(wrappers.RecordEpisodeStatistics(env))
    settings = dict(SHARED, max_num_frames_per_episode=200, autoreset_mode=autoreset_mode)
    converted = wrapped(ArrayConversion(CuleEnv("space_invaders", NUM_ENVS, **settings), env_xp=torch, target_xp=np))
    numpy_env = wrapped(CuleEnv("space_invaders", NUM_ENVS, output="numpy", **settings))
    obs, info = converted.reset(seed=0)
    expected_obs, expected_info = numpy_env.reset(seed=0)
    assert type(obs) is np.ndarray and np.array_equal(obs, expected_obs)
    assert info.keys() == expected_info.keys() and all(type(v) is np.ndarray for v in info.values())
    rng = np.random.default_rng(0)
    ends, rewarded = 0, 0
    for _ in range(160):
        actions = rng.integers(0, numpy_env.single_action_space.n, size=NUM_ENVS)
        out, expected = converted.step(actions), numpy_env.step(actions)
        for value, expected_value in zip(out[:4], expected[:4]):
            assert type(value) is np.ndarray and value.dtype == expected_value.dtype
            assert np.array_equal(value, expected_value)
        assert out[4].keys() == expected[4].keys()
        for key in expected[4].keys() - {"episode"}:
            assert out[4][key].dtype == expected[4][key].dtype and np.array_equal(out[4][key], expected[4][key]), key
        if "episode" in expected[4]:
            assert np.array_equal(out[4]["_episode"], expected[4]["_episode"])
            for key in ("r", "l"):
                assert np.array_equal(out[4]["episode"][key], expected[4]["episode"][key])
            ends += int(expected[4]["_episode"].sum())
        rewarded += int(np.count_nonzero(expected[1]))
    assert ends >= 2 * NUM_ENVS and rewarded > 0
