"""A soak of the CPU backend: every game cule runs, many envs each, ale-py's v5 settings (frameskip
4, sticky actions 0.25, 30 no-op starts, full episodes up to 108,000 frames) with random actions and
autoresets, invariants checked at every step. Not a timed test: a run of 1e8 frames or more says
whether anything breaks over long play.

Checked as it goes, for every env of every game:
- frame numbers never go back, and grow by the frameskip at every step that neither starts nor
  ends an episode (one that ends it stops at the frame that did); the frames stepped since an
  episode's start (its no-op starts not counted, as AtariVectorEnv counts them) stay within the
  frame cap, and an episode not terminated is truncated exactly when they reach it;
- lives are never negative;
- every `--check-every` steps, every state passes cule's state checks (bindings/
  state_check.h);
- determinism: a second env of `--replicas` envs, seeded as the first envs of the main one and
  given their actions, must hold the same state bytes at every check.
Each game runs in a child process, so a crash is recorded (its exit status) and the soak goes on.

    python benchmarks/soak.py --frames 1e8

writes benchmarks/results/soak-<date>.json: frames run, crashes, broken invariants by game.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._results import new_result_path  # noqa: E402
from benchmarks.cpu_fps import machine_facts  # noqa: E402

V5 = dict(frameskip=4, repeat_action_probability=0.25, noop_max=30, grayscale=True, img_height=84, img_width=84,
          stack_num=4, maxpool=True, max_num_frames_per_episode=108_000)


def soak_game(game: str, num_envs: int, steps: int, check_every: int, replicas: int, seed: int,
              frame_cap: int) -> dict:
    """One game's soak in this process; the broken invariants (the first few of each kind) and counts."""
    import numpy as np
    import torch

    from cule import CuleEnv, _core

    torch.set_num_threads(1)
    settings = V5 | {"max_num_frames_per_episode": frame_cap}
    env = CuleEnv(game, num_envs=num_envs, device="cpu", num_threads=1, **settings)
    replica = CuleEnv(game, num_envs=replicas, device="cpu", num_threads=1, **settings)
    seeds = [seed * 1_000_003 + k for k in range(num_envs)]
    env.reset(seed=seeds)
    replica.reset(seed=seeds[:replicas])
    rng = np.random.default_rng(seed)
    broken: dict[str, list[str]] = {}

    def fail(kind: str, message: str) -> None:
        found = broken.setdefault(kind, [])
        if len(found) < 5:
            found.append(message)

    frames = episodes = truncations = 0
    info = env._info()
    last_frame = info["frame_number"].numpy().copy()
    stepped = np.zeros(num_envs, np.int64)   # frames stepped in the episode under way
    ended = np.zeros(num_envs, bool)   # NextStep: an env whose episode ended starts a new one next step
    for step in range(1, steps + 1):
        actions = torch.from_numpy(rng.integers(0, env.single_action_space.n, num_envs))
        _, _, terminated, truncated, info = env.step(actions)
        replica.step(actions[:replicas])
        frame = info["frame_number"].numpy()
        grew = frame - last_frame
        going_on = ~ended
        over = (terminated | truncated).numpy()
        skip = V5["frameskip"]
        wrong = going_on & np.where(over, (grew < 1) | (grew > skip), grew != skip)
        if (bad := np.flatnonzero(wrong | (grew < 0))).size:
            fail("frame_number", f"step {step}, env {bad[0]}: grew by {grew[bad[0]]}")
        stepped = np.where(going_on, stepped + grew, 0)
        if (bad := np.flatnonzero(stepped > frame_cap)).size:
            fail("frame_cap", f"step {step}, env {bad[0]}: {stepped[bad[0]]} frames into the episode")
        t = truncated.numpy()
        if (bad := np.flatnonzero(t != ((stepped >= frame_cap) & ~terminated.numpy()))).size:
            fail("truncation", f"step {step}, env {bad[0]}: truncated {t[bad[0]]} {stepped[bad[0]]} frames into "
                               f"the episode")
        if (bad := np.flatnonzero(info["lives"].numpy() < 0)).size:
            fail("lives", f"step {step}, env {bad[0]}: {info['lives'][bad[0]]}")
        frames += int(grew.clip(0).sum())
        episodes += int((terminated | truncated).sum())
        truncations += int(t.sum())
        ended = over
        last_frame = frame.copy()
        if step % check_every == 0 or step == steps:
            states = env.get_states().numpy()
            try:
                _core.check_states(env._spec, states, "states")
            except ValueError as e:
                fail("state_check", f"step {step}: {e}")
            again = replica.get_states().numpy()
            if (bad := np.flatnonzero((states[:replicas] != again).any(1))).size:
                fail("determinism", f"step {step}, env {bad[0]}: the replica's state differs")
    env.close()
    replica.close()
    return {"frames": frames, "steps": steps, "episodes": episodes, "truncations": truncations, "broken": broken}


