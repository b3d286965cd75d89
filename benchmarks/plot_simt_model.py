"""Active lanes per pass against env age, one panel per game, one line per scheduling policy, from
a kernel_models/simt_model.py result, and the table of today's kernel against the one built:

    python benchmarks/plot_simt_model.py benchmarks/results/simt_model-2026-11-25.json --out docs/simt-lanes.png
    python benchmarks/plot_simt_model.py benchmarks/results/simt_model-2026-11-25.json --table --age 3000

Needs matplotlib (`pip install '.[plot]'`).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path


TODAY = "per-lane"          # the state kernels without the warp schedule
BUILT = "fstack+wait+join"  # cule_step_in_passes (kernels/atari/console.h, run_frame_in_passes)


def built_rows(result: dict) -> list[dict]:
    """The rows of the kernel as built (every row, in results from before rows named a kernel)."""
    return [r for r in result["results"] if r.get("kernel", "built") == "built"]


def plot(result: dict, path: Path, built_policy: str = BUILT) -> None:
    rows = built_rows(result)
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
            points = sorted((r["age"], r["lanes_per_pass"]) for r in rows
                            if r["game"] == game and r["policy"] == policy)
            built = policy == built_policy
            axis.plot([a for a, _ in points], [v for _, v in points], marker="o", markersize=3,
                      linewidth=2.5 if built else 1.2, label=f"{policy} (built)" if built else policy)
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


def sectors(row: dict, layout: str) -> float:
    """32-byte sectors of global memory per warp-frame: the bus's accesses and the machine state's
    own loads and stores."""
    return row[f"sectors_per_warp_frame_{layout}"] + row[f"state_sectors_per_warp_frame_{layout}"]


def local(row: dict) -> str:
    """Local memory's sectors per warp-frame (the GPU's Bus, spills), where the result counts them."""
    return f"{row['local_sectors_per_warp_frame']:,.0f}" if "local_sectors_per_warp_frame" in row else "-"


def table(result: dict, age: int, built_policy: str = BUILT) -> str:
    """A markdown table, a row per game at `age`: today's kernel (per-lane, array-of-structures
    state; its own machine code where the result has it) against the warp schedule as built
    (`built_policy`, RAM in warp tiles, the Bus in registers) and with every field of the
    state structure-of-arrays (not built), and the best policy the model tried."""
    rows = [r for r in result["results"] if r["age"] == age]
    games = list(dict.fromkeys(r["game"] for r in rows))
    if not games:
        ages = sorted({r["age"] for r in result["results"]})
        raise ValueError(f"no results at age {age}; the result has ages {ages}")
    out = ["| game | lanes per pass: today, built, best (policy) | passes per warp-frame: today, built (fewer) | "
           "global memory sectors per warp-frame: today, built (fewer), all SoA (fewer) | local memory sectors per "
           "warp-frame: today, built | issued instructions: fewer | active threads: today, built |",
           "|---|---|---|---|---|---|---|"]
    for game in games:
        by = {r["policy"]: r for r in rows if r["game"] == game and r.get("kernel", "built") == "built"}
        # today's kernel: its own row where the result has one, else the built one's per-lane row
        today = next((r for r in rows if r["game"] == game and r["policy"] == TODAY
                      and r.get("kernel", "built") != "built"), by.get(TODAY))
        if today is None or built_policy not in by:
            raise ValueError(f"{game} at age {age} lacks the {TODAY!r} or {built_policy!r} policy")
        built = by[built_policy]
        best = max(by.values(), key=lambda r: r["lanes_per_pass"])
        out.append(f"| {game} | {today['lanes_per_pass']:.1f}, {built['lanes_per_pass']:.1f}, "
                   f"{best['lanes_per_pass']:.1f} ({best['policy']}) | {today['passes_per_warp_frame']:,.0f}, "
                   f"{built['passes_per_warp_frame']:,.0f} "
                   f"({today['passes_per_warp_frame'] / built['passes_per_warp_frame']:.1f}x) | "
                   f"{sectors(today, 'aos'):,.0f}, {sectors(built, 'tiles'):,.0f} "
                   f"({sectors(today, 'aos') / sectors(built, 'tiles'):.1f}x), {sectors(built, 'soa'):,.0f} "
                   f"({sectors(today, 'aos') / sectors(built, 'soa'):.1f}x) | {local(today)}, {local(built)} | "
                   f"{today['issued_per_warp_frame'] / built['issued_per_warp_frame']:.1f}x | "
                   f"{today['active_threads']:.1f}, {built['active_threads']:.1f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", type=Path)
    parser.add_argument("--out", type=Path, help="the PNG to draw")
    parser.add_argument("--table", action="store_true",
                        help="print the markdown table of today's kernel and the built one")
    parser.add_argument("--age", type=int, default=3000, help="the env age of the table's rows")
    parser.add_argument("--built", default=BUILT,
                        help=f"the policy the built kernel runs (default {BUILT}; min-pc+wait before 2026-11-26-6)")
    args = parser.parse_args()
    if not args.out and not args.table:
        parser.error("give --out, --table or both")
    result = json.loads(args.result.read_text())
    if args.table:
        print(table(result, args.age, args.built))
    if args.out:
        plot(result, args.out, args.built)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
