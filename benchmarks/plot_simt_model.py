"""Active lanes per pass against env age, one panel per game, one line per scheduling policy, from
a benchmarks/simt_model.py result:

    python benchmarks/plot_simt_model.py benchmarks/results/simt_model-2026-11-25.json --out docs/simt-lanes.png

Needs matplotlib (`pip install '.[plot]'`).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def plot(result: dict, path: Path) -> None:
    rows = result["results"]
    games = list(dict.fromkeys(r["game"] for r in rows))
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    if not rows or len({r["age"] for r in rows}) < 2:
        raise ValueError("no results at two env ages or more to plot")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(games), figsize=(3.1 * len(games), 3.6), sharey=True, squeeze=False)
    for axis, game in zip(axes[0], games):
        for policy in policies:
            points = sorted((r["age"], r["lanes_per_pass"]) for r in rows if r["game"] == game and r["policy"] == policy)
            axis.plot([a for a, _ in points], [v for _, v in points], marker="o", markersize=3, label=policy)
        axis.set_xscale("log")
        axis.set_title(game)
        axis.set_xlabel("env age (steps since reset)")
        axis.set_ylim(0, 32)
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("active lanes per pass (of 32)")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"SIMT model, {result['traced_envs']} envs traced per game and age, v5 settings, random actions "
                 f"({result['date']})", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    plot(json.loads(args.result.read_text()), args.out)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
