"""States saved by ale-py (cloneState) loaded into cule environments: an env started from ALE's
state at some frame plays on as ALE does (RAM, screen, reward, game over, lives, frame numbers),
for a game of every cartridge scheme and every game whose rules keep memory of their own."""
import numpy as np
import pytest
import torch

from cule import CuleEnv
from cule.ale_state import AleStateError
from cule.games import get_game
from cule.tools.oracle import AleOracle

GAMES = [
    "pong", "space_invaders", "ms_pacman", "road_runner", "montezuma_revenge", "robotank",   # 2K 4K F8 F6 E0 FE
    "elevator_action", "pitfall2",   # F8SC DPC
    "breakout", "beam_rider", "chopper_command", "qbert", "riverraid", "star_gunner", "tennis", "time_pilot",
    "wizard_of_wor", "backgammon", "casino", "hangman", "haunted_house",   # rules with memory
    "othello", "video_checkers", "video_cube", "word_zapper",   # more memory; video_checkers: of the mode
    "blackjack",   # a paddle range of its own
    "kaboom",   # paddles on the left port only
    "air_raid", "pooyan",   # a PAL console losing colour; 220 rows from scanline 26
    "darkchambers", "klax",   # Superchip RAM; Klax's rules read it
]


@pytest.mark.parametrize("game", GAMES)
def test_env_started_from_an_ale_state_plays_on_as_ale(game):
    ale = AleOracle(get_game(game))
    env = CuleEnv(game, num_envs=2)
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    n = len(env.action_set)
    for _ in range(1500):   # ALE alone, to somewhere in the game (lives lost in most)
        frame = ale.act(int(rng.integers(n)))
        if frame.terminal:
            frame = ale.load()
    env.set_states(env.states_from_ale([ale.ale.cloneState()]), [1])
    ram, info = env.get_ram(), env._info()
    assert np.array_equal(ram[1].numpy(), ale.ale.getRAM())
    assert info["lives"][1] == ale.ale.lives()
    assert info["frame_number"][1] == ale.ale.getFrameNumber()
    assert info["episode_frame_number"][1] == ale.ale.getEpisodeFrameNumber()
    for k in range(300):
        action = int(rng.integers(n))
        _, reward, terminated, _, info = env.step([0, action])
        frame = ale.act(action)
        assert np.array_equal(env.get_ram()[1].numpy(), frame.ram), f"RAM, frame {k}"
        assert np.array_equal(env.get_screens()[1].numpy(), frame.screen), f"screen, frame {k}"
        assert (reward[1], terminated[1], info["lives"][1]) == (frame.reward, frame.terminal, frame.lives), k
        assert info["episode_frame_number"][1] == frame.episode_frame_number, k
        if frame.terminal:
            break


def test_episodes_can_start_from_ale_states():
    ale = AleOracle(get_game("breakout"))
    for _ in range(200):
        ale.act(3)
    env = CuleEnv("breakout", num_envs=3, max_num_frames_per_episode=5)
    env.set_reset_states(env.states_from_ale([ale.ale.cloneState().serialize()]))
    env.reset(seed=0)
    assert all(np.array_equal(ram, ale.ale.getRAM()) for ram in env.get_ram().numpy())


def test_foreign_or_broken_states_are_refused():
    ale = AleOracle(get_game("pong"))
    raw = ale.ale.cloneState().serialize()
    breakout = CuleEnv("breakout")
    with pytest.raises(AleStateError, match=r"of the ROM with md5 \w+, not breakout's"):
        breakout.states_from_ale([raw])
    pong = CuleEnv("pong")
    with pytest.raises(AleStateError, match="the state is cut short or not an ALE state"):
        pong.states_from_ale([raw[:-12]])
    with pytest.raises(AleStateError, match="ends early"):
        pong.states_from_ale([raw[:20]])
    with pytest.raises(TypeError, match=r"ale_states\[0\] must be an ale_py.ALEState or its serialize\(\) bytes"):
        pong.states_from_ale([torch.zeros(3)])
    with pytest.raises(ValueError, match="at least one state"):
        pong.states_from_ale([])


def test_a_counter_of_the_rules_is_loaded_as_ale_saved_it():
    """Othello counts the frames without a turn ($C0 = 0) and ends the game after 50: a state
    saved 20 frames into such a run ends on the same frame as ALE (the rules' run on the loaded
    RAM must not count one more)."""
    ale = AleOracle(get_game("othello"))
    for _ in range(100):
        ale.act(0)
    ale.ale.setRAM(0x40, 0)   # nobody's turn
    for _ in range(20):
        ale.act(0)
    env = CuleEnv("othello", num_envs=1)
    env.reset(seed=0)
    env.set_states(env.states_from_ale([ale.ale.cloneState()]))
    for k in range(60):
        _, _, terminated, _, _ = env.step([0])
        frame = ale.act(0)
        assert bool(terminated[0]) == frame.terminal, k
        if frame.terminal:
            break
    assert frame.terminal
