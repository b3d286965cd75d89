"""cule.wrappers.RecordEpisodeStatistics on torch outputs against gymnasium's vector
RecordEpisodeStatistics on output="numpy", step by step with the same seed and actions, under both
autoreset modes. Breakout with episodic_life: episodes end at each lost life, at different steps in
different envs, and at the frame cap (80 steps)."""
import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.wrappers import vector as gym_wrappers

from cule import CuleEnv
from cule.wrappers import RecordEpisodeStatistics
from _waits import no_host_waits

SETTINGS = dict(frameskip=4, episodic_life=True, full_action_space=False, max_num_frames_per_episode=320,
                img_height=84, img_width=84, grayscale=True, stack_num=4)
NUM_ENVS = 4


def envs(autoreset_mode):
    ours = RecordEpisodeStatistics(CuleEnv("breakout", NUM_ENVS, device="cpu", autoreset_mode=autoreset_mode,
                                           **SETTINGS))
    theirs = gym_wrappers.RecordEpisodeStatistics(CuleEnv("breakout", NUM_ENVS, device="cpu", output="numpy",
                                                          autoreset_mode=autoreset_mode, **SETTINGS))
    return ours, theirs


@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_episode_statistics_equal_gymnasiums(autoreset_mode):
    ours, theirs = envs(autoreset_mode)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    rng = np.random.default_rng(0)
    ended, rewarded, cut = [], 0, 0
    for step in range(700):
        if step == 350:   # a partial reset, as gymnasium's reset_mask
            mask = np.array([True, False, True, False])
            ours.reset(options={"reset_mask": mask.copy()})
            theirs.reset(options={"reset_mask": mask.copy()})
        actions = rng.integers(0, 4, NUM_ENVS)
        _, reward, _, truncated, info = ours.step(torch.from_numpy(actions))
        _, expected_reward, _, _, expected = theirs.step(actions)
        rewarded, cut = rewarded + int(np.count_nonzero(expected_reward)), cut + int(truncated.sum())
        done, stats = info["_episode"], info["episode"]
        assert done.dtype == torch.bool and stats["r"].dtype == stats["t"].dtype == torch.float64
        assert stats["l"].dtype == torch.int64 and all(v.device == reward.device for v in stats.values())
        if "episode" in expected:   # gymnasium adds the keys only at steps where an episode ended
            assert np.array_equal(done.numpy(), expected["_episode"]), step
            for key in ("r", "l"):
                assert np.array_equal(stats[key].numpy(), expected["episode"][key]), (step, key)
                assert stats[key].numpy().dtype == expected["episode"][key].dtype
            assert (stats["t"][done] >= 0).all() and (stats["t"][~done] == 0).all()
            ended.append(int(done.sum()))
        else:
            assert not done.any() and not stats["r"].any() and not stats["l"].any() and not stats["t"].any()
    # lives lost at different steps in different envs, and episodes cut at the cap
    assert rewarded > 0 and len(ended) >= 40 and sum(ended) >= 10 * NUM_ENVS and cut > 0


def test_numpy_outputs_are_refused_with_the_way_to_go():
    with pytest.raises(ValueError, match=r"takes torch outputs, got output='numpy': .*gymnasium\.wrappers\.vector"):
        RecordEpisodeStatistics(CuleEnv("pong", 2, device="cpu", output="numpy"))


def test_a_taken_info_key_and_a_step_before_reset_are_errors():
    env = RecordEpisodeStatistics(CuleEnv("pong", 2, device="cpu"), stats_key="lives")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step([0, 0])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="info already has the key 'lives'"):
        env.step([0, 0])


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_the_statistics_never_make_the_host_wait_for_the_gpu(device):
    """The CUDA backend's kernels, on the host or a GPU: the statistics stay on the device."""
    env = RecordEpisodeStatistics(CuleEnv("pong", 16, device=device, backend="cuda", frameskip=4,
                                          max_num_frames_per_episode=200))
    env.reset(seed=0)
    env.step(torch.zeros(16, dtype=torch.int64, device=device))   # compile and warm up outside the check
    with no_host_waits(device):
        for _ in range(60):   # episodes of 50 steps end within
            *_, info = env.step(torch.randint(0, 6, (16,), device=device))
    assert info["episode"]["r"].device.type == device and env.unwrapped._backend.asynchronous
