"""cule.sb3.CuleVecEnv under Stable-Baselines3 (in the test extra): its step contract (episode
ends as SB3's own vector envs report them) and a few PPO updates."""
import numpy as np
import pytest
import torch

import cule

sb3 = pytest.importorskip("stable_baselines3")
from cule.sb3 import CuleVecEnv  # noqa: E402

OPTIONS = dict(output="numpy", autoreset_mode="SameStep", max_num_frames_per_episode=200, num_threads=1)


def test_episode_ends_carry_the_last_observation():
    vec = CuleVecEnv(cule.atari_vector_env("breakout", num_envs=3, **OPTIONS))
    vec.seed(7)
    obs = vec.reset()
    assert obs.shape == (3, 4, 84, 84) and obs.dtype == np.uint8
    ended = 0
    for _ in range(60):   # episodes cut at 200 frames: 50 steps
        obs, rewards, dones, infos = vec.step(np.ones(3, dtype=np.int64))
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 3
        for i in range(3):
            assert ("terminal_observation" in infos[i]) == dones[i]
            if dones[i]:
                ended += 1
                assert infos[i]["TimeLimit.truncated"]   # the frame cap, not a game over
                assert infos[i]["terminal_observation"].shape == (4, 84, 84)
                assert not obs[i, :3].any()   # the next episode's stack: zeros, then its first frame
    assert ended == 3


def test_a_few_ppo_updates():
    torch.manual_seed(0)
    vec = CuleVecEnv(cule.atari_vector_env("pong", num_envs=4, **OPTIONS))
    model = sb3.PPO("CnnPolicy", vec, n_steps=16, batch_size=32, n_epochs=1, device="cpu", seed=0)
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    model.learn(total_timesteps=128)
    assert model.num_timesteps == 128
    changed = [k for k, v in model.policy.state_dict().items() if not torch.equal(v, before[k])]
    assert changed
    actions, _ = model.predict(vec.reset())
    assert actions.shape == (4,)


def test_any_cule_env_is_made_into_what_sb3_steps():
    # Made with torch outputs and NextStep autoresets (the defaults): made again with its options.
    given = cule.atari_vector_env("pong", num_envs=2, max_num_frames_per_episode=40, stack_num=2, num_threads=1)
    vec = CuleVecEnv(given)
    assert (vec.env.output, vec.env.autoreset_mode.value) == ("numpy", "SameStep") and vec.env is not given
    assert {k: v for k, v in vec.env.options.items() if k not in ("output", "autoreset_mode")} == \
        {k: v for k, v in given.options.items() if k not in ("output", "autoreset_mode")}
    assert given.closed and vec.reset().shape == (2, 2, 84, 84)
    for _ in range(10):   # 40 frames an episode: the tenth step ends both, the reset observation at once
        obs, rewards, dones, infos = vec.step(np.zeros(2, dtype=np.int64))
    assert dones.all() and all(info["TimeLimit.truncated"] for info in infos)
    ready = cule.atari_vector_env("pong", num_envs=2, output="numpy", autoreset_mode="SameStep")
    assert CuleVecEnv(ready).env is ready
    with pytest.raises(TypeError, match="num_envs and options make a new env: give a game's name with them"):
        CuleVecEnv(ready, num_envs=2)


def test_a_game_makes_the_env_sb3_needs():
    vec = CuleVecEnv("pong", num_envs=2, max_num_frames_per_episode=200, num_threads=1)
    assert (vec.num_envs, vec.env.output, vec.env.autoreset_mode.value) == (2, "numpy", "SameStep")
    assert vec.env.frameskip == 4 and vec.reset().shape == (2, 4, 84, 84)   # AtariVectorEnv's defaults
