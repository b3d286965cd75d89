"""Learning curves of training runs as a PNG: each run's training return (mean of the episodes
that ended since the previous log line) and evaluation score, against emulated frames and
against training time (wall-clock time less the evaluations, in seconds or, past ten minutes,
minutes), from the progress.csv and summary.json in its logdir; a dashed line at each target
score. A run still going, or stopped to be resumed, has no summary.json yet: its checkpoint.pt
names it instead, and its label says "so far".

    python examples/plot_curves.py examples/results/ppo-breakout-cpu --out examples/results/ppo-breakout-cpu/curve.png

Needs matplotlib (`pip install matplotlib`), which cule itself does not.
"""
from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path


def read_run(logdir: Path) -> tuple[dict, list[dict]]:
    """(summary.json, or for a run not finished what its checkpoint.pt says of it; progress.csv's
    rows with numbers as floats and empty cells as None)."""
    if (logdir / "summary.json").exists():
        summary = json.loads((logdir / "summary.json").read_text())
    elif (logdir / "checkpoint.pt").exists():
        import torch
        saved = torch.load(logdir / "checkpoint.pt", map_location="cpu", weights_only=False)   # the run's own file
        args = saved["args"]
        summary = dict(algo=saved["algo"], game=args["game"], num_envs=args["num_envs"], device=args["device"],
                       frames=saved["frames"], args=args, finished=False)
    else:
        raise FileNotFoundError(f"{logdir} has neither summary.json nor checkpoint.pt: is it a run's --logdir?")
    with open(logdir / "progress.csv", newline="") as f:
        rows = [{k: float(v) if v != "" else None for k, v in row.items()} for row in csv.DictReader(f)]
    return summary, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logdirs", nargs="+", type=Path, help="run directories (--logdir of the training scripts)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    args = parser.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [read_run(logdir) for logdir in args.logdirs]
    minutes = max(row["train_seconds"] for _, rows in runs for row in rows) > 600
    fig, (by_frames, by_time) = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True, layout="constrained")
    for summary, rows in runs:
        bf16 = ", bf16" if summary["args"].get("bf16") else ""
        total = summary["args"].get("total_frames")
        schedule = f", {total / 1e6:g}M-frame schedule" if total else ""
        sticky = summary["args"].get("repeat_action_probability", 0.25)
        label = (f"{summary['algo']} {summary['game']}{schedule} ({summary['num_envs']} envs{bf16}, sticky {sticky:g}, "
                 f"seed {summary['args']['seed']}, {summary['device']})")
        if not summary.get("finished", True):
            label += f", {summary['frames'] / 1e6:.1f}M frames so far"
        for axis, x in ((by_frames, "frames"), (by_time, "train_seconds")):
            scale = 1e6 if x == "frames" else 60.0 if minutes else 1.0
            train = [(r[x] / scale, r["train_return"]) for r in rows if r["train_return"] is not None]
            evals = [(r[x] / scale, r["eval_score"]) for r in rows if r["eval_score"] is not None]
            colour = None
            if train:
                colour = axis.plot(*zip(*train), alpha=0.5, label=f"{label}: training return")[0].get_color()
            if evals:
                axis.plot(*zip(*evals), "o-", color=colour, label=f"{label}: evaluation score")
    by_frames.set_xlabel("emulated frames (millions)")
    by_time.set_xlabel(f"training {'minutes' if minutes else 'seconds'} (evaluations left out)")
    for target in sorted({s["args"]["target_score"] for s, _ in runs if s["args"].get("target_score") is not None}):
        for axis in (by_frames, by_time):
            axis.axhline(target, color="grey", linestyle="--", linewidth=0.8)
    by_frames.set_ylabel("score")
    for axis in (by_frames, by_time):
        axis.grid(alpha=0.3)
    # Below both plots, where a long label hides no curve.
    fig.legend(*by_frames.get_legend_handles_labels(), loc="outside lower center", fontsize=7)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
