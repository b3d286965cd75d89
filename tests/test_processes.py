"""The process around the emulator: fork() and threads that cannot start (each in a process of
its own, under a timeout: a hang fails), and Ctrl-C inside a step."""
import contextlib
import signal
import subprocess
import sys
import textwrap

import pytest
import torch

FORK = """
import multiprocessing, sys, warnings
import torch
import cule

backend = sys.argv[1]
torch.set_num_threads(2)
torch.zeros(4_000_000, dtype=torch.uint8).clone()   # torch's CPU threads have run in the parent
env = cule.CuleEnv("pong", num_envs=4, device="cpu", backend=backend, num_threads=2, frameskip=4)
env.reset(seed=0)
env.step([1, 2, 3, 4])

def play(env):
    return [env.step([2, 3, 4, 5])[0].sum().item() for _ in range(5)]

def child(queue):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = play(env)                      # the env made before the fork
        new = cule.CuleEnv("pong", num_envs=4, device="cpu", backend=backend, num_threads=2, frameskip=4)
        new.reset(seed=0)
        queue.put((old, new.step([1, 2, 3, 4])[0].sum().item(), [str(w.message) for w in caught]))

context = multiprocessing.get_context("fork")
queue = context.Queue()
process = context.Process(target=child, args=(queue,))
process.start()
old, new, caught = queue.get(timeout=120)
process.join(30)
fresh = cule.CuleEnv("pong", num_envs=4, device="cpu", backend=backend, num_threads=2, frameskip=4)
fresh.reset(seed=0)
assert old == play(env), (old, play)          # the child stepped the env as the parent does
assert new == fresh.step([1, 2, 3, 4])[0].sum().item()
assert process.exitcode == 0 and caught and "torch.set_num_threads(1)" in caught[0]
print("ok")
"""

THREAD_LIMIT = """
import resource, sys
import cule

backend = sys.argv[1]
size = int(next(line for line in open("/proc/self/status") if line.startswith("VmSize")).split()[1]) * 1024
limits = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (size + 64 * 2**20, limits[1]))   # room for a few threads' stacks
try:
    cule.CuleEnv("pong", num_envs=64, device="cpu", backend=backend, num_threads=64)
    raise AssertionError("64 threads started under the limit")
except RuntimeError as e:
    print(e)
resource.setrlimit(resource.RLIMIT_AS, limits)
env = cule.CuleEnv("pong", num_envs=2, device="cpu", backend=backend, num_threads=2)
env.reset(seed=0)
env.step([0, 0])
print("ok")
"""


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script), *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_an_env_steps_in_a_forked_child_as_in_its_parent(backend):
    # Before: the child waited forever for pool threads it does not have (CPU backend), or for
    # OpenMP's (the CUDA kernels on the host, and torch's own operations once they had run).
    done = run(FORK, backend)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_threads_that_cannot_start_raise_naming_num_threads(backend):
    # Before: the pool's constructor threw midway and CuleEnv() hung destroying the condition
    # variable its first threads waited on (CPU backend), or libgomp ended the process.
    done = run(THREAD_LIMIT, backend)
    assert done.returncode == 0, done.stderr[-3000:]
    message, ok = done.stdout.strip().splitlines()
    assert message.startswith("num_threads=64: could not start thread ") and "pass num_threads=" in message
    assert ok == "ok"


def test_num_threads_beyond_the_envs_are_not_started():
    from cule import CuleEnv
    env = CuleEnv("pong", num_envs=2, device="cpu", num_threads=64)
    assert env._backend._vec.num_threads == 2


class _Interrupter:
    """A phase timer (CuleEnv.phase_timer) that raises SIGINT, as Ctrl-C does, on entering or
    leaving one phase of the next step, once."""

    def __init__(self, phase: str, when: str):
        self.phase, self.when, self.armed = phase, when, False

    @contextlib.contextmanager
    def __call__(self, phase: str):
        fire = self.armed and phase == self.phase
        if fire and self.when == "enter":
            self.armed = False
            signal.raise_signal(signal.SIGINT)
        yield
        if fire and self.when == "leave":
            self.armed = False
            signal.raise_signal(signal.SIGINT)


@pytest.fixture
def ctrl_c_interrupts():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test, whatever the process was
    started with: a shell starting a command in the background without job control (`make test
    &` in a script) has it ignore SIGINT, and Python keeps that."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
@pytest.mark.parametrize("autoreset_mode", ["NextStep", "SameStep"])
@pytest.mark.parametrize("phase, when", [("emulation", "enter"), ("emulation", "leave"), ("rendering", "leave")])
@pytest.mark.usefixtures("ctrl_c_interrupts")
def test_ctrl_c_in_a_step_lets_the_step_finish_then_interrupts(backend, autoreset_mode, phase, when):
    # A KeyboardInterrupt that lands inside step() is raised when the step is whole: the env then
    # plays on as one never interrupted. (Before: between the emulation and the frame stacks it
    # left the env a frame out of step.)
    from cule import CuleEnv
    options = dict(num_envs=3, device="cpu", backend=backend, frameskip=4, grayscale=True, img_height=42,
                   img_width=32, stack_num=3, autoreset_mode=autoreset_mode, max_num_frames_per_episode=36)
    interrupted, plain = CuleEnv("breakout", **options), CuleEnv("breakout", **options)
    for env in (interrupted, plain):
        env.reset(seed=1)
    timer = interrupted.phase_timer = _Interrupter(phase, when)
    actions = [[1, 2, 3], [3, 2, 1], [0, 1, 0]]
    for step in range(12):
        timer.armed = step % 4 == 1
        try:
            got = interrupted.step(actions[step % 3])
        except KeyboardInterrupt:
            assert step % 4 == 1
            plain.step(actions[step % 3])   # the interrupted step happened, whole
            continue
        assert step % 4 != 1
        expected = plain.step(actions[step % 3])
        assert all(torch.equal(a, b) for a, b in zip(got[:4], expected[:4]))
        assert torch.equal(interrupted.get_states(), plain.get_states())
