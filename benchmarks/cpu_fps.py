"""CPU backend speed against ale-py, same game, same machine, one run.

Reports raw emulated frames per second (frames the emulator ran, frameskip included):
  - cule CPU on 1 thread with 1 environment and with many (per-core speed, to compare with ale-py),
  - cule CPU on all cores with many environments,
  - ale-py 0.12.1, one ALEInterface (its act() and getScreenRGB() per step, no Python env layer).
Random actions, frameskip 4, no sticky actions, full RGB frames. Results go to
benchmarks/results/cpu_fps-<game>-<date>.json.

With several games (or `all`, every game cule runs), only the per-core comparison is run for
each, on the same work for both engines: the first `--steps` steps of `--envs` episodes (cule
steps the episodes side by side on one thread, ale-py one after another), so that both emulate
the same stretch of each game; the best of `--repeats` interleaved runs. The ratio's geometric
mean over the games is reported: cpu_fps-survey-<date>.json.

    python benchmarks/cpu_fps.py --game pong --seconds 5
    python benchmarks/cpu_fps.py --game all
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

from _results import new_result_path   # benchmarks/_results.py


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


def ale_interface(game: str, frameskip: int, seed: int | None = None):
    """An ALEInterface on the game: no sticky actions, `frameskip`, ALE's random_seed `seed`."""
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", frameskip)
    if seed is not None:
        ale.setInt("random_seed", seed)
    ale.loadROM(str(roms.get_rom_path(game)))
    return ale


def ale_fps(game: str, seconds: float, frameskip: int = 4) -> float:
    ale = ale_interface(game, frameskip)
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


def cpu_generation() -> dict:
    """The x86 CPU family and model numbers (/proc/cpuinfo), which tell apart machines whose model
    name is only the brand (a virtual machine's "AMD EPYC": family 25 is Zen 3 or 4, 26 Zen 5)."""
    facts = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("cpu family", "model"):
                facts.setdefault(key.strip(), int(value))   # the first core's
    except (OSError, ValueError):
        pass
    return {"cpu_family": facts["cpu family"], "cpu_model": facts["model"]} if len(facts) == 2 else {}


def machine_facts() -> dict:
    import ale_py
    import cule

    return {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpu": cpu_model(), **cpu_generation(), "cores": os.cpu_count() or 1},
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
    out = new_result_path(f"cpu_fps-{game}-{facts['date']}")
    out.write_text(json.dumps(result, indent=2) + "\n")
    for name, fps in rows.items():
        print(f"{name:32s} {fps:12,.0f}")
    print(f"written to {out}")


def cule_seconds(game: str, episodes: int, steps: int, frameskip: int = 4) -> float:
    """Seconds cule takes on one thread for the first `steps` steps of `episodes` episodes."""
    from cule import CuleEnv

    env = CuleEnv(game, num_envs=episodes, frameskip=frameskip, num_threads=1)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, len(env.action_set), size=(steps, episodes))
    start = time.perf_counter()
    for a in actions:
        env.step(a)
    return time.perf_counter() - start


def ale_seconds(game: str, episodes: int, steps: int, frameskip: int = 4) -> float:
    """Seconds ale-py takes for the same work, one episode after another (loading and resetting
    between them not counted)."""
    total = 0.0
    for seed in range(episodes):
        ale = ale_interface(game, frameskip, seed)
        actions = np.random.default_rng(seed).integers(0, 18, size=steps)
        start = time.perf_counter()
        for a in actions:
            ale.act(int(a))
            ale.getScreenRGB()
            if ale.game_over():
                ale.reset_game()
        total += time.perf_counter() - start
    return total


def survey(games: list[str], episodes: int, steps: int, repeats: int) -> None:
    """Per core only: cule on one thread against one ALEInterface, the same work for both."""
    frames = episodes * steps * 4
    rows = {}
    print(f"{'game':20s} {'cule 1 core':>12s} {'ale-py':>12s} {'ratio':>6s}")
    for game in games:
        cule_runs, ale_runs = [], []
        for _ in range(repeats):   # interleaved: both see the same drift of the machine
            cule_runs.append(cule_seconds(game, episodes, steps))
            ale_runs.append(ale_seconds(game, episodes, steps))
        cule, ale = frames / min(cule_runs), frames / min(ale_runs)
        rows[game] = {"cule_cpu_1_thread": cule, "ale_py_single_env": ale, "ratio": cule / ale}
        print(f"{game:20s} {cule:12,.0f} {ale:12,.0f} {cule / ale:6.2f}", flush=True)
    ratios = np.array([r["ratio"] for r in rows.values()])
    summary = {
        "geometric_mean_ratio": float(np.exp(np.log(ratios).mean())),
        "min_ratio": float(ratios.min()), "games_at_or_above_1": int((ratios >= 1).sum()), "games": len(rows),
    }
    facts = machine_facts()
    result = {
        "benchmark": "cpu_fps_survey", "frameskip": 4, "observation": "210x160 RGB (the game's height)",
        "unit": "raw emulated frames per second",
        "work": {"episodes": episodes, "steps_per_episode": steps, "frames": frames, "repeats": repeats,
                 "method": "the same first steps of the same number of episodes for both engines, "
                           "best of the interleaved repeats"},
        **facts, "summary": summary, "games": rows,
    }
    out = new_result_path(f"cpu_fps-survey-{facts['date']}")
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"geometric mean of the ratio {summary['geometric_mean_ratio']:.3f}, lowest {summary['min_ratio']:.2f}, "
          f"{summary['games_at_or_above_1']} of {summary['games']} games at or above ale-py")
    print(f"written to {out}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", nargs="+", default=["pong"], help="one or more ALE ids, or `all` for every game")
    p.add_argument("--seconds", type=float, default=5.0, help="per measurement, one game")
    p.add_argument("--envs", type=int, default=None, help="environments; several games: episodes (default 8)")
    p.add_argument("--steps", type=int, default=500, help="several games: steps per episode")
    p.add_argument("--repeats", type=int, default=2, help="several games: interleaved runs of each engine")
    args = p.parse_args()
    if args.game == ["all"]:
        from cule.games import list_games

        args.game = list_games()
    if len(args.game) == 1:
        one_game(args.game[0], args.seconds, args.envs or 64)
    else:
        survey(args.game, args.envs or 8, args.steps, args.repeats)


if __name__ == "__main__":
    main()
