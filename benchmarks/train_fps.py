"""The whole training loop's frames/s next to emulation alone.

For each env count: the training env (TrainingEnv's settings) stepped with random actions drawn
on its device, then each script (examples/ppo.py, a2c_vtrace.py) in each variant (extra flags,
such as "--bf16" or "--compile default"). A script runs in this process with its defaults for
the device (the GPU configuration on the CUDA backend, the CPU one on the CPU backend) but for
--num-envs (A2C's rounded down to a multiple of its groups), without evaluations, with a log
line per PPO iteration or per A2C ring of N-steps steps, for --warmup + --seconds of training
(or --frames); its log lines, and its checkpoints once a minute, are part of the loop
measured. The log intervals from the first log line past --warmup seconds (NVRTC, cuDNN's
choices, torch.compile), or the last interval, give the loop's frames/s and its time by phase,
as progress.csv has it (emulation, rendering, inference, forward, backward, optimizer; what no
phase covers is storage copies, Python and the log lines' synchronisations).

The JSON (device, versions, settings, one entry per configuration) is rewritten after each
configuration, so a run cut short keeps what it measured.

    python benchmarks/train_fps.py --device cuda --num-envs 1024 4096 16384 --seconds 20
    python benchmarks/train_fps.py --device cuda --num-envs 4096 --variants "" "--bf16" "--compile default"
    python benchmarks/train_fps.py --device cpu --num-envs 8 32 128 --seconds 60
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import importlib
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

import torch

import cule
from _results import new_result_path   # benchmarks/_results.py
from fps import machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import common   # noqa: E402  (examples/common.py)


def loop_fps(script: str, num_envs: int, variant: str, args: argparse.Namespace, logdir: Path) -> dict:
    """The script at `num_envs` envs: frames/s, updates/s and seconds by phase over the log
    intervals after the warm-up."""
    module = importlib.import_module(script)
    flags = ["--game", args.game, "--device", args.device, "--num-envs", str(num_envs), "--eval-envs", "0",
             *(["--backend", args.backend] if args.backend else []), *shlex.split(variant)]
    config = common.parse_args(module.Args, flags)
    if script == "a2c_vtrace":
        num_envs -= num_envs % config.num_batches
        flags[flags.index("--num-envs") + 1] = str(num_envs)
    frames_per_log = num_envs * 4 * config.num_steps
    with open(logdir / "output.txt", "w") as output, contextlib.redirect_stdout(output), \
            contextlib.redirect_stderr(output):   # its log lines and progress bar
        budget = (["--total-frames", str(args.frames)] if args.frames else
                  ["--total-frames", str(10 ** 12), "--max-train-seconds", str(args.warmup + args.seconds)])
        summary = module.main([*flags, *budget, "--log-every", str(frames_per_log), "--logdir", str(logdir)])
    with open(logdir / "progress.csv", newline="") as f:
        rows = [{k: float(v) if v else 0.0 for k, v in row.items()} for row in csv.DictReader(f)]
    rows.insert(0, dict.fromkeys(rows[0], 0.0))   # the start
    # From the first log line past the warm-up but the last (which is past it: the run stops there).
    start = next((i for i, row in enumerate(rows[:-1]) if row["train_seconds"] >= args.warmup), len(rows) - 2)
    base, last, measured = rows[start], rows[-1], rows[start + 1:]
    seconds = last["train_seconds"] - base["train_seconds"]
    phases = {p: round(sum(row[f"{p}_seconds"] for row in measured), 3) for p in common.PHASES}
    phases = {p: s for p, s in phases.items() if s > 0}
    return dict(script=script, num_envs=num_envs, variant=variant, frames=int(last["frames"] - base["frames"]),
                seconds=round(seconds, 2), fps=round((last["frames"] - base["frames"]) / seconds),
                updates_per_second=round((last["updates"] - base["updates"]) / seconds, 2),
                phase_seconds=phases, not_in_a_phase_seconds=round(seconds - sum(phases.values()), 3),
                warmup_seconds=round(base["train_seconds"], 2), log_intervals=len(measured),
                settings={k: v for k, v in summary["args"].items() if k not in common.RunArgs.RESUMABLE})


def emulation_fps(num_envs: int, args: argparse.Namespace) -> float:
    """The training env's settings (TrainingEnv: raw rewards, SameStep, sticky actions), random
    actions drawn on its device, for args.emulation_seconds after a warm-up of 20 steps."""
    env = cule.atari_vector_env(args.game, num_envs, device=args.device, backend=args.backend,
                                reward_clipping=False, repeat_action_probability=0.25, autoreset_mode="SameStep")
    env.reset(seed=0)
    n = int(env.single_action_space.n)
    device = env.device

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    for _ in range(20):
        env.step(torch.randint(0, n, (num_envs,), device=device))
    sync()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.emulation_seconds:
        for _ in range(10):
            env.step(torch.randint(0, n, (num_envs,), device=device))
        steps += 10
        sync()
    return steps * num_envs * env.frameskip / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="Pong")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--backend", default=None, help="the envs' engine (default: the device's own)")
    p.add_argument("--scripts", nargs="+", default=["ppo", "a2c_vtrace"], choices=["ppo", "a2c_vtrace"])
    p.add_argument("--num-envs", nargs="+", type=int, default=[1024, 4096, 16384])
    p.add_argument("--variants", nargs="+", default=[""],
                   help='extra flags of the scripts, one string per variant ("": the defaults)')
    p.add_argument("--seconds", type=float, default=20.0, help="training seconds measured per configuration")
    p.add_argument("--frames", type=int, help="instead of --seconds, train each configuration for this many frames "
                                              "(a fixed amount of work, whatever the machine's load: the tests)")
    p.add_argument("--warmup", type=float, default=5.0, help="training seconds left out first")
    p.add_argument("--emulation-seconds", type=float, default=3.0)
    p.add_argument("--note", default="", help="what else ran on the machine meanwhile")
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()
    for n in args.num_envs:
        if n < 1:
            p.error(f"--num-envs {n}: env counts are positive")

    result = dict(machine(), game=args.game, device=common.device_name(torch.device(args.device)),
                  backend=args.backend or torch.device(args.device).type, note=args.note,
                  frames="raw emulated frames per second (frameskip 4 x steps x envs), all phases of the loop",
                  how=f"benchmarks/train_fps.py {' '.join(shlex.quote(a) for a in sys.argv[1:])}",
                  reference="CuLE paper (Dalton et al., 2020), Table 6, Pong, 1,024 envs on one GPU (its System I): "
                            "A2C 51K, PPO 36K, DQN 26.5K raw frames/s",
                  results=[], emulation=[])
    path = new_result_path(f"train_fps-{args.game.lower()}-{result['date']}", folder=args.out)

    def save():
        path.write_text(json.dumps(result, indent=2) + "\n")
    for num_envs in args.num_envs:
        fps = emulation_fps(num_envs, args)
        result["emulation"].append(dict(num_envs=num_envs, fps=round(fps)))
        save()
        print(f"emulation alone, {num_envs} envs: {fps:,.0f} frames/s", flush=True)
        for script in args.scripts:
            for variant in args.variants:
                with tempfile.TemporaryDirectory() as logdir:
                    entry = loop_fps(script, num_envs, variant, args, Path(logdir))
                result["results"].append(entry)
                save()
                shares = "  ".join(f"{p} {100 * s / entry['seconds']:.0f}%" for p, s in entry["phase_seconds"].items())
                print(f"{script} {entry['num_envs']} envs {variant or '(defaults)'}: {entry['fps']:,.0f} frames/s, "
                      f"{entry['updates_per_second']} updates/s over {entry['seconds']} s  [{shares}]", flush=True)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
