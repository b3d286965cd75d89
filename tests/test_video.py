"""RecordVideo: one GIF per episode of each chosen environment, read back with Pillow and
compared with the frames the environment showed."""
import numpy as np
import pytest
from PIL import Image

from cule import CuleEnv, _cpu
from cule.video import RecordVideo


def test_each_episode_of_chosen_envs_is_a_gif_of_its_frames(tmp_path):
    env = CuleEnv("breakout", num_envs=3, frameskip=4, max_num_frames_per_episode=120)   # 30 steps
    recorder = RecordVideo(env, tmp_path, env_ids=[0, 2], fps=15)
    recorder.reset(seed=0)
    shown = [env.get_screens()[2].numpy().copy()]
    for action in np.random.default_rng(0).integers(0, 18, size=45):
        recorder.step(np.full(3, action))
        shown.append(env.get_screens()[2].numpy().copy())
    recorder.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "env0-episode0.gif", "env0-episode1.gif", "env2-episode0.gif", "env2-episode1.gif"]
    palette = _cpu.palette_rgb()
    # Episode 0: the reset frame and 30 steps; episode 1: the next 15 steps, from its first frame.
    for name, frames in (("env2-episode0.gif", shown[:31]), ("env2-episode1.gif", shown[31:])):
        with Image.open(tmp_path / name) as gif:
            assert gif.n_frames == len(frames)
            for k, frame in enumerate(frames):
                gif.seek(k)
                assert np.array_equal(np.asarray(gif.convert("RGB")), palette[frame])


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
    palette = _cpu.palette_rgb().astype(np.int16)
    for frame, screen in zip(played, shown[:21]):
        assert np.abs(frame.astype(np.int16) - palette[screen]).mean() < 4


def test_unknown_video_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"video_format must be one of \['gif', 'mp4'\], got 'avi'"):
        RecordVideo(CuleEnv("pong"), tmp_path, video_format="avi")
