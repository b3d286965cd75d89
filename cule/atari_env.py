"""One environment with ale-py's AtariEnv interface: what `gymnasium.make("cule/Pong-v5")` gives,
and what gymnasium's own vector envs build on (`gymnasium.make_vec(..., vectorization_mode="sync")`).
A CuleEnv of one environment on the CPU backend underneath."""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch

from . import _core
from .env import CuleEnv, step_inputs
from .spaces import UniformBox

RNG_BYTES = _core.layout()["rng"]   # an env's random stream (EnvRng), after a state cloned with it

# AtariEnv's observation types, as CuleEnv options.
OBS_TYPES = {"rgb": dict(grayscale=False), "grayscale": dict(grayscale=True), "ram": dict(obs_type="ram")}


class AtariEnvError(gymnasium.error.Error, ValueError):
    """A setting ale-py's AtariEnv or AtariVectorEnv takes that cule cannot give, or refuses as
    they do: gymnasium's error, as ale-py raises, and a ValueError, as cule's other checks raise."""


class CuleAtariEnv(gymnasium.Env):
    """ale-py's AtariEnv (its defaults: frameskip 4, sticky actions 0.25, the minimal action set,
    full-size frames; a frameskip (low, high) draws each step's frames from np_random, as
    AtariEnv does): observations (210, 160, 3) RGB, (210, 160) grey or the 128 RAM bytes (with
    sound_obs a dict of that "image" and the "sound" of the step's last frame, 512 samples),
    rewards summed over the frameskip as a float, info with lives and frame numbers. With
    repeat_action_probability 0 it steps as AtariEnv does, frame for frame; with sticky actions
    its draws are cule's own. Episodes end as AtariEnv's: reset() starts the next (a step after
    the end starts it too, where AtariEnv would repeat the last frame). A seeded reset gives
    ale-py's info["seeds"] and seeds np_random as ale-py does, so that wrappers' no-op draws are
    the same; `ale` is CuleALE, what wrappers call of ALEInterface."""

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, game: str, mode: int | None = None, difficulty: int | None = None, obs_type: str = "rgb",
                 frameskip: int = 4, repeat_action_probability: float = 0.25, full_action_space: bool = False,
                 max_num_frames_per_episode: int | None = None, render_mode: str | None = None,
                 continuous: bool = False, continuous_action_threshold: float = 0.5, sound_obs: bool = False,
                 device: str = "cpu"):
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {sorted(OBS_TYPES)}, got {obs_type!r}")
        _check_frameskip(frameskip)
        # Continuous actions, (radius, angle, fire), as AtariEnv's (CuleEnv's `continuous`).
        self.continuous, self.continuous_action_threshold = bool(continuous), continuous_action_threshold
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be 'rgb_array' or None, got {render_mode!r}")
        # A stochastic frameskip, (low, high): each step plays low .. high - 1 frames, drawn from
        # np_random as AtariEnv draws it, one-frame steps of the env underneath.
        self._env = CuleEnv(game, 1, device=device, frameskip=frameskip if isinstance(frameskip, int) else 1,
                            mode=mode, difficulty=difficulty,
                            repeat_action_probability=repeat_action_probability,
                            full_action_space=full_action_space,
                            max_num_frames_per_episode=max_num_frames_per_episode or 0, frame_cap_from_reset=True,
                            output="numpy",
                            num_threads=1, show_end_frame=True, continuous=self.continuous,
                            continuous_action_threshold=continuous_action_threshold, sound=bool(sound_obs),
                            **OBS_TYPES[obs_type])
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "render_fps": self._env.metadata["render_fps"]}
        self.game = self._env.game
        space = self._env.single_observation_space
        self.observation_space = UniformBox(0, 255, space.shape[1:], np.uint8)   # without the stack's axis
        # ale-py's sound observation: the 512 samples of each step's last frame beside the image.
        # Its generator runs on across reset_game and restored states; loading the ROM (the first
        # reset, a seeded one) starts it afresh, with zeros for samples until a frame plays.
        self.sound_obs = bool(sound_obs)
        if self.sound_obs:
            self.observation_space = gymnasium.spaces.Dict(
                image=self.observation_space, sound=UniformBox(0, 255, (_core.SOUND_SAMPLES,), np.uint8))
        self._sound = np.zeros(_core.SOUND_SAMPLES, np.uint8)   # ALE's getAudio()
        self._sound_loaded = False   # a reset has loaded the ROM: the generator runs on from there
        self._sound_from: np.ndarray | None = None   # a state whose generator is ahead of the env's
        self.action_space = self._env.single_action_space
        self._frameskip = frameskip   # AtariEnv's name, which gymnasium's AtariPreprocessing reads
        self._action_set = list(self._env.action_set)   # AtariEnv's: ALE's ids of the actions
        self._over = (False, False)   # the last step's terminated and truncated
        # A step is one step of the env underneath, with nothing of _play's to add.
        self._plays_one = isinstance(frameskip, int) and not self.sound_obs
        self.ale = CuleALE(self)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        carried = self._sound_state() if self.sound_obs and self._sound_loaded and seed is None else None
        obs, info = self._env.reset(seed=seed)
        self._over = (False, False)
        info = _one(info)
        if self.sound_obs:
            log, state = self._env._reset_sound, self._env.get_states()[0].numpy()
            if carried is None:   # the ROM loaded again: a new generator, no samples yet
                self._sound[:] = 0
            else:                 # reset_game: the generator runs on through the reset
                state = _core.replay_reset_sound(carried, state, log)
                self._env.set_states(state[None])
            if len(log) > 1:      # the reset played frames with sound (a few games' mode selection)
                self._sound = _core.sound_samples(state[None])[0]
            self._sound_loaded, self._sound_from = True, None
        if seed is not None:   # AtariEnv's seeds: its np_random (wrappers' no-op draws) and ALE's seed
            np_seed, ale_seed = np.random.SeedSequence(seed).generate_state(n_words=2)
            self._np_random, _ = gymnasium.utils.seeding.np_random(int(np_seed))
            info["seeds"] = (np_seed, ale_seed)
        return self._observation(obs), info

    def step(self, action):
        if (type(action) is int or isinstance(action, np.integer)) and 0 <= action < len(self._action_set) \
                and self._env._steps_one:   # the common case, lean: no arrays in, no tensors out
            if not self._plays_one:
                return self._play(lambda: self._lean_step(action))
            obs, reward, terminated, truncated, info = self._lean_step(action)
            self._over = (terminated, truncated)
            return obs[0, 0], reward, terminated, truncated, info
        if self.continuous and np.shape(action) != (3,):
            raise ValueError(f"a continuous action is (radius, angle, fire), got shape {np.shape(action)}")
        actions = np.asarray(action)[None] if self.continuous else np.asarray([action])
        return self._play(lambda: _one_step(self._env.step(actions)))

    def _lean_step(self, action: int) -> tuple:
        stack, reward, terminated, truncated, lives, frame, episode_frame = self._env._step_one(action)
        return stack[None], reward, terminated, truncated, \
            {"lives": lives, "episode_frame_number": episode_frame, "frame_number": frame}

    def _play(self, one_step):
        """A step of `one_step()`s, the env underneath's steps (as _one_step gives them): the
        frameskip's, or a stochastic one drawn here; those after an episode's end play nothing,
        as in ALE."""
        steps = 1 if isinstance(self._frameskip, int) else int(self.np_random.integers(*self._frameskip))
        total = 0.0
        for _ in range(steps):
            obs, reward, terminated, truncated, info = one_step()
            total += reward
            self._over = (terminated, truncated)
            steps -= 1
            if terminated or truncated:
                break
        if self.sound_obs:
            state = self._env.get_states()[0].numpy()
            # The frames ALE plays after an episode's end emulate nothing but still run the sound.
            self._sound_from = _core.sound_frames(state, steps) if steps else None
            self._sound = _core.sound_samples(self._sound_state(state)[None])[0]
        return self._observation(obs), total, *self._over, info

    def _observation(self, obs) -> np.ndarray | dict[str, np.ndarray]:
        return {"image": obs[0, 0], "sound": self._sound.copy()} if self.sound_obs else obs[0, 0]

    def _sound_state(self, state: np.ndarray | None = None) -> np.ndarray:
        """A state holding the sound generator as ALE's now is; `state`: the env's, where read already."""
        if self._sound_from is not None:
            return self._sound_from
        return self._env.get_states()[0].numpy() if state is None else state

    def clone_state(self, include_rng: bool = False) -> np.ndarray:
        """The env's whole state (AtariEnv's clone_state), for restore_state; with include_rng
        also its random stream (the sticky actions' draws), 16 bytes after the state."""
        state = self._env.get_states()[0].numpy()
        if include_rng:
            state = np.concatenate([state, self._env._backend.rngs()[0].numpy().view(np.uint8)])
        return state.copy()

    def restore_state(self, state: np.ndarray) -> None:
        state = np.asarray(state)
        size = self._env.get_states().shape[1]
        if state.ndim == 1 and state.dtype == np.uint8 and len(state) == size + RNG_BYTES:
            state, rng = state[:size], state[size:]
        else:
            rng = None
        generator = self._sound_state() if self.sound_obs and self._sound_loaded else None
        self._env.set_states(state[None])
        if generator is not None:   # ALE's generator is not part of its states: it runs on
            self._env.set_states(_core.carry_sound(generator, self._env.get_states()[0].numpy())[None])
            self._sound_from = None
        if rng is not None:
            self._env._backend.set_rngs(torch.from_numpy(rng.copy().view(np.int64)[None]), np.zeros(1, np.int64))
        self._over = (False, False)

    def render(self) -> np.ndarray | None:
        return self._env.render()[0] if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        self._env.close()

    def get_action_meanings(self) -> list[str]:
        return [_core.ACTION_NAMES[a] for a in self._env.action_set]

    def get_keys_to_action(self) -> dict[tuple[str, ...], int]:
        """AtariEnv's keys for human play (gymnasium.utils.play): w, s, a, d to move, space to
        fire, e for NOOP; each action of the env's set by its keys."""
        if self.continuous:   # ale-py's words
            raise AttributeError("`get_keys_to_action` can't be provided for this Atari environment as "
                                 "`continuous=True`.")
        keys = {}
        for index, name in enumerate(self.get_action_meanings()):
            parts = [key for word, key in (("UP", "w"), ("DOWN", "s"), ("LEFT", "a"), ("RIGHT", "d"), ("FIRE", " "))
                     if word in name]
            keys[tuple(parts) or ("e",)] = index
        return keys


