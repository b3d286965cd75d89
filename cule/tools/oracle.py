"""ale-py 0.12.1 as the oracle: one ALEInterface played with frameskip 1 and no sticky actions,
reloaded at each episode end (a fresh console, as gymnasium's reset(seed=...) gives). Its frame
number keeps counting across episodes, as on one console (reset_game, AtariVectorEnv): the
reload adds the frames the reset counted."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games import Game


@dataclass
class AleFrame:
    ram: np.ndarray
    screen: np.ndarray        # palette indices (height, 160)
    reward: int
    terminal: bool
    truncated: bool          # the frame cap ended the episode (and the game is not over)
    lives: int
    frame_number: int
    episode_frame_number: int


class AleOracle:
    def __init__(self, game: Game, mode: int | None = None, difficulty: int | None = None,
                 max_frames: int = 0):
        import ale_py
        from ale_py import roms

        ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
        self.ale = ale_py.ALEInterface()
        self.ale.setInt("random_seed", 0)
        self.ale.setFloat("repeat_action_probability", 0.0)
        self.ale.setInt("frame_skip", 1)
        self.ale.setInt("max_num_frames_per_episode", max_frames)
        self.path = roms.get_rom_path(game.id)
        self.mode, self.difficulty = mode, difficulty
        self.frame_offset = 0
        self.frame_number: int | None = None   # the last one reported
        self.load()

    def load(self) -> AleFrame:
        """A fresh console after ALE's reset, as gymnasium's reset(seed=...) makes it: loadROM,
        the chosen mode and difficulty, reset_game."""
        self.ale.loadROM(str(self.path))
        if self.mode is not None:
            self.ale.setMode(self.mode)
        if self.difficulty is not None:
            self.ale.setDifficulty(self.difficulty)
        self.ale.reset_game()
        if self.frame_number is not None:
            self.frame_offset = (self.frame_number + self.ale.getEpisodeFrameNumber()
                                 - self.ale.getFrameNumber())
        return self.observe(0)

    def act(self, action: int) -> AleFrame:
        return self.observe(int(self.ale.act(action)))

    def observe(self, reward: int) -> AleFrame:
        ale = self.ale
        terminal = bool(ale.game_over(with_truncation=False))
        self.frame_number = int(ale.getFrameNumber()) + self.frame_offset
        return AleFrame(ram=ale.getRAM().copy(), screen=ale.getScreen().copy(), reward=reward,
                        terminal=terminal, truncated=bool(ale.game_over(with_truncation=True)) and not terminal,
                        lives=int(ale.lives()),
                        frame_number=self.frame_number,
                        episode_frame_number=int(ale.getEpisodeFrameNumber()))
