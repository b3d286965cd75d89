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
