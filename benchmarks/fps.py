"""Raw emulated frames per second (frameskip x steps x envs) of cule on the GPU against the CPU
engines, for one or more games, all in one run on one machine.

Engines: cule on the GPU at num_envs 256 .. 65,536 (powers of two), cule's CPU backend, ale-py's
single ALEInterface, ale-py's AtariVectorEnv and EnvPool at 16 .. 256 envs (those that are
installed). Every engine runs AtariVectorEnv's v5 settings: 84x84 grey, frameskip 4, sticky
actions 0.25, max-pooling, a stack of 4, noop starts. Two loads, as in the CuLE paper:
  emulation   random actions (drawn on the GPU for cule)
  inference   a Nature-DQN conv net on the GPU picks the actions from the observations
Also the divergence curve: FPS against time for 512 envs started from one state.

Results: benchmarks/results/fps-<game>-<date>.json (device, driver, versions, settings, num_envs,
FPS, GPU memory per env) and a PNG plot of FPS against num_envs when matplotlib is there; a new
pair of files for each run (-2, -3, ... after the date), never an earlier run's.

    python benchmarks/fps.py --games pong --seconds 5
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
import torch

from cule.env import CUDA_STEPS, DEFAULT_CUDA_STEP
from _results import RESULTS, new_result_path   # benchmarks/_results.py

SETTINGS = dict(frameskip=4, repeat_action_probability=0.25, noop_max=30, grayscale=True, img_height=84,
                img_width=84, stack_num=4, maxpool=True, full_action_space=False)
FRAMESKIP = SETTINGS["frameskip"]


class NatureDQN(torch.nn.Module):
    """The DQN paper's network: 4x84x84 frames in, one value per action out."""

    def __init__(self, actions: int):
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Conv2d(4, 32, 8, 4), torch.nn.ReLU(), torch.nn.Conv2d(32, 64, 4, 2), torch.nn.ReLU(),
            torch.nn.Conv2d(64, 64, 3, 1), torch.nn.ReLU(), torch.nn.Flatten(),
            torch.nn.Linear(64 * 7 * 7, 512), torch.nn.ReLU(), torch.nn.Linear(512, actions))

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net(obs.float() / 255.0)


def timed(step, seconds: float, sync=lambda: None, warmup: int = 2) -> tuple[int, float]:
    """Calls step() for about `seconds` after a warm-up; returns (calls, elapsed seconds)."""
    for _ in range(warmup):
        step()
    sync()
    calls, start = 0, time.perf_counter()
    while True:
        step()
        calls += 1
        if calls % 10 == 0:
            sync()
            if time.perf_counter() - start >= seconds:
                break
    return calls, time.perf_counter() - start


# The engine name of each of the GPU's steps (CuleEnv's cuda_step): the split step, the split step
# whose state kernel runs a warp's lanes in passes by code (the warp schedule), the one kernel
# that draws as it goes.
GPU_STEPS = {step: "cule-gpu" if step == "split" else f"cule-gpu-{step}" for step in CUDA_STEPS}


def cule_gpu(game: str, num_envs: int, seconds: float, load: str, step_kind: str = "split",
             device: str = "cuda") -> dict:
    """The CUDA backend's frames/s; device "cpu" runs its kernels on the host (the benchmarks'
    plumbing: no GPU memory to report)."""
    from cule import CuleEnv

    on_gpu = device == "cuda"
    if on_gpu:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
    env = CuleEnv(game, num_envs=num_envs, device=device, backend="cuda", cuda_step=step_kind, **SETTINGS)
    obs, _ = env.reset(seed=0)
    n = env.single_action_space.n
    if load == "inference":
        net = NatureDQN(n).to(env.device).eval()
        state = {"obs": obs}

        @torch.no_grad()
        def step():
            with torch.autocast(env.device.type, dtype=torch.bfloat16):
                actions = net(state["obs"]).argmax(1)
            state["obs"] = env.step(actions)[0]
    else:
        def step():
            env.step(torch.randint(0, n, (num_envs,), device=env.device))
    calls, elapsed = timed(step, seconds, torch.cuda.synchronize if on_gpu else lambda: None)
    env.close()
    result = dict(engine=GPU_STEPS[step_kind], load=load, num_envs=num_envs, fps=calls * num_envs * FRAMESKIP / elapsed)
    if on_gpu:
        result["gpu_bytes_per_env"] = (torch.cuda.max_memory_allocated() - before) / num_envs
    return result


