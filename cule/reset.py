"""ALE's power-on and reset sequences, driven frame by frame on one console.

They run once per CuleEnv, on the host: every environment then starts from a copy of the states
they produce (the reset pool), as in the CuLE paper.
"""
from __future__ import annotations

import numpy as np

from . import _core
from .games import ACTIONS, Game

NOOP, FIRE, RIGHT, LEFT, DOWN, UPFIRE = (ACTIONS[a] for a in ("NOOP", "FIRE", "RIGHT", "LEFT", "DOWN", "UPFIRE"))
RESET = _core.RESET_ACTION   # ALE's RESET action: a starting action only
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


def act(console, action: int) -> None:
    """StellaEnvironment::act with frameskip 1: one frame that counts as played, then ALE's
    sound (kernels/atari/tia_sound.h)."""
    console.frame(action)
    console.count_frame()
    console.sound_frame()


def ms_pacman_mode(console, mode: int) -> None:
    """MsPacmanSettings::setMode: mode 0 is game 1 variation 1, mode m game m variation 0."""
    want = (1, 1) if mode == 0 else (mode, 0)
    for _ in range(1024):
        ram = console.ram()
        if (ram[0x19], ram[0x21]) == want:
            soft_reset(console)
            return
        press_select(console, 10)
    raise RuntimeError(f"ms_pacman: mode {mode} never appeared in RAM")


def double_dunk_mode(console, mode: int) -> None:
    """DoubleDunkSettings::setMode: walk the options menu (RAM $B0 is the highlighted line) and
    switch its four yes/no options (bits of RAM $80) to the bits of the mode."""
    def ram(address: int) -> int:
        return int(console.ram()[address & 0x7F])

    def go_down() -> None:
        line = ram(0xB0)
        while ram(0xB0) == line:
            act(console, DOWN)
            act(console, NOOP)

    def set_option(bit: int, on: bool) -> None:
        while bool(ram(0x80) & bit) != on:
            act(console, RIGHT if on else LEFT)
            act(console, NOOP)

    press_select(console, 1)
    go_down()
    go_down()
    for k, bit in enumerate((0x08, 0x10, 0x04, 0x20)):   # 3 points, 10 seconds, 3 seconds, fouls
        if k:
            go_down()
        set_option(bit, bool(mode >> k & 1))
    soft_reset(console)
    act(console, UPFIRE)
    act(console, NOOP)


def video_checkers_mode(console, mode: int) -> None:
    """VideoCheckersSettings::setMode: the menu (RAM $F6) numbers the reverse games 11-19 as
    17-25."""
    target = mode + 6 if mode >= 11 else mode
    for _ in range(1024):
        if console.ram()[0xF6 & 0x7F] == target:
            soft_reset(console)
            return
        press_select(console, 1)
    raise RuntimeError(f"video_checkers: mode {mode} never appeared in RAM")


