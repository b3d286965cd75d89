"""Registers and stack per thread of every CUDA entry point, as NVRTC compiles them to machine code
for the architectures cule ships: what bounds a kernel's occupancy, measured without a GPU.
Results go to benchmarks/results/kernel_resources-<date>.json.

    python benchmarks/kernel_resources.py
"""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import cule
from cule import nvrtc
from cule.games import get_game

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    # As CuleEnv compiles them: one module per game, its rules folded in (Pong here).
    game = get_game("pong")
    record = dict(benchmark="kernel_resources", date=datetime.date.today().isoformat(), cule=cule.__version__,
                  nvrtc=".".join(map(str, nvrtc.version())), game=game.name, unit="per thread", archs={})
    for arch in ("sm_80", "sm_90"):
        record["archs"][arch] = nvrtc.kernel_resources(arch, {"CULE_GAME": game.index})
        print(arch)
        for name, r in sorted(record["archs"][arch].items()):
            print(f"  {name:18s} {r.get('registers', 0):4d} registers {r.get('stack_bytes', 0):6d} bytes of stack")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"kernel_resources-{record['date']}.json"
    for k in range(2, 100):   # a new file for each run: results are never edited
        if not path.exists():
            break
        path = RESULTS / f"kernel_resources-{record['date']}-{k}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