def cule_cpu(game: str, num_envs: int, seconds: float) -> dict:
    from cule import CuleEnv

    env = CuleEnv(game, num_envs=num_envs, device="cpu", **SETTINGS)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    n = env.single_action_space.n
    calls, elapsed = timed(lambda: env.step(rng.integers(0, n, num_envs)), seconds, warmup=2)
    return dict(engine="cule-cpu", load="emulation", num_envs=num_envs, threads=os.cpu_count(),
                fps=calls * num_envs * FRAMESKIP / elapsed)


def ale_single(game: str, seconds: float) -> dict:
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setFloat("repeat_action_probability", SETTINGS["repeat_action_probability"])
    ale.setInt("frame_skip", FRAMESKIP)
    ale.loadROM(str(roms.get_rom_path(game)))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)

    def step():
        ale.act(actions[rng.integers(len(actions))])
        ale.getScreenGrayscale()
        if ale.game_over():
            ale.reset_game()
    calls, elapsed = timed(step, seconds)
    return dict(engine="ale-py", load="emulation", num_envs=1, fps=calls * FRAMESKIP / elapsed)


def ale_vector(game: str, num_envs: int, seconds: float) -> dict:
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(game, num_envs=num_envs, num_threads=os.cpu_count(), **{
        k: v for k, v in SETTINGS.items() if k != "full_action_space"})
    env.reset(seed=0)
    calls, elapsed = timed(lambda: env.step(env.action_space.sample()), seconds, warmup=2)
    env.close()
    return dict(engine="ale-py AtariVectorEnv", load="emulation", num_envs=num_envs,
                fps=calls * num_envs * FRAMESKIP / elapsed)


def envpool_fps(game: str, num_envs: int, seconds: float) -> dict:
    import envpool

    name = "".join(w.capitalize() for w in game.split("_")) + "-v5"
    env = envpool.make(name, env_type="gymnasium", num_envs=num_envs, batch_size=num_envs,
                       num_threads=os.cpu_count(), frame_skip=FRAMESKIP, noop_max=SETTINGS["noop_max"],
                       repeat_action_probability=SETTINGS["repeat_action_probability"], stack_num=4,
                       img_height=84, img_width=84, gray_scale=True, episodic_life=False, reward_clip=False)
    env.reset()
    n = env.action_space.n
    rng = np.random.default_rng(0)
    calls, elapsed = timed(lambda: env.step(rng.integers(0, n, num_envs)), seconds, warmup=2)
    env.close()
    return dict(engine="EnvPool", load="emulation", num_envs=num_envs, fps=calls * num_envs * FRAMESKIP / elapsed)


def divergence(game: str, seconds: float, num_envs: int = 512, window: int = 20) -> list[dict]:
    """FPS per window of steps for envs that all start from the same state (no noop starts, no
    sticky actions at first: they drift apart only through their random actions)."""
    from cule import CuleEnv

    env = CuleEnv(game, num_envs=num_envs, device="cuda", **{**SETTINGS, "noop_max": 0})
    env.reset(seed=0)
    n = env.single_action_space.n
    curve, start = [], time.perf_counter()
    while time.perf_counter() - start < seconds:
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(window):
            env.step(torch.randint(0, n, (num_envs,), device="cuda"))
        torch.cuda.synchronize()
        curve.append(dict(time=time.perf_counter() - start, fps=window * num_envs * FRAMESKIP / (time.perf_counter() - t)))
    return curve


def machine() -> dict:
    info = dict(python=platform.python_version(), torch=torch.__version__, cpu_cores=os.cpu_count(),
                date=datetime.date.today().isoformat())
    try:
        info["cpu"] = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if "model name" in line)
    except (OSError, StopIteration):
        info["cpu"] = platform.processor()
    if torch.cuda.is_available():
        import cupy

        info["gpu"] = torch.cuda.get_device_name()
        info["driver"] = cupy.cuda.runtime.driverGetVersion()
        info["cupy"] = cupy.__version__
    for name in ("ale_py", "envpool", "cule"):
        try:
            info[name] = __import__(name).__version__
        except (ImportError, AttributeError):
            pass
    return info


