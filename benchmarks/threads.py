"""The CPU backend's threads beside torch, as a training loop runs them: raw frames/s of
`gymnasium.make_vec("cule/Pong-v5", num_envs=16, device="cpu")` (v5 settings, random actions), with
its default threads and with one thread (torch at one thread too), on a quiet machine and beside
one busy core (a process spinning at normal priority, as another job on a shared machine).

Each measurement runs in a fresh process; the variants are interleaved, round after round, and
the median is reported. `--compare-lib PATH` adds the same runs with another build of cule._core
(CULE_CORE_LIB), e.g. one from before a change:

    python benchmarks/threads.py --compare-lib /tmp/old/cule/_core.cpython-311-x86_64-linux-gnu.so

writes benchmarks/results/threads-<date>.json.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.cpu_fps import machine_facts  # noqa: E402

NUM_ENVS = 16


def measure(threads: str, seconds: float) -> float:
    """Raw frames/s in this process: `threads` is "default" or "one"."""
    import gymnasium
    import numpy as np
    import torch

    import cule  # noqa: F401  (registers cule/Pong-v5)

    options = {}
    if threads == "one":
        torch.set_num_threads(1)
        options["num_threads"] = 1
    env = gymnasium.make_vec("cule/Pong-v5", num_envs=NUM_ENVS, device="cpu", output="torch", **options)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = [torch.from_numpy(rng.integers(0, 6, NUM_ENVS)) for _ in range(50)]
    for a in actions[:10]:
        env.step(a)
    import time
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions:
            env.step(a)
        steps += len(actions)
    return steps * NUM_ENVS * env.unwrapped.frameskip / (time.perf_counter() - start)


def run(threads: str, lib: str | None, busy: bool, seconds: float) -> float:
    environment = dict(os.environ)
    environment.pop("CULE_CORE_LIB", None)
    if lib:
        environment["CULE_CORE_LIB"] = lib
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        out = subprocess.run([sys.executable, __file__, "--child", threads, "--seconds", str(seconds)],
                             capture_output=True, text=True, env=environment, check=True).stdout
    finally:
        if hog:
            hog.kill()
            hog.wait()
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0, help="per measurement")
    parser.add_argument("--compare-lib", help="another build of cule._core to measure alongside")
    parser.add_argument("--note", default="", help="what else ran on the machine")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(measure(args.child, args.seconds))
        return

    builds = {"this build": None} | ({"compared build": args.compare_lib} if args.compare_lib else {})
    variants = [(build, threads, busy) for build in builds for busy in (False, True) for threads in ("default", "one")]
    runs: dict[tuple, list[float]] = {v: [] for v in variants}
    for r in range(args.rounds):
        for v in variants:
            build, threads, busy = v
            runs[v].append(run(threads, builds[build], busy, args.seconds))
            print(f"round {r + 1}: {build}, {threads} thread(s), {'one busy core' if busy else 'quiet'}: "
                  f"{runs[v][-1]:,.0f} frames/s", flush=True)
    facts = machine_facts()
    results = [{"build": build, "cpu_lib": builds[build], "threads": "cule's default (one per core)"
                if threads == "default" else "num_threads=1, torch.set_num_threads(1)",
                "beside": "one busy core" if busy else "nothing", "frames_per_s": round(statistics.median(runs[v])),
                "runs": [round(x) for x in runs[v]]} for v in variants for build, threads, busy in [v]]
    summary = {"benchmark": "threads", "device": "cpu", "backend": "cpu", **facts, "game": "pong",
               "num_envs": NUM_ENVS, "settings": "gymnasium.make_vec('cule/Pong-v5') (v5), random actions",
               "rounds": args.rounds, "seconds": args.seconds, "note": args.note, "results": results}
    path = new_result_path(f"threads-{facts['date']}")
    path.write_text(json.dumps(summary, indent=1) + "\n")
    for r in results:
        print(f"{r['build']:15} {r['threads']:40} beside {r['beside']:14} {r['frames_per_s']:8,} frames/s")
    print(path)


if __name__ == "__main__":
    main()
