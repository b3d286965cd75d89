"""cule's game catalogue against ale-py 0.12.1 itself: ROM md5 and size, screen size, minimal
action set, modes, difficulties, lives after reset, and the v5 names gymnasium registers."""
import hashlib
from pathlib import Path

import ale_py
import gymnasium
import pytest
from ale_py import roms

from cule import _core
from cule.env import make_console
from cule.reset import ale_reset
from cule import CuleEnv
from cule.games import ATARI_57, GAMES, WITHOUT_ALE_SETTINGS, get_game, list_games

gymnasium.register_envs(ale_py)
ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)


def test_the_games_in_kernel_order():
    assert len(GAMES) == _core.NUM_GAMES
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
    assert ale.getScreen().shape == (game.screen_height, 160)
    assert game.minimal_actions == tuple(a.value for a in ale.getMinimalActionSet())
    assert set(game.minimal_actions) <= set(game.legal_actions)
    assert game.modes == tuple(int(m) for m in ale.getAvailableModes())
    assert game.difficulties == tuple(int(d) for d in ale.getAvailableDifficulties())
    # A game that changes ALE's paddle_max leaves it in the interface's settings; else the
    # setting stays -1, ALE's PADDLE_MAX.
    paddle_max = ale.getInt("paddle_max")
    assert game.paddle_max == (790196 if paddle_max == -1 else paddle_max)
    console, _ = make_console(game, data)
    ale_reset(console, game, game.default_mode, game.default_difficulty)
    assert console.lives == ale.lives()

    spec = gymnasium.spec(f"ALE/{game.name}-v5")
    assert spec.kwargs["game"] == game_id
    assert get_game(game.name) is get_game(f"ALE/{game.name}-v5") is game


def test_every_game_is_listed():
    assert list_games() == sorted(GAMES)


def test_the_atari_57_are_games_cule_runs():
    assert len(set(ATARI_57)) == 57 and set(ATARI_57) <= set(list_games())


@pytest.mark.parametrize("game_id", sorted(WITHOUT_ALE_SETTINGS))
def test_roms_without_ale_settings_are_refused(game_id):
    """ale-py ships these ROMs but its loadROM exits on them: cule says so, by id or name."""
    assert roms.get_rom_path(game_id).exists()
    for name in (game_id, WITHOUT_ALE_SETTINGS[game_id], f"ALE/{WITHOUT_ALE_SETTINGS[game_id]}-v5"):
        with pytest.raises(ValueError, match=f"ale-py 0.12.1 ships a ROM for '{game_id}' but has no game settings"):
            get_game(name)
    with pytest.raises(ValueError, match="has no game settings"):
        CuleEnv(game_id)


def test_long_starting_actions_spelled_out():
    """Runs of one action (starts(run(NOOP, 486), ...)) reach Python as ALE's whole list."""
    noop, fire = 0, 1
    assert GAMES["word_zapper"].starting_actions == (noop,) * 486 + (fire, noop, noop)
    assert GAMES["video_cube"].starting_actions == (noop,) * 61 + (fire, noop, noop)
    assert GAMES["mario_bros"].starting_actions == (noop,) * 10 + (fire,) * 7
    assert GAMES["asterix"].starting_actions == (fire,)   # a List, as before
