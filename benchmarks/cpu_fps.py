"""CPU backend speed against ale-py, same game, same machine, one run.

Reports raw emulated frames per second (frames the emulator ran, frameskip included):
  - cule CPU on 1 thread with 1 environment and with many (per-core speed, to compare with ale-py),
  - cule CPU on all cores with many environments,
  - ale-py 0.12.1, one ALEInterface (its act() and getScreenRGB() per step, no Python env layer).
Random actions, frameskip 4, no sticky actions, full RGB frames. Results go to
benchmarks/results/cpu_fps-<game>-<date>.json.

    python benchmarks/cpu_fps.py --game pong --seconds 5
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


def cule_fps(game: str, num_envs: int, threads: int, seconds: float, frameskip: int = 4) -> float:
    from cule import CuleEnv

    env = CuleEnv(game, num_envs=num_envs, frameskip=frameskip, num_threads=threads)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    n = len(env.action_set)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(rng.integers(0, n, size=num_envs))
        frames += num_envs * frameskip
    return frames / (time.perf_counter() - start)


def ale_fps(game: str, seconds: float, frameskip: int = 4) -> float:
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", frameskip)
    ale.loadROM(str(roms.get_rom_path(game)))
    rng = np.random.default_rng(0)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in rng.integers(0, 18, size=100):
            ale.act(int(a))
            ale.getScreenRGB()
            if ale.game_over():
                ale.reset_game()
        frames += 100 * frameskip
    return frames / (time.perf_counter() - start)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="pong")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--envs", type=int, default=64)
    args = p.parse_args()
    cores = os.cpu_count() or 1
    import ale_py
    import cule

    rows = {
        "cule_cpu_1_thread_1_env": cule_fps(args.game, 1, 1, args.seconds),
        f"cule_cpu_1_thread_{args.envs}_envs": cule_fps(args.game, args.envs, 1, args.seconds),
        f"cule_cpu_{cores}_threads_{args.envs}_envs": cule_fps(args.game, args.envs, cores, args.seconds),
        "ale_py_single_env": ale_fps(args.game, args.seconds),
    }
    result = {
        "benchmark": "cpu_fps", "game": args.game, "num_envs": args.envs, "frameskip": 4,
        "observation": "210x160 RGB",
        "unit": "raw emulated frames per second", "date": datetime.date.today().isoformat(),
        "machine": {"cpu": cpu_model(), "cores": cores},
        "versions": {"cule": cule.__version__, "ale_py": ale_py.__version__, "python": platform.python_version()},
        "fps": rows,
    }
    out = Path(__file__).parent / "results" / f"cpu_fps-{args.game}-{result['date']}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    for name, fps in rows.items():
        print(f"{name:32s} {fps:12,.0f}")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
