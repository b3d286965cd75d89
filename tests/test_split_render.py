"""The split step the CUDA backend runs (a state-update pass that logs the TIA accesses of the frames a
step shows, then a render pass that replays them, or runs again drawing the steps a log cannot draw)
against the direct step (drawing as the frames run), both on the CPU backend: the same kernels/ code
the GPU runs. Observations, rewards, flags and whole machine states (both frame buffers included)
must be equal after every step."""
import numpy as np
import pytest
import torch

from cule import CuleEnv
from cule.games import list_games


def _play(game: str, steps: int, num_envs: int = 4, seed: int = 0, **options):
    """Steps a direct and a split env with the same actions; returns the split env's render stats."""
    envs = []
    for split in (False, True):
        env = CuleEnv(game, num_envs=num_envs, repeat_action_probability=0.25, noop_max=30, num_threads=1,
                      **options)
        env._backend.split_render = split
        env.reset(seed=seed)
        envs.append(env)
    direct, split = envs
    rng = np.random.default_rng(seed)
    for t in range(steps):
        actions = rng.integers(0, direct.single_action_space.n, size=num_envs)
        a, b = direct.step(actions), split.step(actions)
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), a, b):
            assert torch.equal(x, y), f"{game}: {name} differs at step {t}"
        assert torch.equal(direct.get_states(), split.get_states()), f"{game}: machine states differ at step {t}"
    return split._backend.render_stats()


# Games none of whose frames is whole: Journey Escape's 263 lines end a row short of its 230
# from scanline 34, so every step runs again, drawing (exact, at twice the work).
NEVER_WHOLE = {"journey_escape"}


@pytest.mark.parametrize("game", list_games())
def test_split_step_draws_what_the_direct_step_draws(game):
    # Episodes cut at 150 frames, two frames into a step: each one ends with a step the log cannot draw.
    replayed, redone, most_events = _play(game, steps=45, frameskip=4, max_num_frames_per_episode=150)
    assert (replayed == 0 and redone > 0) if game in NEVER_WHOLE else replayed > 0
    assert most_events > 0


@pytest.mark.parametrize("frameskip", [1, 2, 3, 5])
def test_split_step_at_other_frameskips(frameskip):
    # Up to two frames a step every frame is logged (short frames allowed); above, the last two.
    replayed, _, _ = _play("breakout", steps=60, frameskip=frameskip, max_num_frames_per_episode=200)
    assert replayed > 0


def test_split_step_runs_again_the_steps_a_log_cannot_draw():
    # A 6-frame cap ends every episode two frames into its second step: the frames the step would
    # show never run, so the render pass must run the step again, drawing.
    replayed, redone, _ = _play("space_invaders", steps=30, frameskip=4, max_num_frames_per_episode=6)
    assert redone > 0 and replayed > 0


def test_split_step_with_max_pooled_small_grey_frames():
    _play("ms_pacman", steps=40, frameskip=4, grayscale=True, img_height=84, img_width=84, maxpool=True,
          stack_num=4)
