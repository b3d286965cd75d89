"""CPU backend speed against ale-py, same game, same machine, one run.

Reports raw emulated frames per second (frames the emulator ran, frameskip included):
  - cule CPU on 1 thread with 1 environment and with many (per-core speed, to compare with ale-py),
  - cule CPU on all cores with many environments,
  - ale-py 0.12.1, one ALEInterface (its act() and getScreenRGB() per step, no Python env layer).
Random actions, frameskip 4, no sticky actions, full RGB frames. Results go to
benchmarks/results/cpu_fps-<game>-<date>.json.

With several games (or `all`, the Atari-57), only the per-core comparison is run for each, and
the ratio's geometric mean over the games is reported: cpu_fps-survey-<date>.json.

    python benchmarks/cpu_fps.py --game pong --seconds 5
    python benchmarks/cpu_fps.py --game all --seconds 2
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import time
from pathlib import Path

import numpy as np


def cule_fps(game: str, num_envs: int, threads: int, seconds: float, frameskip: int = 4) -> float:
    from cule import CuleEnv

    env = CuleEnv(game, num_envs=num_envs, frameskip=frameskip, num_threads=threads)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    n = len(env.action_set)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(rng.integers(0, n, size=num_envs))
        frames += num_envs * frameskip
    return frames / (time.perf_counter() - start)


def ale_fps(game: str, seconds: float, frameskip: int = 4) -> float:
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", frameskip)
    ale.loadROM(str(roms.get_rom_path(game)))
    rng = np.random.default_rng(0)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in rng.integers(0, 18, size=100):
            ale.act(int(a))
            ale.getScreenRGB()
            if ale.game_over():
                ale.reset_game()
        frames += 100 * frameskip
    return frames / (time.perf_counter() - start)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_facts() -> dict:
    import ale_py
    import cule

    return {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count() or 1},
        "versions": {"cule": cule.__version__, "ale_py": ale_py.__version__, "python": platform.python_version()},
    }


def one_game(game: str, seconds: float, envs: int) -> None:
    cores = os.cpu_count() or 1
    rows = {
        "cule_cpu_1_thread_1_env": cule_fps(game, 1, 1, seconds),
        f"cule_cpu_1_thread_{envs}_envs": cule_fps(game, envs, 1, seconds),
        f"cule_cpu_{cores}_threads_{envs}_envs": cule_fps(game, envs, cores, seconds),
        "ale_py_single_env": ale_fps(game, seconds),
    }
    facts = machine_facts()
    result = {
        "benchmark": "cpu_fps", "game": game, "num_envs": envs, "frameskip": 4,
        "observation": "210x160 RGB", "unit": "raw emulated frames per second", **facts, "fps": rows,
    }
    out = Path(__file__).parent / "results" / f"cpu_fps-{game}-{facts['date']}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    for name, fps in rows.items():
        print(f"{name:32s} {fps:12,.0f}")
    print(f"written to {out}")


def survey(games: list[str], seconds: float, envs: int) -> None:
    """Per core only: cule on one thread with `envs` environments against one ALEInterface."""
    rows = {}
    print(f"{'game':20s} {'cule 1 core':>12s} {'ale-py':>12s} {'ratio':>6s}")
    for game in games:
        cule, ale = cule_fps(game, envs, 1, seconds), ale_fps(game, seconds)
        rows[game] = {"cule_cpu_1_thread": cule, "ale_py_single_env": ale, "ratio": cule / ale}
        print(f"{game:20s} {cule:12,.0f} {ale:12,.0f} {cule / ale:6.2f}", flush=True)
    ratios = np.array([r["ratio"] for r in rows.values()])
    summary = {
        "geometric_mean_ratio": float(np.exp(np.log(ratios).mean())),
        "min_ratio": float(ratios.min()), "games_at_or_above_1": int((ratios >= 1).sum()), "games": len(rows),
    }
    facts = machine_facts()
    result = {
        "benchmark": "cpu_fps_survey", "num_envs": envs, "frameskip": 4, "observation": "210x160 RGB",
        "unit": "raw emulated frames per second", "seconds_each": seconds, **facts,
        "summary": summary, "games": rows,
    }
    out = Path(__file__).parent / "results" / f"cpu_fps-survey-{facts['date']}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"geometric mean of the ratio {summary['geometric_mean_ratio']:.3f}, lowest {summary['min_ratio']:.2f}, "
          f"{summary['games_at_or_above_1']} of {summary['games']} games at or above ale-py")
    print(f"written to {out}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", nargs="+", default=["pong"], help="one or more ALE ids, or `all` for the Atari-57")
    p.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    p.add_argument("--envs", type=int, default=64)
    args = p.parse_args()
    if args.game == ["all"]:
        from cule.games import list_games

        args.game = list_games()
    if len(args.game) == 1:
        one_game(args.game[0], args.seconds, args.envs)
    else:
        survey(args.game, args.seconds, args.envs)


if __name__ == "__main__":
    main()