def _check_frameskip(frameskip) -> None:
    """AtariEnv's checks of a frameskip: a positive int, or (low, high) with 0 < low < high."""
    if type(frameskip) not in (int, tuple):
        raise AtariEnvError(f"Invalid frameskip type: {type(frameskip)}: frameskip must be a positive int or a "
                            f"(low, high) tuple")
    if isinstance(frameskip, int) and frameskip <= 0:
        raise AtariEnvError(f"Invalid frameskip of {frameskip}, frameskip must be positive.")
    if isinstance(frameskip, tuple) and (len(frameskip) != 2 or not all(type(f) is int for f in frameskip)
                                         or not 0 < frameskip[0] < frameskip[1]):
        raise AtariEnvError(f"Invalid stochastic frameskip {frameskip!r}: it must be (low, high), ints with "
                            f"0 < low < high")


def _one(info: dict) -> dict[str, int]:
    """AtariEnv's info: lives and frame numbers as ints."""
    return {k: int(info[k][0]) for k in ("lives", "episode_frame_number", "frame_number")}


def _one_step(step: tuple) -> tuple:
    """A one-env CuleEnv's step() as AtariEnv's: (stacks, reward as a float, flags as bools, its info)."""
    obs, reward, terminated, truncated, info = step
    return obs, float(reward[0]), bool(terminated[0]), bool(truncated[0]), _one(info)


