"""The observation spaces hold their bounds once, whatever the number of envs, and are to every
reader the Box gymnasium would build."""
import copy
import pickle

import gymnasium
import numpy as np
from gymnasium.spaces import Box
from gymnasium.vector.utils import batch_space

from cule import CuleEnv
from cule.spaces import UniformBox

BOUNDS = ("low", "high", "bounded_below", "bounded_above")


def held(a: np.ndarray) -> int:
    """The bytes an array's memory takes: its owner's, through any views."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a.nbytes


def test_an_envs_spaces_hold_a_few_bytes_at_any_num_envs():
    env = CuleEnv("pong", 1024, device="cpu", num_threads=1, grayscale=True, img_height=84, img_width=84,
                  stack_num=4)
    for space in (env.observation_space, env.single_observation_space):
        assert sum(held(getattr(space, n)) for n in BOUNDS) < 64, space
    assert env.observation_space.shape == (1024, 4, 84, 84)
    big = batch_space(env.single_observation_space, 262_144)   # 29.6 GB in gymnasium's Box
    assert big.shape == (262_144, 4, 84, 84) and sum(held(getattr(big, n)) for n in BOUNDS) < 64
    assert len(pickle.dumps(big)) < 4096 and pickle.loads(pickle.dumps(big)) == big


def test_a_uniform_box_is_the_box_gymnasium_would_build():
    shape = (3, 4, 5)
    ours, theirs = batch_space(UniformBox(0, 255, shape, np.uint8), 6), batch_space(Box(0, 255, shape, np.uint8), 6)
    assert isinstance(ours, Box) and ours == theirs and theirs == ours and repr(ours) == repr(theirs)
    for name in BOUNDS:
        assert np.array_equal(getattr(ours, name), getattr(theirs, name)), name
        assert not getattr(ours, name).flags.writeable, f"{name} is shared by every element: read-only"
    assert ours.is_bounded() and ours.dtype == theirs.dtype
    assert ours != batch_space(UniformBox(0, 254, shape, np.uint8), 6)
    assert ours != batch_space(UniformBox(0, 255, shape, np.uint8), 5)
    sample = ours.sample()
    assert sample.dtype == np.uint8 and sample.shape == ours.shape and theirs.contains(sample)
    wide = batch_space(UniformBox(0, 255, (64, 64), np.uint8), 4)   # 16,384 draws: each value about 64 times
    wide.seed(0)
    drawn = wide.sample()
    assert drawn.min() == 0 and drawn.max() == 255, "the bounds are drawn (endpoint included)"
    assert not ours.contains(sample.astype(np.int64) + 256)
    copied = copy.deepcopy(ours)
    ours.seed(7), copied.seed(7)
    assert np.array_equal(ours.sample(), copied.sample()), "a seed gives the same draws"
    floats = UniformBox(-1.0, 1.0, (2, 3), np.float32)
    assert floats == Box(-1.0, 1.0, (2, 3), np.float32) and floats.contains(floats.sample())


def test_gymnasium_checks_pass_on_the_compact_spaces():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("cule/Pong-v5")
    check_env(env.unwrapped, skip_render_check=True)
    assert isinstance(env.observation_space, UniformBox)
    env.close()
