"""Raw frames per second at the settings RL runs Atari with (AtariVectorEnv's v5 defaults): cule's
CPU backend against ale-py's AtariVectorEnv and, where it is installed, EnvPool; same games, same
cores, one run.

v5 settings, as `gymnasium.make_vec("ALE/Pong-v5")` gives them (cule.registration's): frameskip
4, sticky actions 0.25, up to 30 no-op starts, FIRE at reset, 84 x 84 grey frames shrunk with
INTER_AREA, max-pooled over the last two frames, stacks of 4, rewards clipped, episodes of up to
108,000 frames, minimal action sets; random actions (the same for every engine) and autoresets.
Raw frames = steps x envs x 4. For each game, env count and thread count the engines take turns,
`--rounds` rounds of `--seconds` each after a warm-up; the best round of each counts (the least
disturbed by other work on the machine).

`--instructions` adds cule's instructions per raw frame, counted by valgrind's callgrind (the
difference between two runs of different lengths, so that start-up and the reset pool cancel):
exact and repeatable whatever else the machine runs (`--rounds 0` for these alone).

    python benchmarks/v5_fps.py                      # 10 games, 16 and 64 envs, 1 and all threads
    python benchmarks/v5_fps.py --games pong breakout --envs 64 --threads 1
    python benchmarks/v5_fps.py --rounds 0 --instructions

writes benchmarks/results/v5_fps-<date>.json: frames/s by engine, game, envs and threads, cule's
ratio to AtariVectorEnv and its geometric mean over the games.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.cpu_fps import machine_facts  # noqa: E402
from cule.registration import ATARI_VECTOR_ENV_DEFAULTS, V5_SETTINGS  # noqa: E402

GAMES = ["pong", "breakout", "ms_pacman", "space_invaders", "seaquest", "qbert", "beam_rider", "enduro",
         "asteroids", "montezuma_revenge"]
V5 = {**ATARI_VECTOR_ENV_DEFAULTS, **V5_SETTINGS}
FRAMESKIP = V5["frameskip"]
ACTION_BATCHES = 64   # pre-drawn batches of random actions, used in turn


def make_cule(game: str, envs: int, threads: int):
    import torch

    from cule import CuleEnv

    env = CuleEnv(game, num_envs=envs, device="cpu", num_threads=threads, **V5)
    return env, lambda a: torch.from_numpy(a)


def make_ale(game: str, envs: int, threads: int):
    from ale_py.vector_env import AtariVectorEnv

    return AtariVectorEnv(game, envs, num_threads=threads, **V5), lambda a: a


def make_envpool(game: str, envs: int, threads: int):
    import envpool

    # V5 in EnvPool's names (it always max-pools and shrinks with INTER_AREA).
    env = envpool.make_gymnasium(_envpool_task(game), seed=0, num_envs=envs, batch_size=envs, num_threads=threads,
                                 frame_skip=V5["frameskip"], repeat_action_probability=V5["repeat_action_probability"],
                                 noop_max=V5["noop_max"], gray_scale=V5["grayscale"], img_height=V5["img_height"],
                                 img_width=V5["img_width"], stack_num=V5["stack_num"], episodic_life=False,
                                 reward_clip=V5["reward_clipping"], use_fire_reset=V5["use_fire_reset"],
                                 max_episode_steps=V5["max_num_frames_per_episode"] // V5["frameskip"])
    return env, lambda a: a


def _envpool_task(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("_")) + "-v5"


def engines() -> dict:
    found = {"cule": make_cule, "ale_py": make_ale}
    try:
        import envpool  # noqa: F401
        found["envpool"] = make_envpool
    except ImportError:
        pass
    return found


def frames_per_second(env, convert, actions: list, seconds: float) -> float:
    """Steps for `seconds` (after a short warm-up); raw frames per second."""
    batches = [convert(a) for a in actions]
    for a in batches[:8]:
        env.step(a)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(batches[steps % len(batches)])
        steps += 1
    return steps * len(actions[0]) * FRAMESKIP / (time.perf_counter() - start)


def measure(game: str, envs: int, threads: int, rounds: int, seconds: float) -> dict:
    made = {name: make(game, envs, threads) for name, make in engines().items()}
    actions_n = made["ale_py"][0].single_action_space.n
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, actions_n, envs) for _ in range(ACTION_BATCHES)]
    best = {name: 0.0 for name in made}
    for name, (env, _) in made.items():
        env.reset() if name == "envpool" else env.reset(seed=0)   # EnvPool takes its seed when made
    for _ in range(rounds):
        for name, (env, convert) in made.items():
            best[name] = max(best[name], frames_per_second(env, convert, actions, seconds))
    for env, _ in made.values():
        env.close()
    return {name: round(fps) for name, fps in best.items()}


def callgrind_instructions(script_args: list[str], environ: dict[str, str] | None = None) -> int:
    """The instructions callgrind counts in a Python process running `script_args`; `environ`: its
    environment (CULE_CORE_LIB names another build)."""
    # Python's string hashes are seeded afresh in each process, and dict probes follow them: a
    # fixed seed makes the count the same from run to run (thousands of instructions a frame).
    environ = dict(os.environ if environ is None else environ, PYTHONHASHSEED="0")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          *script_args], capture_output=True, text=True, env=environ)
    found = re.search(r"refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or not found:
        raise RuntimeError(f"callgrind of {' '.join(script_args[1:])} failed: {run.stderr[-1000:]}")
    return int(found.group(1).replace(",", ""))


def instructions_per_frame(game: str, envs: int = 16, steps: tuple[int, int] = (20, 120),
                           environ: dict[str, str] | None = None) -> float:
    """cule's instructions per raw frame at v5 settings on one thread (callgrind); `environ`: the
    child's environment (CULE_CORE_LIB names another build)."""
    totals = [callgrind_instructions([__file__, "--child-steps", game, str(envs), str(n)], environ) for n in steps]
    return round((totals[1] - totals[0]) / ((steps[1] - steps[0]) * envs * FRAMESKIP))


