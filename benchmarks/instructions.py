"""Host instructions per emulated frame at v5 settings, by component, cule's CPU backend beside
ale-py's AtariVectorEnv: counted by valgrind's callgrind, exact and repeatable whatever else the
machine runs. Each engine steps `--envs` envs on one thread with the same random actions; the
difference between a run of `--steps` B and one of A steps (so that start-up, imports and the
reset pool cancel) is divided by the frames it emulated: (B - A) x envs x 4.

Components, by the function each instruction lies in (inlined code counts as its caller's):
  interpreter   the 6502 and its bus: RAM, ROM, bank switching (cule: console_frame, the cartridge;
                ale-py: M6502Low::execute, System, Cartridge*)
  registers     TIA and RIOT register reads and writes, without drawing (cule: bus_peek_chip,
                bus_poke_chip, tia_poke; ale-py: TIA::poke, TIA::peek, M6532)
  pixels        drawing the frames a step shows (cule: the DRAW=true spans, and the host's TIA
                writes that draw, bus_poke_drawn<true>, whose register case lies inline with the
                drawing; ale-py: TIA::updateFrame, which draws every frame and latches collisions
                as it draws, but which its module inlines into TIA::poke and TIA::peek: ale-py's
                registers hold its pixels)
  collisions    the collision latches of frames not drawn (cule alone: the DRAW=false spans and
                bus_poke_drawn<false>)
  observation   grey, max-pooling, resizing, stacking (cule: shrink_frame and the stacks; ale-py:
                PreprocessedEnv and the OpenCV it calls)
  other         Python, pybind11, torch, the thread pools
Functions without a name of their own (library code, static functions of a stripped module) count
for their callers, in proportion to the instructions each call took.

    python benchmarks/instructions.py                            # 10 games, both engines
    python benchmarks/instructions.py --games pong seaquest --engines cule --jobs 2

writes benchmarks/results/instructions-<date>.json and prints a table per game.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.v5_fps import GAMES, V5, geometric_mean  # noqa: E402

FRAMESKIP = V5["frameskip"]
COMPONENTS = ("interpreter", "registers", "pixels", "collisions", "observation", "other")

# (component, pattern on the function's name), first match wins; names as callgrind demangles them.
RULES = [
    # cule (kernels/, bindings/)
    ("pixels", r"cule::(draw_span|draw_objects|tia_draw_lines|tia_update_to|tia_draw_deferred|fill|bus_poke_drawn)<true>|"
               r"cule::(draw_objects|tia_grey_out)\b"),
    ("collisions", r"cule::(draw_span|tia_draw_lines|tia_update_to|tia_draw_deferred|bus_poke_drawn)<false>|"
                   r"cule::latch_span_collisions"),
    ("pixels", r"cule::(masks_empty|four_pixel_step_\w+)\b"),
    ("registers", r"cule::(bus_peek_chip|bus_poke_chip|tia_poke|tia_peek|riot_peek|riot_poke|hmove|write_\w+|"
                  r"reset_(player|missile0|missile1|ball)|update_\w+|tia_rebuild_masks|\w+_object)\b"),
    ("interpreter", r"cule::(console_frame|adc_decimal|sbc_decimal|m6502::adc|m6502::sbc|bus_window|bus_peek_cart|"
                    r"bus_wait_on_timer|cart_peek_chip|cart_poke_chip|dpc_\w+)\b"),
    ("observation", r"cule::bindings::(shrink_frame|\w*row_sums|column_sums\w*|transpose8|to_floats|round_to_bytes|"
                    r"brighter_grey\w*)|"
                    r"VecEnv::(observe_env|stack_frame|advance_stacks|restart_stacks|end_frame)|cule::bindings::full_frame"),
    # ale-py (its module's exported names)
    ("pixels", r"ale::stella::TIA::updateFrame\b"),
    ("registers", r"ale::stella::(TIA::(poke|peek)|M6532::(peek|poke)|(Paddles|Joystick|Switches)::read)\b"),
    ("interpreter", r"ale::stella::(M6502\w*::(execute|PS)|System::|Cartridge\w*::(peek|poke|bank))"),
    ("observation", r"ale::vector::PreprocessedEnv::(process_screen|get_screen_grayscale|get_screen_rgb|"
                    r"write_obs_to|write_to)|ale::ColourPalette::apply|cv::"),
]
# Functions whose instructions count for their callers: library code and names callgrind could not
# give (a stripped module's static functions).
INHERIT = re.compile(r"^(0x[0-9a-f]+|\?\?\?)$|^__mem|^__str|^mem(set|cpy|move)$|^_?_?libc_|^operator (new|delete)")


def component_of(name: str) -> str | None:
    for component, pattern in RULES:
        if re.search(pattern, name):
            return component
    return None


def parse_callgrind(path: Path) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Each function's own instructions and each call's inclusive ones, from a callgrind file."""
    names: dict[str, str] = {}

    def name(field: str) -> str:
        m = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not m:
            return field
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]

    self_cost: dict[str, int] = defaultdict(int)
    calls: dict[tuple[str, str], int] = defaultdict(int)
    fn = callee = None
    in_call = False
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("fn="):
            fn = name(line[3:].strip())
        elif line.startswith("cfn="):
            callee = name(line[4:].strip())
        elif line.startswith("calls="):
            in_call = True
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            parts = line.split()
            cost = int(parts[-1]) if len(parts) >= 2 else 0
            if in_call:
                calls[(fn, callee)] += cost
                in_call = False
            else:
                self_cost[fn] += cost
    return self_cost, calls