def video_cube_mode(console, mode: int) -> None:
    """VideoCubeSettings::setMode: mode cube * 100 + variation. SELECT until the low five bits
    of RAM $FB show the game's variation 1, 3 or 9 (less one), a soft reset, then RIGHT (played
    as actions) until RAM $9F (BCD) shows the cube; ALE's own cube is 1 where the mode names
    none."""
    cube, variation = (mode // 100 or 1), (0, 2, 8)[mode % 100]
    for _ in range(1024):
        if console.ram()[0xFB & 0x7F] & 0x1F == variation:
            break
        press_select(console, 2)
    else:
        raise RuntimeError(f"video_cube: variation {mode % 100} never appeared in RAM")
    soft_reset(console)
    for _ in range(1024):
        held = int(console.ram()[0x9F & 0x7F])
        if (held >> 4) * 10 + (held & 0x0F) == cube:
            return
        act(console, RIGHT)
    raise RuntimeError(f"video_cube: cube {cube} never appeared in RAM")


# ALE's random_seed whose environment RNG Adventure's setMode draws from: the one cule's oracle
# sets (cule/tools/oracle.py). ALE's reset in modes 1 and 2 differs with that seed; cule's reset
# pool is one state, so it plays this seed's.
ADVENTURE_ALE_SEED = 0


def adventure_mode(console, mode: int) -> None:
    """AdventureSettings::setMode: while the mode in bits 1-2 of RAM $DD is not the one wanted,
    SELECT for 2 + (a draw of ALE's environment RNG) % 256 frames (level 3 seeds its layout from
    the frame counter), then one NOOP played as an action, whose sticky-action test draws twice.
    The RNG is a fresh mt19937 as ALE's loadROM seeds it: the first, default-mode reset draws
    nothing (mode 0 shows at power-on)."""
    rng = np.random.MT19937()
    rng._legacy_seeding(ADVENTURE_ALE_SEED)   # std::mt19937(seed)
    for _ in range(1024):
        if console.ram()[0xDD & 0x7F] >> 1 & 3 == mode:
            soft_reset(console)
            return
        press_select(console, 2 + int(rng.random_raw()) % 256)
        rng.random_raw(2)
        act(console, NOOP)
    raise RuntimeError(f"adventure: mode {mode} never appeared in RAM")


def klax_mode(console, mode: int) -> None:
    """KlaxSettings::setMode: SELECT (2 frames at a time) until the Superchip's RAM at $F0EA
    shows the mode, then a soft reset."""
    for _ in range(1024):
        if console.cart()["ram"][0xEA & 0x7F] == mode:
            soft_reset(console)
            return
        press_select(console, 2)
    raise RuntimeError(f"klax: mode {mode} never appeared in the cartridge's RAM")


# Games whose setMode is a procedure rather than "press SELECT until RAM shows the mode".
CUSTOM_MODE_SELECT = {"ms_pacman": ms_pacman_mode, "double_dunk": double_dunk_mode, "adventure": adventure_mode,
                      "video_checkers": video_checkers_mode, "video_cube": video_cube_mode, "klax": klax_mode}


def select_mode(console, game: Game, mode: int) -> None:
    """The game's setMode: press SELECT until RAM shows the mode, then a soft reset."""
    if mode not in game.modes:
        raise ValueError(f"mode {mode} is not available for {game.id!r}; available: {list(game.modes)}")
    console.game_select_mode(mode)
    if game.id in CUSTOM_MODE_SELECT:
        CUSTOM_MODE_SELECT[game.id](console, mode)
        return
    recipe = game.mode_select
    if recipe is None:
        return
    for _ in range(recipe.noops_first):   # played as actions: they count as frames
        act(console, NOOP)
    if recipe.soft_reset_first:
        soft_reset(console)
    if recipe.select_first:
        press_select(console, recipe.select_first)
    for _ in range(1024):   # every game cycles through its modes well within this
        if recipe.shows(console.ram(), mode):
            soft_reset(console)
            return
        press_select(console, recipe.select_frames)
    raise RuntimeError(f"{game.id}: mode {mode} never appeared in RAM[{recipe.ram:#x}]")


def ale_reset(console, game: Game, mode: int, difficulty: int) -> None:
    """StellaEnvironment::reset on a powered-on console."""
    # ALE starts at difficulty 0 even where it does not list it (Backgammon lists only 3); its
    # setDifficulty refuses an unlisted one.
    if difficulty != game.default_difficulty and difficulty not in game.difficulties:
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
    for action in game.starting_actions:   # played without the frame counter, as ALE's emulate()
        if action == RESET:
            console.frame(NOOP, reset=True)
        else:
            console.frame(action)


def reset_pool(console, game: Game, mode: int, difficulty: int, fire: bool, noop_max: int,
               envpool: bool = False) -> np.ndarray:
    """The states every episode starts from, (K, state size): ALE's post-reset state as gymnasium's
    reset(seed=...) and AtariVectorEnv make it (loadROM resets into the default mode, then
    reset_game resets again into the chosen mode on the same console: RAM and frame counter carry
    over, and 12 games end up elsewhere than after loadROM alone), then AtariVectorEnv's no-op
    starts: FIRE once where `fire`, then 0 .. noop_max - 1 NOOP frames in all, the FIRE frame
    counting as one of them, a state after each. `envpool`: EnvPool's no-op starts instead,
    1 .. noop_max frames, NOOP but the last one FIRE where `fire`."""
    ale_reset(console, game, game.default_mode, game.default_difficulty)
    ale_reset(console, game, mode, difficulty)
    if envpool:
        return _envpool_starts(console, fire, noop_max)
    if fire:
        act(console, FIRE)
    pool = [console.state()]
    for _ in range(max(noop_max - fire, 1) - 1):
        console.frame(NOOP)
        console.count_frame()
        pool.append(console.state())
    return np.stack(pool)


def _envpool_starts(console, fire: bool, noop_max: int) -> np.ndarray:
    """A state after each of 1 .. noop_max frames played: NOOPs, then FIRE where `fire`."""
    pool = []
    for _ in range(noop_max):
        if fire:
            noops = console.state()
            act(console, FIRE)
            pool.append(console.state())
            console.set_state(noops)
        act(console, NOOP)
        if not fire:
            pool.append(console.state())
    return np.stack(pool)
