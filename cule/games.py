"""The games cule runs: for each, the exact ROM (md5), how the cartridge and controllers are wired
(Stella's properties), ALE's action sets, modes and reset recipe.

Every fact is declared once, in the game's header (kernels/ale/games/<id>.h, over the defaults of
kernels/ale/game_settings.h), and read here from the compiled module. tests/test_games_catalogue.py
checks them against ale-py 0.12.1.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import _core

# Cartridge schemes kernels/atari/cart.h emulates, by their id there (CartScheme).
SCHEMES = {name: i for i, name in enumerate(_core.CART_SCHEME_NAMES)}
# ALE's action ids by name, as kernels/ale/game_settings.h declares them.
ACTIONS = {name: i for i, name in enumerate(_core.ACTION_NAMES)}


@dataclass(frozen=True)
class ModeSelect:
    """How ALE's setMode reaches a mode: press SELECT (`select_frames` frames at a time) until
    RAM[ram] equals mode * scale + offset (in BCD where `bcd`; and RAM[also_ram] equals
    also_value, where also_ram is set), then a soft reset. Some games first play NOOP frames
    (`noops_first`), soft-reset, or press SELECT once (`select_first` frames) before looking."""

    ram: int
    select_frames: int
    scale: int = 1
    offset: int = 0
    also_ram: int = 0
    also_value: int = 0
    noops_first: int = 0
    soft_reset_first: bool = False
    select_first: int = 0
    bcd: bool = False

    def target(self, mode: int) -> int:
        value = mode * self.scale + self.offset
        return value // 10 * 16 + value % 10 if self.bcd else value

    def shows(self, ram, mode: int) -> bool:
        """Whether the 128 RAM bytes show the mode selected."""
        return (ram[self.ram & 0x7F] == self.target(mode)
                and (not self.also_ram or ram[self.also_ram & 0x7F] == self.also_value))


@dataclass(frozen=True)
class Game:
    id: str                    # ALE's id, e.g. "ms_pacman"
    name: str                  # the v5 name, e.g. "MsPacman"
    index: int                 # GameId in kernels/ale/games.h
    md5: str
    rom_bytes: int
    scheme: str                # bank-switching scheme
    ystart: int                # first scanline ALE shows
    screen_height: int         # how many: 210 mostly, 250 on PAL consoles, a few others
    pal: bool                  # a PAL console: its palette and colour loss
    hmove_blanks: bool         # HMOVE blanks the first 8 pixels of a line
    left: str                  # controller in the left port: JOYSTICK, PADDLES or NONE
    right: str
    swap_ports: bool
    swap_paddles: bool
    power_on_difficulty_a: tuple[bool, bool]   # (left, right) switches before ALE sets them
    paddle_max: int                            # ALE's paddle_max while this game is loaded
    minimal_actions: tuple[int, ...]
    legal_actions: tuple[int, ...]             # others become NOOP
    modes: tuple[int, ...]
    difficulties: tuple[int, ...]
    starting_actions: tuple[int, ...]          # played once after each reset
    mode_select: ModeSelect | None
    ale_saved: str             # what ALE's settings write into a saved state ("?": a bool)
    ale_kept: str              # which of those cule keeps: "memory0=lives flag0=started"

    @property
    def default_mode(self) -> int:
        return self.modes[0]

    @property
    def default_difficulty(self) -> int:
        return 0


_CATALOGUE = tuple(
    Game(**{**facts, "index": index,
            "mode_select": facts["mode_select"] and ModeSelect(**facts["mode_select"])})
    for index, facts in enumerate(_core.game_catalogue()))

GAMES: dict[str, Game] = {g.id: g for g in _CATALOGUE}


def _folded(name: str) -> str:
    """A game's name without case or underscores: "PONG", "ms_pacman" and "MsPacman" alike."""
    return name.lower().replace("_", "")


_BY_FOLDED_NAME = {_folded(n): g for g in _CATALOGUE for n in (g.id, g.name)}

# ROMs ale-py 0.12.1 ships but has no game settings for: its loadROM exits the process. Their
# rules (reward, end of game) are nowhere defined, so cule refuses them rather than guess.
WITHOUT_ALE_SETTINGS = {"combat": "Combat", "joust": "Joust", "maze_craze": "MazeCraze", "warlords": "Warlords"}
_WITHOUT_SETTINGS_FOLDED = {_folded(n): game_id for game_id, name in WITHOUT_ALE_SETTINGS.items()
                            for n in (game_id, name)}


def get_game(name: str) -> Game:
    """Looks a game up by ALE id ("ms_pacman"), v5 name ("MsPacman") or env id ("ALE/MsPacman-v5"),
    in any case ("MSPACMAN")."""
    if not isinstance(name, str):
        raise ValueError(f"a game is named by a string, got {type(name).__name__} {name!r}")
    key = name.split("/", 1)[1].split("-v", 1)[0] if "/" in name else name
    game = _BY_FOLDED_NAME.get(_folded(key))
    unsupported = _WITHOUT_SETTINGS_FOLDED.get(_folded(key))
    if unsupported:
        raise ValueError(f"ale-py 0.12.1 ships a ROM for {unsupported!r} but has no game settings for it (no "
                         "reward, end of game or action set), and neither has cule")
    if game is None:
        raise ValueError(f"unknown game {name!r}; cule knows: {', '.join(sorted(GAMES))}")
    return game


# The 57 games of the Arcade Learning Environment's usual benchmark (DQN's 49 and 8 more).
ATARI_57 = ("alien", "amidar", "assault", "asterix", "asteroids", "atlantis", "bank_heist", "battle_zone",
            "beam_rider", "berzerk", "bowling", "boxing", "breakout", "centipede", "chopper_command",
            "crazy_climber", "defender", "demon_attack", "double_dunk", "enduro", "fishing_derby", "freeway",
            "frostbite", "gopher", "gravitar", "hero", "ice_hockey", "jamesbond", "kangaroo", "krull",
            "kung_fu_master", "montezuma_revenge", "ms_pacman", "name_this_game", "phoenix", "pitfall", "pong",
            "private_eye", "qbert", "riverraid", "road_runner", "robotank", "seaquest", "skiing", "solaris",
            "space_invaders", "star_gunner", "surround", "tennis", "time_pilot", "tutankham", "up_n_down",
            "venture", "video_pinball", "wizard_of_wor", "yars_revenge", "zaxxon")


def list_games() -> list[str]:
    """The games cule runs: ROMs ale-py ships, each checked frame for frame against ale-py (RAM,
    screen, reward, terminal, lives; docs/games.md has the runs)."""
    return sorted(g.id for g in _CATALOGUE)
