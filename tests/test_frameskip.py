"""A step draws only its last frame, or its last two where observations are max-pooled
(kernels/env.h, env_step), and runs again drawing them all where an undrawn frame's rows would
show. Whole machine states, both frame buffers included, must then equal those of frameskip 1
playing the same actions, for every game, and when the frame cap ends an episode two frames
into a step."""
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


@pytest.mark.parametrize("game", ["alien", "qbert"])
def test_a_step_run_again_first_redraws_the_frame_left_behind(game):
    """Steps that draw only their last frame leave the other buffer behind until something needs
    it: a state taken (every 50 steps here) redraws it. These games have frames that end early
    (a life lost), so some steps run again from their start, drawing every frame, right after a
    step that left a buffer behind; observations every step and the states equal frameskip 1's.
    (In these runs the rerun's first two frames are whole and rewrite both buffers themselves;
    the redraw before a rerun is for one whose first frames end early too, not met here.)"""
    fast = CuleEnv(game, num_envs=8, frameskip=4, num_threads=1)
    slow = CuleEnv(game, num_envs=8, frameskip=1, num_threads=1)
    assert fast._vec._vec.last_frame_only and not CuleEnv(game, num_envs=1, frameskip=4, maxpool=True)._vec._vec.last_frame_only
    fast.reset(seed=0)
    slow.reset(seed=0)
    rng = np.random.default_rng(0)
    playing = torch.ones(8, dtype=torch.bool)
    for step in range(400):
        actions = rng.integers(0, 18, size=8)
        obs, _, terminated, truncated, _ = fast.step(actions)
        for _ in range(4):
            slow_obs, *_ = slow.step(actions)
        playing &= ~(terminated | truncated)
        for i in playing.nonzero().flatten().tolist():
            assert torch.equal(obs[i], slow_obs[i]), f"step {step}, env {i}"
        if step % 50 == 49:
            for i in playing.nonzero().flatten().tolist():
                assert torch.equal(fast.get_states()[i], slow.get_states()[i]), f"step {step}, env {i}"
    _, after_redraw = fast._vec._vec.rerun_stats()
    assert after_redraw > 0, "no step ran again after one that left a buffer behind: nothing was tested"
