"""The GPU's steps game by game: raw frames/s of each step (default: the warp schedule's and the
split step's) at --envs envs, v5 settings, random actions, every game's own module; one JSON for
all the games, written after each, so that a run cut short keeps them (--resume skips the games
the file holds). Ends with the games where the first step gains least on the second.

    python benchmarks/games_fps.py --out gpu-out/games_fps.json               # the Atari-57, 16,384 envs
    python benchmarks/games_fps.py --games pong riverraid --envs 4096 --out f.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fps import SETTINGS, cule_gpu, machine   # noqa: E402

from cule.env import CUDA_STEPS   # noqa: E402
from cule.games import ATARI_57, get_game   # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(ATARI_57))
    parser.add_argument("--envs", type=int, default=16384)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--steps", nargs=2, default=["in-passes", "split"], choices=CUDA_STEPS,
                        help="the step measured and the one it is measured against")
    parser.add_argument("--device", default="cuda", help="cuda, or cpu for the kernels run on the host")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--resume", action="store_true", help="keep --out's games and measure the rest")
    args = parser.parse_args(argv)
    games = [get_game(g).id for g in args.games]   # an unknown game fails here, before any is run
    if args.envs <= 0:
        parser.error(f"--envs must be positive, got {args.envs}")
    record = dict(benchmark="games_fps", machine=machine(), device=args.device, settings=SETTINGS, num_envs=args.envs,
                  seconds=args.seconds, steps=args.steps, frames="raw emulated frames per second "
                  "(frameskip x steps x envs)", results={}, errors={})
    if args.resume and args.out.exists():
        kept = json.loads(args.out.read_text())
        if (kept["num_envs"], kept["steps"]) != (args.envs, args.steps):
            raise SystemExit(f"{args.out} holds {kept['num_envs']} envs of {kept['steps']}: run without --resume")
        record["results"], record["errors"] = kept["results"], kept["errors"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for game in games:
        if game in record["results"]:
            continue
        t = time.time()
        try:
            fps = {step: cule_gpu(game, args.envs, args.seconds, "emulation", step, args.device)["fps"]
                   for step in args.steps}
        except Exception as e:   # memory that runs out, say: the game's error, and on to the next
            record["errors"][game] = f"{type(e).__name__}: {e}"
            print(f"{game:20s} {record['errors'][game]}", flush=True)
        else:
            record["results"][game] = fps
            print(f"{game:20s} " + "  ".join(f"{s} {v:13,.0f}" for s, v in fps.items())
                  + f"  {fps[args.steps[0]] / fps[args.steps[1]]:5.2f}x  ({time.time() - t:.0f} s)", flush=True)
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    first, second = args.steps
    ratios = sorted((r[first] / r[second], g) for g, r in record["results"].items())
    print(f"least gain of {first} on {second}: " + ", ".join(f"{g} {x:.2f}x" for x, g in ratios[:5]))


if __name__ == "__main__":
    main()
