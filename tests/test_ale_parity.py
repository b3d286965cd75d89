"""cule against ale-py 0.12.1, frame by frame: seeded random actions from the full action set,
RAM, screen, reward, terminal, lives and frame numbers compared after every frame, across
episode ends (both start a fresh console then)."""
import pytest

from cule.games import list_games
from cule.tools.diff import run_diff

SMALL_ROM_GAMES = list_games()   # the 33 Atari-57 games with 2K and 4K cartridges


@pytest.mark.parametrize("game", SMALL_ROM_GAMES)
def test_2000_frames_equal_to_ale(game):
    mismatch, _ = run_diff(game, frames=2000, seed=1)
    assert mismatch is None, mismatch.describe()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("game", SMALL_ROM_GAMES)
def test_20000_frames_equal_to_ale(game, seed):
    mismatch, _ = run_diff(game, frames=20000, seed=seed)
    assert mismatch is None, mismatch.describe()
