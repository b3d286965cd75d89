"""Observations computed two ways give the same bytes: the CPU backend shrinks whole frames row by
row (bindings/frame_shrink.h), the CUDA kernels compute every byte on its own (env/observe.h,
observe_element; run on the host here). Both must be OpenCV's INTER_AREA, which
tests/test_vector_env.py checks against AtariVectorEnv on game frames; random frames here make
every weight and rounding count, at sizes with partly covered pixels on either axis, whole
scales, one pixel and the full size, for each display height."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from cule import CuleEnv, _core

SIZES = [(84, 84), (100, 120), (1, 1), (17, 150), (53, 53), (84, 160), (105, 80), (42, 32), (70, 84)]


@pytest.mark.parametrize("game", ["pong", "king_kong", "carnival"])   # 210 rows, PAL's 250, 214
def test_shrunk_frames_are_observe_elements(game):
    compare_shrunk_and_observed(game)


def test_shrunk_frames_without_avx2_are_observe_elements():
    """The plain loops where the CPU has no AVX2 (CULE_NO_AVX2: frame_shrink.h chooses once, at
    the first frame a process shrinks)."""
    code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); " \
           "import test_observe; test_observe.compare_shrunk_and_observed('pong')"
    run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "CULE_NO_AVX2": "1"}, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr[-3000:]


@pytest.mark.parametrize("repeats", [(2, 3), (3, 5)])
def test_frames_of_repeated_lines_are_observe_elements(repeats):
    """A line that repeats the one above is copied, not computed again: at full size
    (vec_env.h's full_frame) and, pooled in grey, in the look-ups before shrinking
    (frame_shrink.h's brighter_grey_values_avx2, which also carries a block's last line into the
    next block's first). Lines repeated in runs of `repeats` on the two screens: under pooling some
    lines repeat on both frames and some on one; with (3, 5) a block of 8 lines starts on lines
    that repeat on both."""
    compare_shrunk_and_observed("pong", repeats=repeats)


def test_full_frames_from_the_last_frame_are_observe_elements():
    """Each env's last full-size frame without pooling, grey and RGB, is remembered (vec_env.h's
    FullFrameMemo): a line whose pixels it holds is copied from it. Frames in turn where some lines
    keep the last frame's pixels, some change, some repeat the line above, and states set between."""
    envs = [CuleEnv("pong", 3, device="cpu", backend=backend) for backend in ("cpu", "cuda")]
    for env in envs:
        env.reset(seed=0)
    states = envs[0].get_states().clone()
    machine = _core.layout()["machine"]
    generator = torch.Generator().manual_seed(0)
    screens = states[:, machine:].view(len(states), 2, -1, 160)   # both buffers: either may be shown
    screens[:] = torch.randint(0, 256, screens.shape, dtype=torch.uint8, generator=generator)
    no_pool = torch.zeros(len(states), dtype=torch.bool)
    for turn in range(6):
        if turn:
            lines = screens.shape[2]
            changed = torch.rand(len(states), 1, lines, generator=generator) < 0.3
            new = torch.randint(0, 256, screens.shape, dtype=torch.uint8, generator=generator)
            screens[:] = torch.where(changed[..., None], new, screens)
            repeated = torch.arange(lines)[torch.rand(lines, generator=generator) < 0.2]
            screens[:, :, repeated[repeated > 0]] = screens[:, :, repeated[repeated > 0] - 1]
        for env in envs:
            env.set_states(states)
        for grey in (True, False):
            cpu, cuda = (env._backend.observe(grey, no_pool, envs[0].game.screen_height, 160) for env in envs)
            assert torch.equal(cpu, cuda), f"turn {turn}, grey {grey}"


def compare_shrunk_and_observed(game: str, repeats: tuple[int, int] | None = None) -> None:
    envs = [CuleEnv(game, 3, device="cpu", backend=backend, maxpool=True) for backend in ("cpu", "cuda")]
    for env in envs:
        env.reset(seed=0)
    states = envs[0].get_states().clone()
    machine = _core.layout()["machine"]
    generator = torch.Generator().manual_seed(0)
    states[:, machine:] = torch.randint(0, 256, states[:, machine:].shape, dtype=torch.uint8, generator=generator)
    if repeats:   # the two screens after the machine, each of whole 160-pixel lines
        screens = states[:, machine:].view(len(states), 2, -1, 160)
        for screen, run in enumerate(repeats):
            lines = torch.arange(screens.shape[2])
            screens[:, screen] = screens[:, screen, lines - lines % run]
    for env in envs:
        env.set_states(states)
    height = envs[0].game.screen_height
    pooled = torch.tensor([True, False, True])
    for h, w in SIZES + [(height, 160), (height - 1, 159), (height, 84)]:
        for grey in (True, False):
            cpu, cuda = (env._backend.observe(grey, pooled, h, w) for env in envs)
            assert torch.equal(cpu, cuda), f"{h} x {w}, grey {grey}"
