"""How long a new process takes to its first step: `import cule`, then
`CuleEnv(game, num_envs, device=...)`, its reset and its first step (waited for), each timed, in
a process of its own; twice on a GPU: with an empty kernel cache (NVRTC compiles the game's
kernels: CuPy's cache in a new folder, CUPY_CACHE_DIR) and again with that cache warm. The JSON
has both runs' times with the device and versions.

    python benchmarks/cold_start.py --device cuda --num-envs 4096
    python benchmarks/cold_start.py --device cpu --num-envs 64
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import new_result_path   # benchmarks/_results.py
from fps import machine

# The timed process: each phase's seconds, as JSON on its last line.
CHILD = """
import json, sys, time
start = time.perf_counter()
import torch
import cule
imported = time.perf_counter()
game, num_envs, device, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] or None
env = cule.CuleEnv(game, num_envs=num_envs, device=device, backend=backend)
made = time.perf_counter()
env.reset(seed=0)
reset = time.perf_counter()
out = env.step(torch.zeros(num_envs, dtype=torch.int64, device=env.device))
if env.device.type == "cuda":
    torch.cuda.synchronize(env.device)
stepped = time.perf_counter()
print(json.dumps(dict(import_seconds=imported - start, construct_seconds=made - imported,
                      reset_seconds=reset - made, first_step_seconds=stepped - reset,
                      total_seconds=stepped - start)))
"""


def timed_process(args: argparse.Namespace, cache: str) -> dict:
    env = dict(os.environ, CUPY_CACHE_DIR=cache)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, args.game, str(args.num_envs), args.device, args.backend or ""],
                          capture_output=True, text=True, env=env, timeout=args.timeout)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"the timed process failed:\n{done.stderr[-3000:]}")
    times = {k: round(v, 6) for k, v in json.loads(done.stdout.splitlines()[-1]).items()}   # a CPU step: under 1 ms
    return dict(times, process_wall_seconds=round(wall, 3))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="Pong")
    p.add_argument("--num-envs", type=int, default=4096)
    p.add_argument("--device", default="cuda")
    p.add_argument("--backend", default=None, help="the envs' engine (default: the device's own)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each timed process")
    p.add_argument("--fill-cache", metavar="DIR", help="then copy the compiled kernels into DIR (a CUPY_CACHE_DIR), "
                                                       "so that later processes start warm")
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()

    result = dict(machine(), game=args.game, num_envs=args.num_envs, device=args.device,
                  backend=args.backend or args.device.split(":")[0],
                  how=f"benchmarks/cold_start.py {' '.join(sys.argv[1:])}",
                  measures="a new process: import cule (and torch), CuleEnv(...), reset(seed=0), "
                           "a first step waited for")
    with tempfile.TemporaryDirectory() as cache:
        result["empty_cache"] = timed_process(args, cache)
        result["warm_cache"] = timed_process(args, cache)
        result["cache_bytes"] = sum(f.stat().st_size for f in Path(cache).rglob("*") if f.is_file())
        if args.fill_cache:
            shutil.copytree(cache, args.fill_cache, dirs_exist_ok=True)
    path = new_result_path(f"cold_start-{args.game.lower()}-{result['date']}", folder=args.out)
    path.write_text(json.dumps(result, indent=2) + "\n")
    for run in ("empty_cache", "warm_cache"):
        t = result[run]
        print(f"{run.replace('_', ' ')}: {t['total_seconds']:.1f} s to the first step (import "
              f"{t['import_seconds']:.1f}, CuleEnv {t['construct_seconds']:.1f}, reset {t['reset_seconds']:.1f}, "
              f"step {t['first_step_seconds']:.1f})")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
