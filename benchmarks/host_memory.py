"""Host RAM per env: a new process for each env count makes `CuleEnv(game, num_envs, ...)` at v5's
observation settings, resets it and steps it once; its resident memory (VmRSS, and the peak VmHWM)
is read after the imports (and the GPU's context), after the env is made and after the step. The
JSON has, for each count, those figures, the growth per env, and the bytes its observation spaces
hold (next to what gymnasium's batched Box of the same shape would hold: four arrays of it).

    python benchmarks/host_memory.py --device cpu --num-envs 1024 4096 16384
    python benchmarks/host_memory.py --device cuda --num-envs 4096 16384 65536 262144
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _results import new_result_path   # benchmarks/_results.py
from fps import machine

# The measured process: memory at each point, as JSON on its last line.
CHILD = """
import json, sys
import numpy as np, torch
import cule

def memory():
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return {k: int(status[k].split()[0]) * 1024 for k in ("VmRSS", "VmHWM")}

def held(a):   # the bytes an array's memory takes: its owner's, through any views
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a.nbytes

game, num_envs, device, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] or None
if device.startswith("cuda"):
    torch.zeros(1, device=device)   # the context, before the baseline
imported = memory()
env = cule.CuleEnv(game, num_envs=num_envs, device=device, backend=backend, frameskip=4, grayscale=True,
                   img_height=84, img_width=84, stack_num=4, maxpool=True)
made = memory()
env.reset(seed=0)
env.step(torch.zeros(num_envs, dtype=torch.int64, device=env.device))
if env.device.type == "cuda":
    torch.cuda.synchronize(env.device)
stepped = memory()
space = env.observation_space
spaces = sum(held(getattr(s, n)) for s in (space, env.single_observation_space)
             for n in ("low", "high", "bounded_below", "bounded_above"))
print(json.dumps(dict(imported=imported, made=made, stepped=stepped, observation_spaces_bytes=spaces,
                      gymnasium_box_bytes=2 * space.low.nbytes + 2 * space.low.size)))
"""


def measure(args: argparse.Namespace, num_envs: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, args.game, str(num_envs), args.device, args.backend or ""],
                          capture_output=True, text=True, timeout=args.timeout)
    if done.returncode != 0:
        return dict(num_envs=num_envs, error=done.stderr.strip().splitlines()[-1] if done.stderr.strip() else
                    f"exit code {done.returncode}")
    m = json.loads(done.stdout.splitlines()[-1])
    grown = m["stepped"]["VmRSS"] - m["imported"]["VmRSS"]
    return dict(num_envs=num_envs, rss_after_imports=m["imported"]["VmRSS"], rss_after_env=m["made"]["VmRSS"],
                rss_after_step=m["stepped"]["VmRSS"], peak_rss=m["stepped"]["VmHWM"], rss_growth=grown,
                rss_growth_per_env=round(grown / num_envs), observation_spaces_bytes=m["observation_spaces_bytes"],
                gymnasium_box_bytes=m["gymnasium_box_bytes"])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="Pong")
    p.add_argument("--num-envs", type=int, nargs="+", default=[1024, 4096, 16384])
    p.add_argument("--device", default="cpu")
    p.add_argument("--backend", default=None, help="the envs' engine (default: the device's own)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each measured process")
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()

    result = dict(machine(), game=args.game, device=args.device, backend=args.backend or args.device.split(":")[0],
                  how=f"benchmarks/host_memory.py {' '.join(sys.argv[1:])}",
                  settings="v5's observations: frameskip 4, 84x84 grayscale, 4 stacked, max-pooled",
                  measures="host RSS of a new process: after imports (and the CUDA context), after CuleEnv(...), "
                           "after reset and one step; bytes in bytes", rows=[])
    path = new_result_path(f"host_memory-{args.game.lower()}-{args.device.split(':')[0]}-{result['date']}",
                           folder=args.out)
    for n in args.num_envs:
        row = measure(args, n)
        result["rows"].append(row)
        path.write_text(json.dumps(result, indent=2) + "\n")   # after each count: a run cut short keeps the rest
        if "error" in row:
            print(f"{n:>7} envs: {row['error']}")
            continue
        print(f"{n:>7} envs: +{row['rss_growth'] / 1e9:.2f} GB host RSS ({row['rss_growth_per_env'] / 1e3:.1f} KB an env), "
              f"peak {row['peak_rss'] / 1e9:.2f} GB; observation spaces {row['observation_spaces_bytes']} B "
              f"(gymnasium's Box: {row['gymnasium_box_bytes'] / 1e9:.2f} GB)")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
