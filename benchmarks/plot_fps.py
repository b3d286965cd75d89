"""Raw frames per second against the number of envs, one line per engine, from a
benchmarks/fps.py result (cule on the GPU and the CPU engines of the same run):

    python benchmarks/plot_fps.py benchmarks/results/fps-pong-2026-11-23-h100.json --out docs/fps-pong-h100.png

Needs matplotlib (`pip install '.[plot]'`), which cule itself does not.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

# fps.py's engine names, in the legend's order.
ENGINES = {"cule-gpu": "cule, GPU backend", "cule-gpu-in-passes": "cule, GPU backend, warp schedule",
           "cule-gpu-one-kernel": "cule, GPU backend, one kernel", "cule-cpu": "cule, CPU backend",
           "ale-py AtariVectorEnv": "ale-py AtariVectorEnv", "EnvPool": "EnvPool",
           "ale-py": "ale-py ALEInterface (1 env)"}
LOADS = {"emulation": "random actions", "inference": "actions from a Nature-DQN net on the GPU"}


def plot(result: dict, path: Path, load: str = "emulation") -> None:
    """Writes the PNG of one fps.py result's `load` (LOADS)."""
    if load not in LOADS:
        raise ValueError(f"load must be one of {list(LOADS)}, got {load!r}")
    rows = [r for r in result["results"] if r["load"] == load]
    unknown = sorted({r["engine"] for r in rows} - set(ENGINES))
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r}: fps.py's engines are {list(ENGINES)}")
    if len({r["num_envs"] for r in rows}) < 2:
        raise ValueError(f"no {load!r} results at two env counts or more to plot")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, axis = plt.subplots(figsize=(7.5, 4.6))
    for engine, label in ENGINES.items():
        points = sorted((r["num_envs"], r["fps"]) for r in rows if r["engine"] == engine)
        if not points:
            continue
        line = axis.plot(*zip(*points), marker="o", label=label)[0]
        below = engine == "EnvPool"   # under AtariVectorEnv's points, at the same env counts
        for x, y in points:   # the values, as the README's table gives them
            axis.annotate(f"{y / 1000:.0f}K", (x, y), textcoords="offset points", xytext=(0, -13 if below else 7),
                          ha="center", fontsize=7, color=line.get_color())
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    counts = sorted({r["num_envs"] for r in rows})
    axis.set_xticks([4 ** k for k in range(10) if counts[0] <= 4 ** k <= counts[-1]] or counts)
    axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v / 1000:,.0f}K"))
    axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.set_yticks([t for t in (1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6)
                     if min(r["fps"] for r in rows) / 2 < t < max(r["fps"] for r in rows) * 2])
    axis.margins(x=0.06, y=0.12)
    axis.set_xlabel("envs stepped together (num_envs)")
    axis.set_ylabel("raw frames / s (frameskip x steps x envs)")
    axis.grid(alpha=0.3, which="both")
    axis.legend(fontsize=8, loc="lower right")
    machine = result.get("machine", {})
    where = ", ".join(str(v) for v in (machine.get("gpu"), f"{machine.get('cpu_cores', '?')} CPU cores",
                                        machine.get("date")) if v)
    axis.set_title(f"{result['game'].capitalize()}, v5 settings, {LOADS[load]}; {where}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", type=Path, help="a benchmarks/fps.py JSON")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--load", default="emulation", choices=list(LOADS))
    args = parser.parse_args()
    try:
        plot(json.loads(args.result.read_text()), args.out, args.load)
    except ValueError as e:
        raise SystemExit(f"{args.result}: {e}")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
