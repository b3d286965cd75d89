"""cule under TorchRL (in the test extra): GymWrapper over the vector env, stepped as cule steps
on its own, and GymEnv over the single env's gymnasium id."""
import torch
from torchrl.envs import GymEnv, GymWrapper

from cule import CuleEnv   # also registers the cule/ ids

# TorchRL takes SameStep autoreset only; 40 frames an episode: each ends within the rollouts.
OPTIONS = dict(device="cpu", autoreset_mode="SameStep", max_num_frames_per_episode=40, frameskip=4)


def test_gym_wrapper_steps_the_vector_env_as_cule_does():
    wrapped = GymWrapper(CuleEnv("pong", num_envs=3, **OPTIONS))
    assert wrapped.reward_spec.dtype == torch.int32 and wrapped.reward_spec.shape == (3, 1)
    wrapped.set_seed(0)
    actions = iter(torch.tensor([[i % 6, (i + 2) % 6, 5] for i in range(25)]))
    rollout = wrapped.rollout(25, lambda td: td.set("action", torch.nn.functional.one_hot(next(actions), 6)),
                              break_when_any_done=False)

    plain = CuleEnv("pong", num_envs=3, **OPTIONS)
    obs, _ = plain.reset(seed=0)
    assert torch.equal(rollout["observation"][:, 0], obs)
    for t in range(25):
        obs, reward, terminated, truncated, info = plain.step(torch.tensor([t % 6, (t + 2) % 6, 5]))
        # TorchRL's next observation is the episode's last where it ended; the reset one follows.
        ended = terminated | truncated
        last = torch.where(ended[:, None, None, None, None], info["final_obs"], obs) if ended.any() else obs
        assert torch.equal(rollout["next", "observation"][:, t], last), t
        if t + 1 < 25:
            assert torch.equal(rollout["observation"][:, t + 1], obs), t
        assert torch.equal(rollout["next", "reward"][:, t, 0], reward), t
        assert torch.equal(rollout["next", "terminated"][:, t, 0], terminated), t
        assert torch.equal(rollout["next", "truncated"][:, t, 0], truncated), t
    assert rollout["next", "truncated"].sum() == 6, "each env's episodes end at steps 10 and 20"


def test_gym_env_makes_the_single_env():
    # TorchRL makes it with frameskip 1 (its own frame_skip repeats actions): 40 steps an episode.
    env = GymEnv("cule/Pong-v5", max_num_frames_per_episode=40)
    rollout = env.rollout(45, break_when_any_done=False)
    assert rollout["next", "pixels"].shape == (45, 210, 160, 3)
    assert rollout["next", "truncated"][:, 0].nonzero().flatten().tolist() == [39]
