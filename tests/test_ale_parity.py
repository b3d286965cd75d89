"""cule against ale-py 0.12.1, frame by frame: seeded random actions from the full action set;
RAM, screen, reward, terminal, lives and frame numbers compared after every frame, across
episode ends (cule's next-step autoreset against a fresh ale-py console)."""
import numpy as np
import pytest

from cule import CuleEnv
from cule.games import get_game, list_games
from cule.tools.diff import run_diff
from cule.tools.oracle import AleOracle

GAMES = list_games()
# Games shown other than as 210 NTSC rows: PAL consoles (250 rows, their palette, colour loss),
# and heights of their own.
OTHER_DISPLAYS = [g for g in GAMES if get_game(g).pal or get_game(g).screen_height != 210]


# For each game, a seed whose random play reaches game over early, and the frame it does (None:
# no seed's random play ends a game within the tool's frames; the test then runs 2,000 frames).
FIRST_EPISODE_END = {   # game: (seed, frame), from python -m cule.tools.episode_ends
    'adventure': (5, 12048),
    'air_raid': (0, 865),
    'alien': (0, 2477),
    'amidar': (2, 2149),
    'assault': (1, 1368),
    'asterix': (5, 863),
    'asteroids': (3, 1334),
    'atlantis': (3, 6587),
    'atlantis2': (5, 1927),
    'backgammon': (0, None),
    'bank_heist': (4, 1814),
    'basic_math': (3, 2507),
    'battle_zone': (2, 2611),
    'beam_rider': (3, 3796),
    'berzerk': (5, 718),
    'blackjack': (2, 5830),
    'bowling': (2, 8359),
    'boxing': (0, 7141),
    'breakout': (5, 604),
    'carnival': (5, 1448),
    'casino': (0, 2405),
    'centipede': (4, 3141),
    'chopper_command': (4, 2239),
    'crazy_climber': (0, 8922),
    'crossbow': (2, 6001),
    'darkchambers': (0, None),
    'defender': (3, 1785),
    'demon_attack': (1, 3912),
    'donkey_kong': (3, 2740),
    'double_dunk': (0, 7366),
    'earthworld': (0, None),
    'elevator_action': (0, None),
    'enduro': (0, 13312),
    'entombed': (2, 1022),
    'et': (0, None),
    'fishing_derby': (3, 6875),
    'flag_capture': (0, 4647),
    'freeway': (0, 8192),
    'frogger': (1, 874),
    'frostbite': (0, 1015),
    'galaxian': (0, 1057),
    'gopher': (0, 3379),
    'gravitar': (5, 2188),
    'hangman': (1, 530),
    'haunted_house': (4, 9045),
    'hero': (4, 1148),
    'human_cannonball': (4, 1806),
    'ice_hockey': (0, 12800),
    'jamesbond': (1, 1888),
    'journey_escape': (0, 2950),
    'kaboom': (3, 679),
    'kangaroo': (0, 1450),
    'keystone_kapers': (0, 17404),
    'king_kong': (0, 6275),
    'klax': (3, 421),
    'koolaid': (0, 3327),
    'krull': (2, 4327),
    'kung_fu_master': (5, 3446),
    'laser_gates': (3, 1209),
    'lost_luggage': (3, 3390),
    'mario_bros': (1, 657),
    'miniature_golf': (0, None),
    'montezuma_revenge': (1, 1682),
    'mr_do': (5, 1845),
    'ms_pacman': (4, 1641),
    'name_this_game': (4, 6987),
    'othello': (0, None),
    'pacman': (1, 1534),
    'phoenix': (1, 2058),
    'pitfall': (1, 1891),
    'pitfall2': (0, None),
    'pong': (3, 3056),
    'pooyan': (3, 2074),
    'private_eye': (0, 10790),
    'qbert': (4, 1148),
    'riverraid': (5, 3020),
    'road_runner': (0, 283),
    'robotank': (5, 4075),
    'seaquest': (1, 1921),
    'sir_lancelot': (0, 1036),
    'skiing': (2, 4324),
    'solaris': (4, 16322),
    'space_invaders': (5, 1137),
    'space_war': (0, None),
    'star_gunner': (4, 3384),
    'superman': (0, None),
    'surround': (5, 3924),
    'tennis': (4, 6679),
    'tetris': (0, 1304),
    'tic_tac_toe_3d': (2, 551),
    'time_pilot': (3, 5153),
    'trondead': (4, 444),
    'turmoil': (4, 1998),
    'tutankham': (2, 2309),
    'up_n_down': (4, 1627),
    'venture': (2, 6330),
    'video_checkers': (0, None),
    'video_chess': (0, None),
    'video_cube': (0, None),
    'video_pinball': (3, 9337),
    'wizard_of_wor': (5, 4526),
    'word_zapper': (4, 6247),
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
# recipes (Pac-Man's with a second RAM byte, Space War's in BCD), and the custom menus of MsPacman,
# DoubleDunk, VideoCheckers, VideoCube (a cube chosen with RIGHT), Adventure (SELECT lengths
# from ALE's environment RNG) and Klax (its mode in the Superchip's RAM). Frogger's game numbers
# are odd, HumanCannonball's mode needs one player too, Backgammon's only difficulty is not its
# default, Casino's poker follows 62 starting actions.
@pytest.mark.parametrize("game, mode, difficulty", [
    ("space_invaders", 5, 0), ("breakout", 12, 1), ("pong", 1, 3), ("ms_pacman", 2, 0),
    ("double_dunk", 13, 0), ("surround", 2, 3), ("berzerk", 16, 0), ("freeway", 4, 1),
    ("lost_luggage", 1, 1), ("video_checkers", 15, 0), ("video_cube", 1702, 1), ("word_zapper", 19, 3),
    ("frogger", 2, 1), ("human_cannonball", 5, 1), ("backgammon", 0, 3), ("casino", 3, 2), ("et", 2, 3),
    ("adventure", 2, 3), ("air_raid", 8, 0), ("pacman", 7, 1), ("pooyan", 70, 0), ("space_war", 17, 0),
    ("klax", 2, 0),
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


@pytest.mark.parametrize("game", OTHER_DISPLAYS)
def test_rgb_and_grey_frames_equal_to_ale(game):
    """render()'s RGB frames and the grey observations as ale-py's getScreenRGB and
    getScreenGrayscale: the PAL palette (odd entries where colour is lost) and the screen height."""
    env = CuleEnv(game, grayscale=True)
    oracle = AleOracle(get_game(game))
    obs, _ = env.reset(seed=0)
    for action in np.random.default_rng(0).integers(0, 18, size=300):
        obs, _, terminated, truncated, _ = env.step([action])
        oracle.ale.act(int(action))
        if terminated[0] or truncated[0]:
            break
        assert np.array_equal(env.render()[0], oracle.ale.getScreenRGB())
        assert np.array_equal(obs[0, -1].numpy(), oracle.ale.getScreenGrayscale())


def _white_pieces_taken(ram):
    """VideoCheckers' board with white's pieces ($90, $A0) taken off."""
    return {i: 0 for i in range(0x23) if i % 9 != 8 and ram[i] in (0x90, 0xA0)}


# Rewards random play does not reach, after the same RAM writes on both (ale-py's setRAM): a
# checkers game won (+1) and, in a reverse game, lost (-1: ALE's side comes from the mode);
# VideoCube's idle timer running over ($DB from $FF to 0: -1); a round of WordZapper won; more
# white discs in Othello; a hole of MiniatureGolf left after 3 strokes; black checkmated.
@pytest.mark.parametrize("game, mode, writes, action, frames", [
    ("video_checkers", 1, _white_pieces_taken, 0, 3),
    ("video_checkers", 11, _white_pieces_taken, 0, 3),
    ("video_cube", 0, lambda ram: {0x5B: 0xFF}, 0, 400),
    ("word_zapper", 0, lambda ram: {0x5C: 0}, 0, 20),
    ("othello", 0, lambda ram: {0x4E: 0x05}, 0, 20),
    ("miniature_golf", 0, lambda ram: {0x07: 0x03, 0x08: 0, 0x2F: 0x02}, 0, 20),
    ("video_chess", 0, lambda ram: {0x61: 0x82, 0x6E: 0}, 0, 3),
])
def test_rules_after_set_ram_as_ale(game, mode, writes, action, frames):
    env = CuleEnv(game, num_envs=1, mode=mode)
    oracle = AleOracle(get_game(game), mode=mode)
    env.reset(seed=0)
    for a in [*np.random.default_rng(0).integers(0, 18, size=60), *[0] * 100]:   # VideoCube's timer then runs
        env.step([a])
        oracle.act(int(a))
    ram = env.get_ram()
    for address, value in writes(ram[0].numpy()).items():
        ram[0, address] = value
        oracle.ale.setRAM(address, value)
    env.set_ram(ram)
    rewards = []
    for _ in range(frames):
        _, reward, terminated, _, info = env.step([action])
        ale = oracle.act(action)
        assert np.array_equal(env.get_ram()[0].numpy(), ale.ram)
        assert (int(reward[0]), bool(terminated[0]), int(info["lives"][0])) == (ale.reward, ale.terminal, ale.lives)
        rewards.append(ale.reward)
        if ale.terminal:
            break
    assert any(rewards)


@pytest.mark.parametrize("game", ["backgammon", "blackjack", "casino"])
def test_paddles_over_their_whole_range_equal_to_ale(game):
    """Paddle games whose paddle_max differs (Backgammon, Blackjack) and one at ALE's default
    (Casino), driven to both ends of the range and back: RAM and screen equal ale-py's every
    frame, and ALE's paddle does reach each end."""
    from cule.ale_state import parse_ale_state
    from cule.games import ACTIONS

    spec = get_game(game)
    env = CuleEnv(game, num_envs=1)
    oracle = AleOracle(spec)
    env.reset(seed=0)
    left, right = ACTIONS["LEFT"], ACTIONS["RIGHT"]   # LEFT turns the paddle up to paddle_max
    paddle_min = 27450   # ALE's PADDLE_MIN
    for actions, end in (([left] * 40, spec.paddle_max), ([right] * 60, paddle_min), ([left] * 30, None)):
        for a in actions:
            env.step([a])
            frame = oracle.act(a)
            assert np.array_equal(env.get_ram()[0].numpy(), frame.ram)
            assert np.array_equal(env.get_screens()[0].numpy(), frame.screen)
        if end is not None:
            state = parse_ale_state(oracle.ale.cloneState().serialize(), spec, oracle.path.read_bytes())
            assert state["m_left_paddle"] == end