class CuleState:
    """What `ale.cloneState()` gives, as ale-py's ALEState: serialize() gives its bytes, and
    CuleState(bytes) makes it again; equal states have equal bytes; it pickles."""

    def __init__(self, data: bytes):
        self._data = bytes(data)

    def serialize(self) -> bytes:
        return self._data

    def __eq__(self, other) -> bool:
        return isinstance(other, CuleState) and self._data == other._data

    __hash__ = None


class CuleALE:
    """`env.unwrapped.ale`: the methods of ale-py's ALEInterface that wrappers and tools call
    (gymnasium's AtariPreprocessing, SB3's and CleanRL's Atari wrappers), on a CuleAtariEnv's one
    env. Actions are ALE's ids, as ints (ale-py gives its Action enum); act() is one frame, so it
    needs frameskip=1 (the NoFrameskip ids)."""

    def __init__(self, env: CuleAtariEnv):
        self._atari = env
        self._env = env._env

    def lives(self) -> int:
        return int(self._env._info()["lives"][0])

    def getFrameNumber(self) -> int:
        return int(self._env._info()["frame_number"][0])

    def getEpisodeFrameNumber(self) -> int:
        return int(self._env._info()["episode_frame_number"][0])

    def game_over(self, with_truncation: bool = True) -> bool:
        terminated, truncated = self._atari._over
        return terminated or (with_truncation and truncated)

    def game_truncated(self) -> bool:
        return self._atari._over[1]

    def getScreenDims(self) -> tuple[int, int]:
        return self._atari.game.screen_height, _core.SCREEN_WIDTH

    def getScreen(self, buffer: np.ndarray | None = None) -> np.ndarray | None:
        return _into(buffer, self._env.get_screens()[0].numpy())

    def getScreenRGB(self, buffer: np.ndarray | None = None) -> np.ndarray | None:
        return self._frame(False, buffer)

    def getScreenGrayscale(self, buffer: np.ndarray | None = None) -> np.ndarray | None:
        return self._frame(True, buffer)

    def _frame(self, grey: bool, buffer: np.ndarray | None) -> np.ndarray | None:
        shape = (self._atari.game.screen_height, _core.SCREEN_WIDTH) + (() if grey else (3,))
        # Into the caller's buffer itself where the engine can write it (AtariPreprocessing's).
        if (isinstance(buffer, np.ndarray) and buffer.shape == shape and buffer.dtype == np.uint8
                and buffer.flags.c_contiguous and buffer.flags.writeable and self._env.backend == "cpu"):
            self._env._frames(grey, buffer[None])
            return None
        return _into(buffer, self._env._frames(grey)[0].cpu().numpy())

    def getAudio(self, buffer: np.ndarray | None = None) -> np.ndarray | None:
        """The samples of the last frame played (zeros without sound_obs, or before a step)."""
        return _into(buffer, self._atari._sound)

    def getRAMSize(self) -> int:
        return _core.RAM_BYTES

    def getRAM(self, buffer: np.ndarray | None = None) -> np.ndarray | None:
        return _into(buffer, self._env.get_ram()[0].numpy())

    def setRAM(self, index: int, value: int) -> None:
        if not 0 <= index < _core.RAM_BYTES or not 0 <= value <= 255:
            raise AtariEnvError(f"setRAM takes an index in [0, {_core.RAM_BYTES}) and a byte, got {index}, {value}")
        ram = self._env.get_ram()[0].numpy().copy()
        ram[index] = value
        self._env.set_ram(ram[None])

    def getMinimalActionSet(self) -> list[int]:
        return list(self._atari.game.minimal_actions)

    def getLegalActionSet(self) -> list[int]:
        return list(range(len(_core.ACTION_NAMES)))

    def cloneState(self, include_rng: bool = False) -> CuleState:
        return CuleState(self._atari.clone_state(include_rng).tobytes())

    def cloneSystemState(self) -> CuleState:
        """The state with the env's random stream, as ALE's."""
        return self.cloneState(include_rng=True)

    def restoreState(self, state: CuleState | np.ndarray) -> None:
        data = state.serialize() if isinstance(state, CuleState) else state
        self._atari.restore_state(np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data)

    def restoreSystemState(self, state: CuleState | np.ndarray) -> None:
        self.restoreState(state)

    def reset_game(self) -> None:
        self._atari.reset()

    def act(self, action: int, paddle_strength: float = 1.0) -> int:
        """One frame of ALE action `action` (any of the 18: one the game does not take plays
        NOOP, as in ALE), paddles turned at `paddle_strength`; its reward."""
        if self._atari._frameskip != 1:
            raise AtariEnvError(f"ale.act() plays one frame: it needs an env made with frameskip=1 (the "
                                f"NoFrameskip ids), this one skips {self._atari._frameskip}")
        if not 0 <= int(action) < len(_core.ACTION_NAMES):
            raise AtariEnvError(f"action {int(action)} is not one of ALE's actions 0..{len(_core.ACTION_NAMES) - 1}")
        if not np.isfinite(paddle_strength):
            raise AtariEnvError(f"paddle_strength must be finite, got {paddle_strength}")
        inputs = step_inputs([int(action)], [paddle_strength]).to(self._env.device)
        return int(self._atari._play(lambda: _one_step(self._env._step_inputs(inputs)))[1])


def _into(buffer: np.ndarray | None, value: np.ndarray) -> np.ndarray | None:
    """ALEInterface's convention: fill `buffer` (and give None), or give a new array."""
    if buffer is None:
        return value.copy()
    if buffer.shape != value.shape or buffer.dtype != np.uint8:
        raise AtariEnvError(f"the buffer must be uint8 of shape {value.shape}, got {buffer.dtype} {buffer.shape}")
    buffer[...] = value
    return None
