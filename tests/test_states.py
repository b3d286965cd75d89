"""States that come in from outside (set_states, set_reset_states, states_from_ale) on both
backends: a state of another game, another layout or no state at all is refused with a message
that names it, and so is one with a field out of the range play gives it
(bindings/state_check.h); every state of play passes.

The fuzzers throw thousands of random and mutated states at both backends and step whatever is
accepted. Under `make test-sanitize` (AddressSanitizer and UndefinedBehaviorSanitizer builds of
both compiled modules) any access outside a buffer or any undefined arithmetic ends the process;
in the plain suite they run fewer cases and catch crashes and errors only."""
import functools
import os
import zlib

import numpy as np
import pytest
import torch

from cule import CuleEnv, _core
from cule.games import get_game
from cule.tools.oracle import AleOracle

# One game of each cartridge scheme (2K, 4K, F8, F6, E0, FE, F8SC, F6SC, DPC), a paddle game and
# a PAL console.
GAMES = ["pong", "space_invaders", "ms_pacman", "double_dunk", "montezuma_revenge", "robotank", "elevator_action",
         "klax", "pitfall2", "kaboom", "atlantis2"]

SANITIZED = os.environ.get("CULE_CORE_LIB") is not None   # make test-sanitize
FUZZ_CASES = 200 if SANITIZED else 100   # per game and backend (1,500 each ran clean once, 2026-11-24)


@pytest.mark.sanitize
def test_the_sanitizer_build_is_loaded():
    """Under `make test-sanitize` the fuzzers run on the sanitizer build of cule._core."""
    assert SANITIZED and _core.__file__ == os.environ["CULE_CORE_LIB"]
    with open("/proc/self/maps") as maps:
        assert "libasan" in maps.read(), "AddressSanitizer is not loaded (LD_PRELOAD)"


@functools.lru_cache(maxsize=None)
def played_states(game: str, num_envs: int = 8, steps: int = 120, every: int = 20, seed: int = 0) -> np.ndarray:
    """States of random play with sticky actions, taken every `every` steps (read-only: shared)."""
    env = CuleEnv(game, num_envs=num_envs, device="cpu", num_threads=1, repeat_action_probability=0.25,
                  max_num_frames_per_episode=1000)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states = []
    for step in range(steps):
        env.step(torch.from_numpy(rng.integers(0, env.single_action_space.n, num_envs)))
        if step % every == every - 1:
            states.append(env.get_states().numpy())
    env.close()
    states = np.concatenate(states)
    states.flags.writeable = False
    return states


def refusal(env: CuleEnv, state: np.ndarray) -> str:
    """The error set_states gives `state` in env 0, or "" if it took it."""
    try:
        env.set_states(state[None], [0])
    except ValueError as e:
        return str(e)
    return ""


@pytest.fixture(scope="module")
def pong_states():
    return played_states("pong")


@pytest.fixture(params=["cpu", "cuda"], ids=["cpu", "cuda_on_host"])
def backend(request):
    """The backend, both on the host (the CUDA one's kernels executed thread by thread)."""
    return request.param


def make_env(game: str, backend: str, num_envs: int = 4) -> CuleEnv:
    env = CuleEnv(game, num_envs=num_envs, device="cpu", backend=backend, num_threads=1)
    env.reset(seed=0)
    return env


@pytest.mark.parametrize("game", GAMES)
def test_states_of_play_pass(game):
    """Every state of random play is accepted: the ranges are those play gives."""
    _core.check_states(CuleEnv(game, num_envs=1, device="cpu")._spec, played_states(game), "states")


def test_a_state_of_another_game_is_refused(backend, pong_states):
    env = make_env("breakout", backend)
    with pytest.raises(ValueError, match=r"states\[0\] cannot be used: it is a state of Pong, this env plays Breakout"):
        env.set_states(pong_states[:1], [0])
    with pytest.raises(ValueError, match="it is a state of Pong, this env plays Breakout"):
        env.set_reset_states(pong_states[:2])


def test_bytes_that_are_no_state_are_refused(backend, pong_states):
    env = make_env("pong", backend)
    noise = np.random.default_rng(0).integers(0, 256, pong_states[:1].shape, dtype=np.uint8)
    assert "it is not a cule state" in refusal(env, noise[0])
    old = pong_states[0].copy()
    old[4] = 0   # the header's layout version
    assert f"it has layout version 0, this build of cule reads version {_core.STATE_VERSION}" in refusal(env, old)


@pytest.mark.parametrize("field, value, message", [
    ("front", 2, "tia.front is 2, allowed 0..1"),     # the frame buffer the TIA draws into
    ("front", 255, "tia.front is 255, allowed 0..1"),
])
def test_a_field_out_of_range_is_refused(backend, pong_states, field, value, message):
    env = make_env("pong", backend)
    state = pong_states[0].copy()
    state[_core.layout()[field]] = value
    assert message in refusal(env, state)
    # Refused states leave the env as it was: it steps on.
    before = env.get_states()
    env.set_states(before)
    env.step(torch.zeros(env.num_envs, dtype=torch.int64))


def test_a_sticky_action_out_of_range_is_refused(backend, pong_states):
    state = pong_states[0].copy()
    state[_core.layout()["input_a"]] = 18   # the action's byte of the sticky input (its strength above)
    assert "input_a's action is 18, allowed 0..17" in refusal(make_env("pong", backend), state)


