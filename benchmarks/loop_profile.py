"""A PyTorch loop stepping 4,096 Pong envs on the GPU (v5 settings, NextStep autoreset) with a
Nature-CNN policy sampling the actions, for a minute, under torch's sync debug mode: any
operation that makes the host wait for the GPU raises, so finishing shows the loop never waits.
Then torch.profiler over a few steps: the CUDA runtime calls per step (no cudaStreamSynchronize
or blocking copy among them). Results in <out>/loop_profile-<game>-<date>.json and the profiler
table beside it (.txt), a new pair for each run (-2, -3, ... after the date).

    python benchmarks/loop_profile.py --seconds 60 --out benchmarks/results
"""
from __future__ import annotations

import argparse
import datetime
import json
import time

import torch
from torch import nn

import cule
from _results import new_result_path   # benchmarks/_results.py


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="pong")
    p.add_argument("--num-envs", type=int, default=4096)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()

    env = cule.atari_vector_env(args.game, args.num_envs, device="cuda", repeat_action_probability=0.25)
    policy = nn.Sequential(nn.Conv2d(4, 32, 8, 4), nn.ReLU(), nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
                           nn.Conv2d(64, 64, 3, 1), nn.ReLU(), nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(),
                           nn.Linear(512, int(env.single_action_space.n))).cuda()
    obs, _ = env.reset(seed=0)

    def step(obs):
        with torch.no_grad():
            logits = policy(obs.float() / 255.0)
        actions = torch.distributions.Categorical(logits=logits, validate_args=False).sample()
        return env.step(actions)

    for _ in range(3):   # compile and warm up outside the checks
        obs = step(obs)[0]
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        obs = step(obs)[0]
        steps += 1
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start

    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            obs = step(obs)[0]
        torch.cuda.synchronize()
    runtime = {e.key: e.count for e in prof.key_averages() if e.key.startswith("cuda")}
    table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=25)

    result = dict(game=args.game, num_envs=args.num_envs, device=torch.cuda.get_device_name(), torch=torch.__version__,
                  cule=cule.__version__, date=datetime.date.today().isoformat(), seconds=round(seconds, 1),
                  steps=steps, steps_per_second=round(steps / seconds, 2),
                  raw_frames_per_second=round(steps * args.num_envs * 4 / seconds),
                  checked_with="torch.cuda.set_sync_debug_mode('error'): raises at any host wait",
                  cuda_runtime_calls_in_5_steps=runtime)
    path = new_result_path(f"loop_profile-{args.game}-{result['date']}", folder=args.out, companions=[".txt"])
    path.write_text(json.dumps(result, indent=2) + "\n")
    path.with_suffix(".txt").write_text(table)
    print(json.dumps(result, indent=2))
    print(table)


if __name__ == "__main__":
    main()
