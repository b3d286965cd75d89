"""ALE's power-on and reset sequences, driven frame by frame on one console.

They run once per CuleEnv, on the host: every environment then starts from a copy of the states
they produce (the reset pool), as in the CuLE paper.
"""
from __future__ import annotations

from .games import Game

NOOP = 0
SOFT_RESET_FRAMES = 4
RESET_NOOP_FRAMES = 60


def soft_reset(console) -> None:
    """StellaEnvironment::softReset: the RESET switch held for 4 frames."""
    for _ in range(SOFT_RESET_FRAMES):
        console.frame(NOOP, reset=True)
    console.clear_actions()


def press_select(console, frames: int) -> None:
    """StellaEnvironment::pressSelect: SELECT held `frames` frames without the game's settings
    step, then one NOOP frame that does step them and counts as a played frame."""
    for _ in range(frames):
        console.frame(NOOP, select=True, settings=False)
    console.frame(NOOP)
    console.count_frame()


def select_mode(console, game: Game, mode: int) -> None:
    """The game's setMode: press SELECT until RAM shows the mode, then a soft reset."""
    if mode not in game.modes:
        raise ValueError(f"mode {mode} is not available for {game.id!r}; available: {list(game.modes)}")
    recipe = game.mode_select
    if recipe is None:
        return
    for _ in range(recipe.noops_first):   # played as actions: they count as frames
        console.frame(NOOP)
        console.count_frame()
    if recipe.soft_reset_first:
        soft_reset(console)
    if recipe.select_first:
        press_select(console, recipe.select_first)
    target = recipe.target(mode)
    for _ in range(1024):   # every game cycles through its modes well within this
        if console.ram()[recipe.ram & 0x7F] == target:
            soft_reset(console)
            return
        press_select(console, recipe.select_frames)
    raise RuntimeError(f"{game.id}: mode {mode} never appeared in RAM[{recipe.ram:#x}]")


def ale_reset(console, game: Game, mode: int, difficulty: int) -> None:
    """StellaEnvironment::reset on a powered-on console."""
    if difficulty not in game.difficulties:
        raise ValueError(f"difficulty {difficulty} is not available for {game.id!r}; "
                         f"available: {list(game.difficulties)}")
    console.set_difficulty(difficulty)
    console.begin_episode()
    console.system_reset()
    for _ in range(RESET_NOOP_FRAMES):
        console.frame(NOOP)
    soft_reset(console)
    console.game_reset()
    select_mode(console, game, mode)
    soft_reset(console)
    for action in game.starting_actions:
        console.frame(action)
