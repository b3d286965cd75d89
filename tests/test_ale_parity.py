"""cule against ale-py 0.12.1, frame by frame: seeded random actions from the full action set,
RAM, screen and frame numbers compared after every frame (reward, terminal and lives too for
games with settings), across episode ends (both start a fresh console then)."""
import pytest

from cule.games import list_games
from cule.tools.diff import run_diff

GAMES = list_games()


@pytest.mark.parametrize("game", GAMES)
def test_2000_frames_equal_to_ale(game):
    mismatch, _ = run_diff(game, frames=2000, seed=1)
    assert mismatch is None, mismatch.describe()


# Modes and difficulties other than the defaults: ALE's reset_game after loadROM, the SELECT
# recipes, and the custom menus of MsPacman and DoubleDunk.
@pytest.mark.parametrize("game, mode, difficulty", [
    ("space_invaders", 5, 0), ("breakout", 12, 1), ("pong", 1, 3), ("ms_pacman", 2, 0),
    ("double_dunk", 13, 0), ("surround", 2, 3), ("berzerk", 16, 0), ("freeway", 4, 1),
])
def test_modes_and_difficulties_equal_to_ale(game, mode, difficulty):
    mismatch, _ = run_diff(game, frames=500, seed=2, mode=mode, difficulty=difficulty)
    assert mismatch is None, mismatch.describe()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("game", GAMES)
def test_20000_frames_equal_to_ale(game, seed):
    mismatch, _ = run_diff(game, frames=20000, seed=seed)
    assert mismatch is None, mismatch.describe()


@pytest.mark.parametrize("grayscale", [False, True])
def test_observations_equal_ale_rgb_and_grayscale(grayscale):
    """The palette: observations equal getScreenRGB / getScreenGrayscale, frame after frame."""
    import numpy as np

    from cule import CuleEnv
    from cule.games import get_game
    from cule.tools.oracle import AleOracle

    env = CuleEnv("space_invaders", num_envs=1, grayscale=grayscale)
    oracle = AleOracle(get_game("space_invaders"))
    obs, _ = env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 18, size=300)
    for a in actions:
        obs = env.step([a])[0]
        oracle.act(int(a))
        want = oracle.ale.getScreenGrayscale() if grayscale else oracle.ale.getScreenRGB()
        assert np.array_equal(obs[0, 0].numpy(), want.reshape(obs.shape[2:]))
