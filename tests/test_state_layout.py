"""A state saved by an earlier build must play on exactly, or be refused for its layout version:
a change to the layout of Machine (kernels/ale/ale.h) raises STATE_VERSION. The saved state here
(tests/data/) pins the layout of its version; after a layout change, raise STATE_VERSION and save
it again:

    python tests/test_state_layout.py
"""
from pathlib import Path

import numpy as np
import torch

from cule import CuleEnv, _core

SAVED = Path(__file__).parent / "data" / "pong-state.npz"
# v5 without the env's random draws (sticky actions, no-op starts), which a state does not hold.
SETTINGS = dict(frameskip=4, repeat_action_probability=0.0, noop_max=0, grayscale=True, img_height=84, img_width=84,
                stack_num=4, maxpool=True)
STEPS = 60


def state_layout() -> str:
    """The layout of what a state holds: _core.layout() without the StepConfig and the render job,
    which no state holds."""
    return str({k: v for k, v in _core.layout().items() if not k.startswith(("step_config", "render_job"))})


def play(env: CuleEnv, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """RAM after every step, and the last observation."""
    ram = []
    for a in actions:
        obs, *_ = env.step(torch.from_numpy(a))
        ram.append(env.get_ram().numpy().copy())
    return np.stack(ram), obs.numpy()


def save() -> None:
    env = CuleEnv("pong", 2, device="cpu", **SETTINGS)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    play(env, rng.integers(0, 6, (100, 2)))
    state = env.get_states().numpy().copy()
    actions = rng.integers(0, 6, (STEPS, 2))
    ram, obs = play(env, actions)
    np.savez_compressed(SAVED, version=_core.STATE_VERSION, layout=state_layout(), state=state, actions=actions,
                        ram=ram, obs=obs)


def test_saved_state_plays_on_or_is_refused_for_its_version():
    saved = np.load(SAVED)
    regenerate = "raise STATE_VERSION (kernels/ale/ale.h) and save the state again: python tests/test_state_layout.py"
    assert int(saved["version"]) == _core.STATE_VERSION, f"the saved state is of an older layout version: {regenerate}"
    assert str(saved["layout"]) == state_layout(), f"the layout of Machine changed: {regenerate}"
    env = CuleEnv("pong", 2, device="cpu", **SETTINGS)
    env.reset(seed=0)
    env.set_states(saved["state"])
    ram, obs = play(env, saved["actions"])
    assert np.array_equal(ram, saved["ram"]) and np.array_equal(obs, saved["obs"]), \
        f"a saved state of this layout version plays differently: {regenerate}"


def test_states_of_another_layout_version_are_refused():
    state = np.load(SAVED)["state"].copy()
    state[:, 4:8] = np.frombuffer(np.uint32(_core.STATE_VERSION + 1).tobytes(), np.uint8)   # StateHeader.version
    env = CuleEnv("pong", 2, device="cpu", **SETTINGS)
    env.reset(seed=0)
    before = env.get_states()
    try:
        env.set_states(state)
    except ValueError as e:
        assert f"layout version {_core.STATE_VERSION + 1}" in str(e)
    else:
        raise AssertionError("a state of another layout version was accepted")
    assert torch.equal(env.get_states(), before)


if __name__ == "__main__":
    save()
