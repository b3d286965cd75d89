"""Steps per second of one env, what most clients step (CleanRL's ppo_atari and dqn_atari, SB3's
make_atari_env, Tianshou, RLlib): `gymnasium.make("cule/<Game>-v5")` against ale-py's
`gymnasium.make("ALE/<Game>-v5")`, and the NoFrameskip-v4 ids stepped one frame at a time by
gymnasium's AtariPreprocessing (84 x 84 grey, frameskip 4, max-pooled, up to 30 no-ops) and
FrameStackObservation(4), as CleanRL's scripts wrap them. Random actions, the same for both; an
episode's end resets. The engines take turns, `--rounds` rounds of `--seconds` each; the best
round of each counts (the least disturbed by other work on the machine).

`--instructions` adds host instructions per step, counted by valgrind's callgrind (the difference
between runs of 1,200 and 200 steps), exact whatever else the machine runs (`--rounds 0` for these
alone).

    python benchmarks/single_env.py                                  # Pong, Breakout, Seaquest
    python benchmarks/single_env.py --games pong --settings v5 --rounds 0 --instructions

writes benchmarks/results/single_env-<date>.json: steps/s by engine, game and settings, cule's
ratio to ale-py and its geometric mean.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.cpu_fps import machine_facts  # noqa: E402
from benchmarks.v5_fps import callgrind_instructions, geometric_mean  # noqa: E402

GAMES = ["pong", "breakout", "seaquest"]
SETTINGS = ["v5", "nf4-preprocessing"]
ACTIONS = 4096   # pre-drawn random actions, used in turn
STEPS = (200, 1200)   # callgrind's two runs


def make(engine: str, game: str, settings: str):
    import gymnasium

    if engine == "cule":
        import cule  # noqa: F401  (registers cule/ ids)
        prefix = "cule/"
    else:
        import ale_py
        gymnasium.register_envs(ale_py)
        prefix = "ALE/" if settings == "v5" else ""
    name = "".join(part.capitalize() for part in game.split("_"))
    if settings == "v5":
        return gymnasium.make(f"{prefix}{name}-v5")
    env = gymnasium.make(f"{prefix}{name}NoFrameskip-v4")
    env = gymnasium.wrappers.AtariPreprocessing(env, noop_max=30, frame_skip=4, screen_size=84)
    return gymnasium.wrappers.FrameStackObservation(env, 4)


def play(env, actions: np.ndarray, steps: int | None = None, seconds: float | None = None) -> float:
    """`steps` steps, or as many as `seconds` allow; steps per second."""
    done, start = 0, time.perf_counter()
    while (steps is None or done < steps) and (seconds is None or time.perf_counter() - start < seconds):
        _, _, terminated, truncated, _ = env.step(int(actions[done % len(actions)]))
        if terminated or truncated:
            env.reset()
        done += 1
    return done / (time.perf_counter() - start)


def measure(game: str, settings: str, rounds: int, seconds: float) -> dict:
    envs = {engine: make(engine, game, settings) for engine in ("cule", "ale_py")}
    actions = np.random.default_rng(0).integers(0, envs["ale_py"].action_space.n, ACTIONS)
    best = dict.fromkeys(envs, 0.0)
    for env in envs.values():
        env.reset(seed=0)
        play(env, actions, steps=50)   # warm-up
    for _ in range(rounds):
        for engine, env in envs.items():
            best[engine] = max(best[engine], play(env, actions, seconds=seconds))
    for env in envs.values():
        env.close()
    return {engine: round(v, 1) for engine, v in best.items()}


def instructions_per_step(engine: str, game: str, settings: str) -> int:
    totals = [callgrind_instructions([__file__, "--child", engine, game, settings, str(n)]) for n in STEPS]
    return round((totals[1] - totals[0]) / (STEPS[1] - STEPS[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--settings", nargs="+", default=SETTINGS, choices=SETTINGS)
    parser.add_argument("--rounds", type=int, default=3, help="0: no timings (with --instructions)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per round and engine")
    parser.add_argument("--instructions", action="store_true", help="instructions per step (callgrind)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, game, settings, steps = args.child
        env = make(engine, game, settings)
        env.reset(seed=0)
        return play(env, np.random.default_rng(0).integers(0, env.action_space.n, ACTIONS), steps=int(steps))

    import ale_py
    import gymnasium
    import torch

    torch.set_num_threads(1)
    facts = machine_facts()
    facts["versions"].update(gymnasium=gymnasium.__version__, ale_py=ale_py.__version__)
    rows = []
    for settings in args.settings:
        for game in args.games:
            row = {"game": game, "settings": settings}
            if args.rounds:
                row["steps_per_second"] = measure(game, settings, args.rounds, args.seconds)
                row["cule_over_ale_py"] = round(row["steps_per_second"]["cule"] / row["steps_per_second"]["ale_py"], 3)
            if args.instructions:
                row["instructions_per_step"] = {e: instructions_per_step(e, game, settings) for e in ("cule", "ale_py")}
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {s: round(geometric_mean([r["cule_over_ale_py"] for r in rows if r["settings"] == s]), 3)
               for s in args.settings if args.rounds}
    result = {"benchmark": "single_env", "device": "cpu", **facts, "num_envs": 1, "games": args.games, "rounds": args.rounds,
              "seconds": args.seconds, "unit": "env steps per second (4 frames a step)", "results": rows,
              "cule_over_ale_py_geometric_mean": summary}
    path = new_result_path(f"single_env-{facts['date']}")
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(summary), path)


if __name__ == "__main__":
    main()