def plot(results: list[dict], path: Path, game: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key in sorted({(r["engine"], r["load"]) for r in results}):
        rows = sorted((r for r in results if (r["engine"], r["load"]) == key), key=lambda r: r["num_envs"])
        ax.plot([r["num_envs"] for r in rows], [r["fps"] for r in rows], marker="o", label=" ".join(key))
    ax.set(xscale="log", yscale="log", xlabel="num_envs", ylabel="raw frames / s", title=f"{game}, v5 settings")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["pong"])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--gpu-envs", type=int, nargs="+", default=[2 ** k for k in range(8, 17)])
    parser.add_argument("--cpu-envs", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument("--loads", nargs="+", default=["emulation", "inference"])
    parser.add_argument("--skip", nargs="*", default=[], help="engines to leave out: gpu cpu ale vector envpool divergence")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--gpu-step", choices=list(GPU_STEPS), default=DEFAULT_CUDA_STEP,
                        help="the GPU's step: split, its state kernel with the warp schedule, or one kernel")
    args = parser.parse_args()
    gpu = torch.cuda.is_available() and "gpu" not in args.skip
    for game in args.games:
        results, errors, curve = [], {}, []
        path = new_result_path(f"fps-{game}-{datetime.date.today().isoformat()}", folder=args.out,
                               companions=[".png"])

        def save():   # after every engine, so that a run cut short keeps what it measured
            record = dict(machine=machine(), game=game, settings=SETTINGS, frames="raw emulated frames per second "
                          "(frameskip x steps x envs)", results=results, divergence_512_envs=curve, errors=errors)
            path.write_text(json.dumps(record, indent=1) + "\n")

        def run(label, fn, *a):
            try:
                r = fn(*a)
                results.append(r)
                save()
                print(f"{game:12s} {r['engine']:24s} {r['load']:10s} {r['num_envs']:6d} envs {r['fps']:13,.0f} frames/s"
                      + (f"  {r['gpu_bytes_per_env'] / 1e6:.2f} MB/env" if "gpu_bytes_per_env" in r else ""),
                      flush=True)
            except Exception as e:   # a peer that is not installed, or memory that runs out
                errors[label] = f"{type(e).__name__}: {e}"
                print(f"{game:12s} {label}: {errors[label]}", flush=True)

        if gpu:
            for load in args.loads:
                for n in args.gpu_envs:
                    run(f"cule-gpu {load} {n}", cule_gpu, game, n, args.seconds, load, args.gpu_step)
        if "cpu" not in args.skip:
            run("cule-cpu", cule_cpu, game, max(args.cpu_envs), args.seconds)
        if "ale" not in args.skip:
            run("ale-py", ale_single, game, args.seconds)
        for n in args.cpu_envs:
            if "vector" not in args.skip:
                run(f"AtariVectorEnv {n}", ale_vector, game, n, args.seconds)
            if "envpool" not in args.skip:
                run(f"EnvPool {n}", envpool_fps, game, n, args.seconds)
        if gpu and "divergence" not in args.skip:
            curve += divergence(game, 4 * args.seconds)
        save()
        plot(results, path.with_suffix(".png"), game)
        best = max((r for r in results if r["engine"] == GPU_STEPS[args.gpu_step]), key=lambda r: r["fps"],
                   default=None)
        peers = [r for r in results if r["engine"] in ("ale-py AtariVectorEnv", "EnvPool")]
        if best and peers:
            top = max(peers, key=lambda r: r["fps"])
            print(f"{game}: cule GPU best {best['fps']:,.0f} frames/s at {best['num_envs']} envs = "
                  f"{best['fps'] / top['fps']:.1f}x {top['engine']} at {top['num_envs']} envs ({top['fps']:,.0f})")


if __name__ == "__main__":
    main()
