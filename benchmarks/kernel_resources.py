"""Registers, stack and spills per thread of every CUDA entry point, as NVRTC compiles them to
machine code for the architectures cule ships (what bounds a kernel's occupancy), and the
machine instructions of each part of the state kernels' 6502 interpreter (kernel_models/sass.py;
the loop and fetch every lane runs each instruction, the operand's read and write, the warp
schedule's test of a polling lane), measured without a GPU. Results go to
benchmarks/results/kernel_resources-<date>.json.

    python benchmarks/kernel_resources.py
"""
from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import cule
from cule import nvrtc
from cule.games import get_game

from _results import new_result_path   # benchmarks/_results.py

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "kernel_models"))
import sass  # noqa: E402  (kernel_models/sass.py)

INTERPRETERS = ("cule_step", "cule_step_logged", "cule_step_in_passes")
SHARED_PARTS = ("loop", "polls", "fetch", "dispatch:mode", "read", "dispatch:op", "write")


def main() -> None:
    # As CuleEnv compiles them: one module per game, its rules folded in (Pong here).
    game = get_game("pong")
    record = dict(benchmark="kernel_resources", date=datetime.date.today().isoformat(), cule=cule.__version__,
                  device="none: NVRTC's compiler and nvdisasm, no GPU",
                  nvrtc=".".join(map(str, nvrtc.version())), game=game.name, unit="per thread", archs={},
                  interpreter_sass={})
    defines = {"CULE_GAME": game.index}
    for arch in ("sm_80", "sm_90"):
        resources = nvrtc.kernel_resources(arch, defines)
        for name, report in nvrtc.kernel_ptxas_report(arch, defines).items():
            resources.setdefault(name, {}).update(report)
        record["archs"][arch] = resources
        print(arch)
        for name, r in sorted(resources.items()):
            print(f"  {name:20s} {r.get('registers', 0):4d} registers {r.get('stack_bytes', 0):6d} bytes of stack "
                  f"{r.get('spill_store_bytes', 0):6d} spilled {r.get('shared_bytes', 0):6d} shared a block")
        costs = sass.interpreter_costs(arch, defines, INTERPRETERS)
        record["interpreter_sass"][arch] = {kernel: {part: vars(c) for part, c in parts.items()}
                                            for kernel, parts in costs.items()}
        print("  machine instructions: " + ", ".join(SHARED_PARTS))
        for kernel, parts in costs.items():
            counts = (parts[p].instructions if p in parts else 0 for p in SHARED_PARTS)
            print(f"  {kernel:20s} " + " ".join(f"{n:5d}" for n in counts))
    path = new_result_path(f"kernel_resources-{record['date']}")
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
