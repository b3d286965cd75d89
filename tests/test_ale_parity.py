"""cule against ale-py 0.12.1, frame by frame: seeded random actions from the full action set;
RAM, screen, reward, terminal, lives and frame numbers compared after every frame, across
episode ends (cule's next-step autoreset against a fresh ale-py console)."""
import pytest

from cule.games import list_games
from cule.tools.diff import run_diff

GAMES = list_games()


# For each game, a seed whose random play reaches game over early, and the frame it does (None:
# no seed's random play ends a game within the tool's frames; the test then runs 2,000 frames).
FIRST_EPISODE_END = {   # game: (seed, frame), from python -m cule.tools.episode_ends
    'alien': (0, 2477),
    'amidar': (2, 2149),
    'assault': (1, 1368),
    'asterix': (5, 863),
    'asteroids': (3, 1334),
    'atlantis': (3, 6587),
    'bank_heist': (4, 1814),
    'battle_zone': (2, 2611),
    'beam_rider': (3, 3796),
    'berzerk': (5, 718),
    'bowling': (2, 8359),
    'boxing': (0, 7141),
    'breakout': (5, 604),
    'centipede': (4, 3141),
    'chopper_command': (4, 2239),
    'crazy_climber': (0, 8922),
    'defender': (3, 1785),
    'demon_attack': (1, 3912),
    'double_dunk': (0, 7366),
    'elevator_action': (0, None),
    'enduro': (0, 13312),
    'fishing_derby': (3, 6875),
    'freeway': (0, 8192),
    'frostbite': (0, 1015),
    'gopher': (0, 3379),
    'gravitar': (5, 2188),
    'hero': (4, 1148),
    'ice_hockey': (0, 12800),
    'jamesbond': (1, 1888),
    'kangaroo': (0, 1450),
    'krull': (2, 4327),
    'kung_fu_master': (5, 3446),
    'montezuma_revenge': (1, 1682),
    'ms_pacman': (4, 1641),
    'name_this_game': (4, 6987),
    'phoenix': (1, 2058),
    'pitfall': (1, 1891),
    'pitfall2': (0, None),
    'pong': (3, 3056),
    'private_eye': (0, 10790),
    'qbert': (4, 1148),
    'riverraid': (5, 3020),
    'road_runner': (0, 283),
    'robotank': (5, 4075),
    'seaquest': (1, 1921),
    'skiing': (2, 4324),
    'solaris': (4, 16322),
    'space_invaders': (5, 1137),
    'star_gunner': (4, 3384),
    'surround': (5, 3924),
    'tennis': (4, 6679),
    'time_pilot': (3, 5153),
    'tutankham': (2, 2309),
    'up_n_down': (4, 1627),
    'venture': (2, 6330),
    'video_pinball': (3, 9337),
    'wizard_of_wor': (5, 4526),
    'yars_revenge': (0, 2520),
    'zaxxon': (0, 3540),
}


@pytest.mark.parametrize("game", GAMES)
def test_through_an_episode_end_equal_to_ale(game):
    """At least 2,000 frames, and 100 frames past the first game over (the next episode's start)."""
    seed, end = FIRST_EPISODE_END[game]
    mismatch, episode_ends = run_diff(game, frames=2000 if end is None else max(2000, end + 100), seed=seed)
    assert mismatch is None, mismatch.describe()
    assert episode_ends >= (0 if end is None else 1)


# Modes and difficulties other than the defaults: ALE's reset_game after loadROM, the SELECT
# recipes, and the custom menus of MsPacman and DoubleDunk.
@pytest.mark.parametrize("game, mode, difficulty", [
    ("space_invaders", 5, 0), ("breakout", 12, 1), ("pong", 1, 3), ("ms_pacman", 2, 0),
    ("double_dunk", 13, 0), ("surround", 2, 3), ("berzerk", 16, 0), ("freeway", 4, 1),
])
def test_modes_and_difficulties_equal_to_ale(game, mode, difficulty):
    mismatch, _ = run_diff(game, frames=500, seed=2, mode=mode, difficulty=difficulty)
    assert mismatch is None, mismatch.describe()


# The frame cap (max_num_frames_per_episode): truncated set on the same frame as ale-py's
# game_over(with_truncation=True), and a fresh episode after it; Breakout's seed 5 also reaches a
# game over inside the cap.
@pytest.mark.parametrize("game, seed, cap", [("pong", 0, 700), ("breakout", 5, 650), ("ms_pacman", 1, 900)])
def test_frame_cap_truncates_as_ale(game, seed, cap):
    mismatch, episode_ends = run_diff(game, frames=2000, seed=seed, max_frames=cap)
    assert mismatch is None, mismatch.describe()
    assert episode_ends >= 2000 // cap


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


def test_set_ram_as_ale_set_ram():
    """Breakout with its lives byte ($B9) set to 1 mid-game, on both: RAM, lives and the game
    over stay equal after the write."""
    import numpy as np

    from cule import CuleEnv
    from cule.games import get_game
    from cule.tools.oracle import AleOracle

    env = CuleEnv("breakout", num_envs=1)
    oracle = AleOracle(get_game("breakout"))
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 18, size=3000)
    for a in actions[:100]:
        env.step([a])
        oracle.act(int(a))
    ram = env.get_ram()
    ram[0, 0x39] = 1
    env.set_ram(ram)
    oracle.ale.setRAM(0x39, 1)
    for a in actions[100:]:
        _, _, terminated, _, info = env.step([a])
        ale = oracle.act(int(a))
        assert np.array_equal(env.get_ram()[0].numpy(), ale.ram)
        assert (int(info["lives"][0]), bool(terminated[0])) == (ale.lives, ale.terminal)
        if ale.terminal:
            break
    assert ale.terminal and ale.lives == 0
