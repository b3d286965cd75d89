"""Registers and stack per thread of every CUDA entry point, as NVRTC compiles them to machine code
for the architectures cule ships: what bounds a kernel's occupancy, measured without a GPU.
Results go to benchmarks/results/kernel_resources-<date>.json.

    python benchmarks/kernel_resources.py
"""
from __future__ import annotations

import datetime
import json

import cule
from cule import nvrtc
from cule.games import get_game

from _results import new_result_path   # benchmarks/_results.py


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
    path = new_result_path(f"kernel_resources-{record['date']}")
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
