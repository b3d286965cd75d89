"""cule's game catalogue against ale-py 0.12.1 itself: ROM md5 and size, minimal action set,
modes, difficulties, lives after reset, and the v5 names gymnasium registers."""
import hashlib
from pathlib import Path

import ale_py
import gymnasium
import pytest
from ale_py import roms

from cule import _cpu
from cule.env import make_console
from cule.reset import ale_reset
from cule.games import GAMES, get_game, list_games

gymnasium.register_envs(ale_py)
ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)


def test_the_games_in_kernel_order():
    assert len(GAMES) == _cpu.NUM_GAMES
    assert [g.index for g in sorted(GAMES.values(), key=lambda g: g.id)] == list(range(len(GAMES)))


def test_every_game_header_is_in_the_list():
    headers = sorted(p.stem for p in (Path(__file__).parents[1] / "kernels/ale/games").glob("*.h"))
    assert headers == sorted(GAMES)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_catalogue_matches_ale_py(game_id):
    game = GAMES[game_id]
    path = roms.get_rom_path(game_id)
    data = path.read_bytes()
    assert (hashlib.md5(data).hexdigest(), len(data)) == (game.md5, game.rom_bytes)

    ale = ale_py.ALEInterface()
    ale.loadROM(str(path))
    assert game.minimal_actions == tuple(a.value for a in ale.getMinimalActionSet())
    assert set(game.minimal_actions) <= set(game.legal_actions)
    assert game.modes == tuple(int(m) for m in ale.getAvailableModes())
    assert game.difficulties == tuple(int(d) for d in ale.getAvailableDifficulties())
    console, _ = make_console(game, data)
    ale_reset(console, game, game.default_mode, game.default_difficulty)
    assert console.lives == ale.lives()

    spec = gymnasium.spec(f"ALE/{game.name}-v5")
    assert spec.kwargs["game"] == game_id
    assert get_game(game.name) is get_game(f"ALE/{game.name}-v5") is game


def test_every_game_is_listed():
    assert list_games() == sorted(GAMES)   # every cartridge scheme of the Atari-57 is emulated
