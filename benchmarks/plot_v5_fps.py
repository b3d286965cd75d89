"""Raw frames per second against the number of envs, one line per engine, one panel per game and
thread count, from a benchmarks/v5_fps.py result (run with several --envs):

    python benchmarks/v5_fps.py --games pong breakout --envs 4 16 64 256 --threads 2
    python benchmarks/plot_v5_fps.py benchmarks/results/v5_fps-<date>.json --out docs/v5_fps.png

Needs matplotlib (`pip install matplotlib`), which cule itself does not.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

ENGINES = {"cule": "cule (CPU backend)", "ale_py": "ale-py AtariVectorEnv", "envpool": "EnvPool"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", type=Path, help="a v5_fps JSON")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    args = parser.parse_args()
    result = json.loads(args.result.read_text())
    rows = result["results"]
    panels = sorted({(r["game"], r["threads"]) for r in rows}, key=lambda p: (p[1], result["games"].index(p[0])))
    if not panels or len({r["num_envs"] for r in rows}) < 2:
        raise SystemExit(f"{args.result} needs results at two env counts or more (v5_fps.py --envs ...)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), sharey=True, squeeze=False)
    for axis, (game, threads) in zip(axes[0], panels):
        mine = sorted((r for r in rows if r["game"] == game and r["threads"] == threads), key=lambda r: r["num_envs"])
        for engine, label in ENGINES.items():
            points = [(r["num_envs"], r["fps"][engine]) for r in mine if engine in r["fps"]]
            if points:
                axis.plot(*zip(*points), marker="o", label=label)
        axis.set_xscale("log", base=2)
        axis.set_title(f"{game}, {threads} thread{'s' * (threads > 1)}")
        axis.set_xlabel("envs")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("raw frames / s")
    axes[0][0].legend(fontsize=8)
    machine = result.get("machine", {})
    fig.suptitle(f"v5 settings, {machine.get('cpu', 'cpu')} ({machine.get('cores', '?')} cores), {result['date']}",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
