"""RecordVideo: one GIF per episode of each chosen environment, read back with Pillow and
compared with the frames the environment showed."""
import numpy as np
import pytest
from PIL import Image

from cule import CuleEnv, _core
from cule.video import RecordVideo, gif_delays


def gif_frames(path) -> tuple[list[np.ndarray], list[int]]:
    """A GIF's frames as RGB arrays and each one's delay in milliseconds."""
    frames, delays = [], []
    with Image.open(path) as gif:
        for k in range(gif.n_frames):
            gif.seek(k)
            frames.append(np.asarray(gif.convert("RGB")))
            delays.append(gif.info["duration"])
    return frames, delays


def test_each_episode_of_chosen_envs_is_a_gif_of_its_frames(tmp_path):
    env = CuleEnv("breakout", num_envs=3, frameskip=4, max_num_frames_per_episode=120)   # 30 steps
    recorder = RecordVideo(env, tmp_path, env_ids=[0, 2])
    assert recorder.fps == 15   # real time: 60 frames a second, 4 a step
    recorder.reset(seed=0)
    shown = [env.get_screens()[2].numpy().copy()]
    for action in np.random.default_rng(0).integers(0, 18, size=45):
        recorder.step(np.full(3, action))
        shown.append(env.get_screens()[2].numpy().copy())
    recorder.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "env0-episode0.gif", "env0-episode1.gif", "env2-episode0.gif", "env2-episode1.gif"]
    palette = _core.palette_rgb()
    # Episode 0: the reset frame and 30 steps; episode 1: the next 15 steps, from its first frame.
    # Each frame ends at k / 15 s in hundredths; Pillow joins identical frames in a row into one
    # shown as long as they were.
    for name, frames in (("env2-episode0.gif", shown[:31]), ("env2-episode1.gif", shown[31:])):
        expected_frames, expected_delays = [], []
        for frame, delay in zip(frames, gif_delays(len(frames), 15)):
            if expected_frames and np.array_equal(frame, expected_frames[-1]):
                expected_delays[-1] += delay
            else:
                expected_frames.append(frame)
                expected_delays.append(delay)
        played, delays = gif_frames(tmp_path / name)
        assert delays == expected_delays and sum(delays) == round(len(frames) * 100 / 15) * 10
        assert all(np.array_equal(a, palette[b]) for a, b in zip(played, expected_frames, strict=True))
        # Pillow's LZW: about 200 bytes a frame here (a coder without compression wrote 38 KB)
        assert (tmp_path / name).stat().st_size < 3000 * len(frames)


def test_record_video_refuses_same_step_autoreset_and_bad_ids(tmp_path):
    with pytest.raises(ValueError, match="NextStep"):
        RecordVideo(CuleEnv("pong", autoreset_mode="SameStep"), tmp_path)
    with pytest.raises(ValueError, match="env id 3 is out of range: ids are 0..1"):
        RecordVideo(CuleEnv("pong", num_envs=2), tmp_path, env_ids=[3])


def test_mp4_episodes_play_back_as_the_frames_shown(tmp_path):
    """H.264 is lossy: the same number of frames, each close to what the env showed."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    env = CuleEnv("breakout", num_envs=2, frameskip=4, max_num_frames_per_episode=80)   # 20 steps
    recorder = RecordVideo(env, tmp_path, env_ids=[1], video_format="mp4")
    recorder.reset(seed=0)
    shown = [env.get_screens()[1].numpy().copy()]
    for action in np.random.default_rng(1).integers(0, 18, size=25):
        recorder.step(np.full(2, action))
        shown.append(env.get_screens()[1].numpy().copy())
    recorder.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["env1-episode0.mp4", "env1-episode1.mp4"]
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "env1-episode0.mp4"))
    meta = next(reader)
    assert meta["size"] == (160, 210)
    played = [np.frombuffer(f, dtype=np.uint8).reshape(210, 160, 3) for f in reader]
    assert len(played) == 21
    palette = _core.palette_rgb().astype(np.int16)
    for frame, screen in zip(played, shown[:21]):
        assert np.abs(frame.astype(np.int16) - palette[screen]).mean() < 4


def test_unknown_video_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"video_format must be one of \['gif', 'mp4'\], got 'avi'"):
        RecordVideo(CuleEnv("pong"), tmp_path, video_format="avi")


def test_the_differential_testers_png_shows_both_screens_and_their_difference(tmp_path):
    from cule.tools.diff import Mismatch, mismatch_png
    cule_screen = np.full((210, 160), 0x0E, np.uint8)
    ale_screen = cule_screen.copy()
    ale_screen[100, 50] = 0x44
    mismatch = Mismatch(frame=7, fields=["screen"], cule_screen=cule_screen, ale_screen=ale_screen)
    mismatch_png(mismatch, tmp_path / "d.png")
    with Image.open(tmp_path / "d.png") as png:
        image = np.asarray(png.convert("RGB"))
    assert image.shape == (420, 2 * (3 * 160 + 8), 3)   # cule | ale | difference, each 2x
    palette = _core.palette_rgb()
    assert np.array_equal(image[0, 0], palette[0x0E]) and np.array_equal(image[200, 2 * (164 + 50)], palette[0x44])
    red = np.all(image[:, 2 * 328:] == (255, 0, 0), axis=-1)
    assert red.sum() == 4 and red[200, 100]   # the one differing pixel, scaled 2x