COUNTERS = ("frame_number", "episode_frame_number", "episode_steps")
COUNTER_MAX = 2**31 - 1


@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
def test_counters_at_their_limit_stay_there(backend, pong_states, autoreset_mode):
    # Every state the check accepts steps into one it accepts: a counter a few frames from 2^31 - 1
    # stops there (it overflowed an i32 into negative frame numbers, and set_states refused the
    # state get_states gave), through steps and an autoreset onto the same console.
    layout = _core.layout()
    state = pong_states[0].copy()
    for name in COUNTERS:
        state[layout[name]:layout[name] + 4] = np.frombuffer(np.int32(COUNTER_MAX - 3).tobytes(), np.uint8)
    assert refusal(make_env("pong", backend), state) == ""
    env = CuleEnv("pong", num_envs=2, device="cpu", backend=backend, num_threads=1, frameskip=4,
                  autoreset_mode=autoreset_mode)
    env.reset(seed=0)
    env.set_states(np.stack([state, state]))
    for _ in range(3):
        *_, info = env.step([0, 1])
        assert (info["frame_number"] == COUNTER_MAX).all() and (info["episode_frame_number"] == COUNTER_MAX).all()
    machines = env.get_states()[:, :layout["machine"]].numpy()
    steps = machines[:, layout["episode_steps"]:layout["episode_steps"] + 4].copy().view(np.int32)
    assert (steps == COUNTER_MAX).all()
    env.set_states(env.get_states())   # accepted as it is
    env.reset(options={"reset_mask": np.array([True, False])})   # ALE's reset_game: the count goes on
    assert env.step([0, 0])[4]["frame_number"].tolist() == [COUNTER_MAX, COUNTER_MAX]


@pytest.mark.parametrize("game", ["pong", "pitfall2"])
def test_fuzz_states_from_ale(game):
    """Mutated ale-py states: each refused with a clear error (ValueError), or a cule state that
    passes the checks and steps on."""
    ale = AleOracle(get_game(game))
    for _ in range(200):
        ale.act(0)
    raw = ale.ale.cloneState().serialize()
    env = make_env(game, "cpu")
    env.states_from_ale([raw])
    rng = np.random.default_rng(0)
    accepted = refused = 0
    for _ in range(FUZZ_CASES):
        mutated = bytearray(raw)
        for at in rng.integers(0, len(raw), rng.integers(1, 5)):
            mutated[at] = rng.integers(0, 256)
        try:
            states = env.states_from_ale([bytes(mutated)])
        except ValueError:
            refused += 1
            continue
        accepted += 1
        env.set_states(states[:1], [0])
        env.step(torch.from_numpy(rng.integers(0, env.single_action_space.n, env.num_envs)))
    assert accepted and refused


def mutate(state: np.ndarray, others: np.ndarray, rng: np.random.Generator, machine_bytes: int) -> np.ndarray:
    """One of four mutations of a state of play: random bytes, an extreme 1-, 2- or 4-byte value at
    an aligned offset, another state's machine spliced in, or noise."""
    s = state.copy()
    kind = rng.integers(4)
    if kind == 0:
        at = rng.integers(0, machine_bytes, rng.integers(1, 9))
        s[at] = rng.integers(0, 256, len(at))
    elif kind == 1:
        width = int(rng.choice([1, 2, 4]))
        at = int(rng.integers(0, machine_bytes // width)) * width
        top = 1 << (8 * width)
        value = int(rng.choice([0, 1, top // 2 - 1, top // 2, top - 1, rng.integers(0, top)]))
        s[at:at + width] = np.frombuffer(value.to_bytes(width, "little"), np.uint8)
    elif kind == 2:
        cut = int(rng.integers(16, machine_bytes))
        s[cut:machine_bytes] = others[rng.integers(len(others))][cut:machine_bytes]
    else:   # noise, half of the time after the header (so that the field checks see it)
        start = 16 if rng.integers(2) else 0
        s[start:] = rng.integers(0, 256, len(s) - start, dtype=np.uint8)
    return s


@pytest.mark.parametrize("game", GAMES)
def test_fuzz_set_states(game, backend):
    """Random and mutated states: each refused with a ValueError or taken; the envs that took one
    step on (split step on the CUDA backend, autoresets, sticky actions) and give their states back."""
    states = played_states(game)
    machine_bytes = _core.layout()["machine"]
    num_envs = 16
    env = CuleEnv(game, num_envs=num_envs, device="cpu", backend=backend, num_threads=1,
                  repeat_action_probability=0.25, max_num_frames_per_episode=400)
    env.reset(seed=1)
    rng = np.random.default_rng(zlib.crc32(f"{game} {backend}".encode()))
    accepted = 0
    for case in range(0, FUZZ_CASES, num_envs):
        for j in range(num_envs):
            if not refusal(env, mutate(states[rng.integers(len(states))], states, rng, machine_bytes)):
                accepted += 1
        for _ in range(2):
            env.step(torch.from_numpy(rng.integers(0, env.single_action_space.n, num_envs)))
        env.get_states()
    assert 0 < accepted < FUZZ_CASES
