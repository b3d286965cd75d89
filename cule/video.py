"""Videos of chosen environments of a vector env, one file per episode of each: animated GIFs
(Pillow) by default, or MP4 (H.264) with imageio-ffmpeg (`pip install '.[video]'`). Frames are
the emulator's palette indices, so the GIF keeps the exact NTSC or PAL colours without
quantising. Videos play in real time by default: 60 frames a second on NTSC consoles, 50 on PAL,
over the env's frameskip.

gymnasium.wrappers.vector.RecordVideo takes a CuleEnv too (MoviePy; tests/test_gymnasium_wrappers.py):
it puts every env's RGB frame side by side in one MP4 per episode of env 0. This one records
the envs chosen, each to its own files, and GIFs.

    env = RecordVideo(cule.CuleEnv("Pong", num_envs=64, frameskip=4), "videos", env_ids=[0, 1])
    env = RecordVideo(cule.CuleEnv("Pong", num_envs=64, frameskip=4), "videos", video_format="mp4")
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from . import _core


def _pillow():
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError("GIF videos need Pillow: pip install '.[video]' (or pillow)") from e
    return Image


def write_gif(path: str | Path, frames: Sequence[np.ndarray], fps: float = 30.0, pal: bool = False) -> None:
    """An animated GIF of frames of ALE palette indices, (height, 160) uint8 each, looping; `pal`:
    the frames are a PAL console's (Game.pal). Pillow joins identical frames in a row into one
    shown for as long."""
    if not len(frames):
        raise ValueError("write_gif needs at least one frame")
    Image = _pillow()
    palette = _core.palette_rgb(pal).astype(np.uint8).tobytes()
    images = []
    for frame in frames:
        frame = np.ascontiguousarray(frame, dtype=np.uint8)
        image = Image.frombytes("P", (frame.shape[1], frame.shape[0]), frame.tobytes())
        image.putpalette(palette)
        images.append(image)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=gif_delays(len(frames), fps),
                   loop=0)


def gif_delays(n: int, fps: float) -> list[int]:
    """Each of n frames' delay in milliseconds, in the GIF's hundredths of a second, so that
    frame k ends at k / fps rounded: 15 frames a second as 70, 60 and 70 ms in turn."""
    ends = np.round(np.arange(n + 1) * 100 / fps).astype(np.int64)
    return [int(d) * 10 for d in np.diff(ends)]


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
    palette = _core.palette_rgb(pal).astype(np.uint8)
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
    when an episode of env i ends, and the unfinished ones on close(), at `fps` frames a second
    (default: real time). Needs NextStep autoreset, where the step that ends an episode still
    shows its last frame."""

    def __init__(self, env, folder: str | Path, env_ids: Sequence[int] = (0,), fps: float | None = None,
                 video_format: str = "gif"):
        super().__init__(env)
        if env.metadata.get("autoreset_mode") != AutoresetMode.NEXT_STEP:
            raise ValueError("RecordVideo needs autoreset_mode='NextStep'")
        if video_format not in WRITERS:
            raise ValueError(f"video_format must be one of {sorted(WRITERS)}, got {video_format!r}")
        # A library missing: say so now, not at the end of the first episode.
        if video_format == "mp4":
            _imageio_ffmpeg()
        else:
            _pillow()
        self.video_format = video_format
        self.env_ids = [int(i) for i in env_ids]
        bad = [i for i in self.env_ids if not 0 <= i < env.num_envs]
        if bad:
            raise ValueError(f"env id {bad[0]} is out of range: ids are 0..{env.num_envs - 1}")
        self.fps = fps if fps is not None else env.unwrapped.metadata["render_fps"]   # real time
        self.folder = Path(folder)
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
