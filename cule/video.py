"""Videos of chosen environments of a vector env, one file per episode (gymnasium's RecordVideo
does not take vector envs): animated GIFs by default, or MP4 (H.264) with imageio-ffmpeg
(`pip install 'cule[video]'`). Frames are the emulator's palette indices, so the GIF keeps the
exact NTSC or PAL colours without quantising, and needs no imaging library.

    env = RecordVideo(cule.CuleEnv("Pong", num_envs=64, frameskip=4), "videos", env_ids=[0, 1])
    env = RecordVideo(cule.CuleEnv("Pong", num_envs=64, frameskip=4), "videos", video_format="mp4")
"""
from __future__ import annotations

import struct
from pathlib import Path
from typing import Sequence

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from . import _cpu

# LZW with 8-bit pixels: codes of 9 bits, a clear code often enough that the table never
# needs wider ones. Bigger files than a real LZW coder, written at numpy speed.
_CLEAR, _END, _CODES_PER_CLEAR = 256, 257, 250


def _lzw_literal(pixels: np.ndarray) -> bytes:
    codes = pixels.astype(np.uint16).reshape(-1)
    groups = -(-len(codes) // _CODES_PER_CLEAR)
    stream = np.full(groups * (_CODES_PER_CLEAR + 1), _CLEAR, dtype=np.uint16)
    slots = np.arange(len(codes)) + np.arange(len(codes)) // _CODES_PER_CLEAR + 1
    stream[slots] = codes
    used = slots[-1] + 1 if len(codes) else 1
    stream = np.concatenate([stream[:used], [_END]]).astype(np.uint16)
    bits = ((stream[:, None] >> np.arange(9)) & 1).astype(np.uint8).reshape(-1)
    return np.packbits(bits, bitorder="little").tobytes()


def _sub_blocks(data: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(data), 255):
        block = data[i:i + 255]
        out += bytes([len(block)]) + block
    return bytes(out + b"\x00")


def write_gif(path: str | Path, frames: Sequence[np.ndarray], fps: float = 30.0, pal: bool = False) -> None:
    """An animated GIF of frames of ALE palette indices, (height, 160) uint8 each, looping; `pal`:
    the frames are a PAL console's (Game.pal)."""
    if not len(frames):
        raise ValueError("write_gif needs at least one frame")
    height, width = frames[0].shape
    delay = max(1, round(100 / fps))   # hundredths of a second
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0))
    out += _cpu.palette_rgb(pal).astype(np.uint8).tobytes()
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"   # loop forever
    for frame in frames:
        out += b"\x21\xf9\x04\x00" + struct.pack("<H", delay) + b"\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
        out += b"\x08" + _sub_blocks(_lzw_literal(np.asarray(frame, dtype=np.uint8)))
    Path(path).write_bytes(bytes(out + b"\x3b"))


def _imageio_ffmpeg():
    try:
        import imageio_ffmpeg
    except ImportError as e:
        raise ImportError("MP4 videos need imageio-ffmpeg: pip install 'cule[video]' (or video_format='gif')") from e
    return imageio_ffmpeg


def write_mp4(path: str | Path, frames: Sequence[np.ndarray], fps: float = 30.0, pal: bool = False) -> None:
    """An H.264 MP4 (yuv420p, what players expect) of frames of ALE palette indices; `pal`: the
    frames are a PAL console's (Game.pal)."""
    if not len(frames):
        raise ValueError("write_mp4 needs at least one frame")
    height, width = frames[0].shape
    palette = _cpu.palette_rgb(pal).astype(np.uint8)
    # macro_block_size=1: keep 160 x height (both even, as yuv420p needs) instead of padding to 16s.
    writer = _imageio_ffmpeg().write_frames(str(path), (width, height), fps=fps, codec="libx264",
                                            macro_block_size=1, ffmpeg_log_level="error")
    writer.send(None)
    try:
        for frame in frames:
            writer.send(np.ascontiguousarray(palette[np.asarray(frame, dtype=np.uint8)]))
    finally:
        writer.close()


WRITERS = {"gif": write_gif, "mp4": write_mp4}


class RecordVideo(gymnasium.vector.VectorWrapper):
    """Records environments `env_ids` of a CuleEnv: `<folder>/env<i>-episode<k>.<video_format>`
    when an episode of env i ends, and the unfinished ones on close(). Needs NextStep autoreset,
    where the step that ends an episode still shows its last frame."""

    def __init__(self, env, folder: str | Path, env_ids: Sequence[int] = (0,), fps: float = 30.0,
                 video_format: str = "gif"):
        super().__init__(env)
        if env.metadata.get("autoreset_mode") != AutoresetMode.NEXT_STEP:
            raise ValueError("RecordVideo needs autoreset_mode='NextStep'")
        if video_format not in WRITERS:
            raise ValueError(f"video_format must be one of {sorted(WRITERS)}, got {video_format!r}")
        if video_format == "mp4":
            _imageio_ffmpeg()   # missing: say so now, not at the end of the first episode
        self.video_format = video_format
        self.env_ids = [int(i) for i in env_ids]
        bad = [i for i in self.env_ids if not 0 <= i < env.num_envs]
        if bad:
            raise ValueError(f"env id {bad[0]} is out of range: ids are 0..{env.num_envs - 1}")
        self.folder, self.fps = Path(folder), fps
        self.folder.mkdir(parents=True, exist_ok=True)
        self._frames: dict[int, list[np.ndarray]] = {i: [] for i in self.env_ids}
        self._episodes = {i: 0 for i in self.env_ids}

    def reset(self, **kwargs):
        self._save_unfinished()
        out = self.env.reset(**kwargs)
        self._capture()
        return out

    def step(self, actions):
        obs, reward, terminated, truncated, info = self.env.step(actions)
        self._capture()
        for i in self.env_ids:
            if terminated[i] or truncated[i]:
                self._save(i)
        return obs, reward, terminated, truncated, info

    def close(self, **kwargs):
        self._save_unfinished()
        return super().close(**kwargs)

    def _capture(self) -> None:
        screens = self.env.unwrapped.get_screens().numpy()
        for i in self.env_ids:
            self._frames[i].append(screens[i].copy())

    def _save(self, i: int) -> None:
        if self._frames[i]:
            path = self.folder / f"env{i}-episode{self._episodes[i]}.{self.video_format}"
            WRITERS[self.video_format](path, self._frames[i], self.fps, pal=self.env.unwrapped.game.pal)
            self._episodes[i] += 1
        self._frames[i] = []

    def _save_unfinished(self) -> None:
        for i in self.env_ids:
            self._save(i)
