"""What running timer-polling loops at once (Bus::wait_on_timer, kernels/atari/console.h; the GPU's
kernels do, the CPU backend does not) would save the CPU backend: two builds of it with setup.py's
compiler flags, one with -DCULE_TIMER_WAIT (`make build/timer_wait/_core.so
build/no_timer_wait/_core.so`), game by game at v5 settings with random actions. Callgrind's
instructions per raw frame (exact, whatever else the machine runs) and raw frames per second on
one thread, the two builds taking turns in fresh processes, `--rounds` rounds each, the best round
counting.

    make build/timer_wait/_core.so build/no_timer_wait/_core.so
    python benchmarks/timer_wait.py                          # the 10 games of v5_fps.py
    python benchmarks/timer_wait.py --games pong --rounds 0  # instructions alone
    python benchmarks/timer_wait.py --no-instructions        # timings alone

writes benchmarks/results/timer_wait-<date>.json.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.cpu_fps import machine_facts  # noqa: E402
from benchmarks.v5_fps import GAMES, instructions_per_frame  # noqa: E402

BUILDS = ("timer_wait", "no_timer_wait")


def library(build: str) -> Path:
    return ROOT / "build" / build / "_core.so"


def build_environ(build: str) -> dict[str, str]:
    return {**os.environ, "CULE_CORE_LIB": str(library(build))}


def frames_per_second(game: str, build: str, envs: int, seconds: float) -> float:
    """One round in a fresh process of the build: v5 settings, one thread, random actions."""
    script = f"""
import sys, numpy as np
sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "benchmarks")!r}]
from benchmarks.v5_fps import make_cule, frames_per_second
import torch
torch.set_num_threads(1)
env, convert = make_cule({game!r}, {envs}, 1)
env.reset(seed=0)
rng = np.random.default_rng(0)
actions = [rng.integers(0, env.single_action_space.n, {envs}) for _ in range(64)]
print(frames_per_second(env, convert, actions, {seconds}))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=build_environ(build))
    if run.returncode != 0:
        raise RuntimeError(f"{build} on {game}: {run.stderr[-1000:]}")
    return float(run.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds per build (0: instructions alone)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--no-instructions", action="store_true", help="timings alone (no callgrind)")
    args = parser.parse_args()
    missing = [str(library(b)) for b in BUILDS if not library(b).exists()]
    if missing:
        raise SystemExit(f"missing {', '.join(missing)}: make build/timer_wait/_core.so build/no_timer_wait/_core.so")
    rows = []
    for game in args.games:
        row = {"game": game}
        if not args.no_instructions:
            for build in BUILDS:
                row[f"instructions_per_frame_{build}"] = instructions_per_frame(game, environ=build_environ(build))
            row["instructions_saved"] = round(1 - row["instructions_per_frame_timer_wait"]
                                              / row["instructions_per_frame_no_timer_wait"], 4)
        best = {build: 0.0 for build in BUILDS}
        for _ in range(args.rounds):   # interleaved: the builds take turns
            for build in BUILDS:
                best[build] = max(best[build], frames_per_second(game, build, args.envs, args.seconds))
        if args.rounds:
            row.update({f"fps_{build}": round(best[build]) for build in BUILDS},
                       speedup=round(best["timer_wait"] / best["no_timer_wait"], 3))
        rows.append(row)
        print(json.dumps(row), flush=True)
    facts = machine_facts()
    result = {"benchmark": "timer_wait", "device": "cpu", **facts, "settings": "v5, random actions, one thread",
              "num_envs": args.envs, "rounds": args.rounds, "seconds": args.seconds,
              "unit": "callgrind instructions per raw frame; raw frames per second", "results": rows}
    path = new_result_path(f"timer_wait-{facts['date']}")
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(path)


if __name__ == "__main__":
    main()