def child_steps(game: str, envs: int, steps: int) -> None:
    import torch

    torch.set_num_threads(1)
    env, convert = make_cule(game, envs, 1)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        env.step(convert(rng.integers(0, env.single_action_space.n, envs)))


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--envs", nargs="+", type=int, default=[16, 64])
    parser.add_argument("--threads", nargs="+", type=int, default=sorted({1, os.cpu_count() or 1}))
    parser.add_argument("--rounds", type=int, default=3, help="0: no timings (with --instructions)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per round and engine")
    parser.add_argument("--instructions", action="store_true", help="cule's instructions per frame (callgrind)")
    parser.add_argument("--child-steps", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_steps:
        game, envs, steps = args.child_steps
        return child_steps(game, int(envs), int(steps))

    import torch

    torch.set_num_threads(1)   # cule's threads are its pool's; torch's would compete with them
    facts = machine_facts()
    facts["versions"]["torch"] = torch.__version__
    if "envpool" in engines():
        import envpool
        facts["versions"]["envpool"] = envpool.__version__
    rows = []
    for threads in args.threads if args.rounds else []:
        for envs in args.envs:
            for game in args.games:
                fps = measure(game, envs, threads, args.rounds, args.seconds)
                rows.append({"game": game, "num_envs": envs, "threads": threads, "fps": fps,
                             "cule_over_ale_py": round(fps["cule"] / fps["ale_py"], 3)})
                print(json.dumps(rows[-1]), flush=True)
    summary = {}
    for threads in args.threads if args.rounds else []:
        for envs in args.envs:
            ratios = [r["cule_over_ale_py"] for r in rows if r["threads"] == threads and r["num_envs"] == envs]
            summary[f"{threads}_threads_{envs}_envs"] = round(geometric_mean(ratios), 3)
    result = {"benchmark": "v5_fps", "device": "cpu", **facts, "settings": V5, "games": args.games,
              "rounds": args.rounds, "seconds": args.seconds, "unit": "raw emulated frames per second",
              "results": rows, "cule_over_ale_py_geometric_mean": summary}
    if args.instructions:
        result["cule_instructions_per_frame"] = {game: instructions_per_frame(game) for game in args.games}
    path = new_result_path(f"v5_fps-{facts['date']}")
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(summary), path)


if __name__ == "__main__":
    main()