def run_child(game: str, args) -> dict:
    """soak_game in a child process: a crash becomes a record, not the end of the soak."""
    command = [sys.executable, __file__, "--child", game, "--num-envs", str(args.num_envs), "--steps",
               str(args.steps), "--check-every", str(args.check_every), "--replicas", str(args.replicas),
               "--seed", str(args.seed), "--frame-cap", str(args.frame_cap)]
    start = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = round(time.time() - start, 1)
    if done.returncode != 0:
        print(f"{game}: exit status {done.returncode}\n{done.stderr[-2000:]}", flush=True)
        return {"game": game, "crashed": True, "exit_status": done.returncode, "stderr": done.stderr[-2000:],
                "seconds": seconds}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{game}: {result['frames']:,} frames, {result['episodes']} episodes, "
          f"{sum(map(len, result['broken'].values()))} broken, {seconds} s", flush=True)
    return {"game": game, "crashed": False, "seconds": seconds, **result}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=float, default=1e8, help="frames in total, over all games (default 1e8)")
    parser.add_argument("--games", nargs="*", help="default: every game cule runs")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--check-every", type=int, default=500, help="steps between state checks")
    parser.add_argument("--replicas", type=int, default=2, help="envs run again to check determinism")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frame-cap", type=int, default=V5["max_num_frames_per_episode"],
                        help="frames per episode at most (default ale-py's 108,000)")
    parser.add_argument("--steps", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(soak_game(args.child, args.num_envs, args.steps, args.check_every, args.replicas,
                                   args.seed, args.frame_cap)))
        return

    import torch

    import cule
    games = args.games or cule.list_games()
    args.steps = max(1, round(args.frames / (len(games) * args.num_envs * V5["frameskip"])))
    print(f"{len(games)} games x {args.num_envs} envs x {args.steps} steps, {args.jobs} at once", flush=True)
    facts = machine_facts()
    facts["versions"]["torch"] = torch.__version__
    path = new_result_path(f"soak-{facts['date']}")
    header = {
        "benchmark": "soak", "device": "cpu", "backend": "cpu", **facts,
        "settings": {**V5, "max_num_frames_per_episode": args.frame_cap, "num_envs": args.num_envs,
                     "steps": args.steps, "check_every": args.check_every, "replicas": args.replicas,
                     "seed": args.seed, "jobs": args.jobs},
        "games": len(games),
    }
    start = time.time()
    results: list[dict] = []

    def write(complete: bool) -> dict:
        """The results so far (after every game, so that a soak stopped early leaves its record)."""
        crashes = [r["game"] for r in results if r["crashed"]]
        broken = {r["game"]: r["broken"] for r in results if not r["crashed"] and r["broken"]}
        summary = {**header, "complete": complete, "games_run": len(results),
                   "frames": sum(r.get("frames", 0) for r in results), "seconds": round(time.time() - start, 1),
                   "crashes": crashes, "broken": broken, "results": sorted(results, key=lambda r: r["game"])}
        path.write_text(json.dumps(summary, indent=1) + "\n")
        return summary

    def one(game: str) -> None:
        results.append(run_child(game, args))
        write(False)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, games))
    summary = write(True)
    print(f"{summary['frames']:,} frames in {summary['seconds'] / 60:.1f} min: {len(summary['crashes'])} crashes, "
          f"{sum(len(v) for b in summary['broken'].values() for v in b.values())} broken invariants in "
          f"{len(summary['broken'])} games; {path}")

if __name__ == "__main__":
    main()
