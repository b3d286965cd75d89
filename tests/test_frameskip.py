"""A step draws only its last two frames (kernels/env.h, env_step), and runs again drawing them
all where an undrawn frame's rows would show. Whole machine states, both frame buffers included,
must then equal those of frameskip 1 playing the same actions, for every game, and when the
frame cap ends an episode two frames into a step."""
import numpy as np
import pytest
import torch

from cule import CuleEnv, list_games

STEPS = 150


@pytest.mark.parametrize("game", list_games())
def test_frameskip_4_leaves_the_frames_of_frameskip_1(game):
    cap = 4 * STEPS + 2   # the last step stops after two frames
    fast = CuleEnv(game, num_envs=4, frameskip=4, max_num_frames_per_episode=cap, num_threads=1)
    slow = CuleEnv(game, num_envs=4, frameskip=1, max_num_frames_per_episode=cap, num_threads=1)
    fast.reset(seed=0)
    slow.reset(seed=0)
    rng = np.random.default_rng(0)
    playing = torch.ones(4, dtype=torch.bool)   # no episode ended yet: the two runs stay in step
    for step in range(STEPS + 1):
        actions = rng.integers(0, 18, size=4)
        _, _, terminated, truncated, _ = fast.step(actions)
        for _ in range(4 if step < STEPS else 2):
            slow.step(actions)
        ended = terminated | truncated
        compare = playing & ~(terminated & ~truncated)   # a game over mid-step: frameskip 1 restarted
        for i in compare.nonzero().flatten().tolist():
            assert torch.equal(fast.get_states()[i], slow.get_states()[i]), f"step {step}, env {i}"
        playing &= ~ended
    assert truncated.any() or not playing.any()