def components(path: Path) -> dict[str, int]:
    """The run's instructions by component (COMPONENTS)."""
    self_cost, calls = parse_callgrind(path)
    callers: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for (caller, callee), cost in calls.items():
        callers[callee].append((caller, cost))
    weights: dict[str, dict[str, float]] = {}

    def weight(fn: str, depth: int = 0) -> dict[str, float]:
        if fn in weights:
            return weights[fn]
        own = component_of(fn)
        if own or not INHERIT.search(fn) or depth > 20:
            weights[fn] = {own or "other": 1.0}
            return weights[fn]
        weights[fn] = {"other": 1.0}   # for cycles, until resolved
        total = sum(cost for _, cost in callers[fn])
        mix: dict[str, float] = defaultdict(float)
        for caller, cost in callers[fn]:
            for comp, w in weight(caller, depth + 1).items():
                mix[comp] += w * cost / total
        weights[fn] = dict(mix) if total else {"other": 1.0}
        return weights[fn]

    out = {c: 0.0 for c in COMPONENTS}
    for fn, cost in self_cost.items():
        for comp, w in weight(fn).items():
            out[comp] += w * cost
    return {c: round(v) for c, v in out.items()}


def run_child(engine: str, game: str, envs: int, steps: int, out: Path) -> None:
    # Dict probes follow string hashes: fixed, repeatable. One OpenBLAS thread: its idle threads
    # spin for as long as the scheduler lets them, a few thousand instructions a frame that vary.
    environ = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                          "--child", engine, game, str(envs), str(steps)], capture_output=True, text=True, env=environ)
    if run.returncode != 0 or not out.exists():
        raise RuntimeError(f"callgrind of {engine} {game} failed: {run.stderr[-2000:]}")


def measure(engine: str, game: str, envs: int, steps: tuple[int, int], pool: ThreadPoolExecutor) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / f"{n}.out" for n in steps]
        # callgrind's counts are the same however many run at once
        list(pool.map(lambda n, path: run_child(engine, game, envs, n, path), steps, paths))
        parts = [components(path) for path in paths]
    frames = (steps[1] - steps[0]) * envs * FRAMESKIP
    per_frame = {c: round((parts[1][c] - parts[0][c]) / frames) for c in COMPONENTS}
    per_frame["total"] = sum(per_frame[c] for c in COMPONENTS)
    return per_frame


def child(engine: str, game: str, envs: int, steps: int) -> None:
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    if engine == "cule":
        from cule import CuleEnv

        env = CuleEnv(game, num_envs=envs, device="cpu", num_threads=1, **V5)
        convert = torch.from_numpy
    else:
        from ale_py.vector_env import AtariVectorEnv

        env = AtariVectorEnv(game, envs, num_threads=1, **V5)
        convert = lambda a: a  # noqa: E731
    env.reset(seed=0)
    for _ in range(steps):
        env.step(convert(rng.integers(0, env.single_action_space.n, envs)))
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--engines", nargs="+", default=["cule", "ale_py"], choices=["cule", "ale_py"])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", nargs=2, type=int, default=[20, 120], metavar=("A", "B"))
    parser.add_argument("--jobs", type=int, default=1, help="callgrind runs at once")
    parser.add_argument("--note", default="", help="what was measured, for the results file (another build of cule, say)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, game, envs, steps = args.child
        return child(engine, game, int(envs), int(steps))

    from benchmarks.cpu_fps import machine_facts

    facts = machine_facts()
    rows = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for game in args.games:
            row = {"game": game, **{engine: measure(engine, game, args.envs, tuple(args.steps), pool)
                                    for engine in args.engines}}
            rows.append(row)
            print(game)
            for c in (*COMPONENTS, "total"):
                print(f"  {c:12s}" + "".join(f"{row[e][c]:>12,}" for e in args.engines))
    summary = {e: round(geometric_mean([r[e]["total"] for r in rows])) for e in args.engines}
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parent).stdout.strip()
    result = {"benchmark": "instructions", "device": "cpu (callgrind: instructions, not time)", **facts,
              "commit": commit, "core": os.environ.get("CULE_CORE_LIB", "this checkout's build"), "note": args.note,
              "settings": V5, "num_envs": args.envs, "threads": 1, "steps": args.steps, "games": args.games,
              "unit": "host instructions per emulated frame", "results": rows, "total_geometric_mean": summary}
    path = new_result_path(f"instructions-{facts['date']}")
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(summary), path)


if __name__ == "__main__":
    main()
