"""The training examples' network (examples/common.py: the Nature CNN with policy and value heads)
timed on this machine in three forms, interleaved round by round so that a changing load affects
them alike: NCHW float32 (torch's default layout), channels-last float32 (the examples' layout),
and channels-last under bfloat16 autocast (their --bf16). Per form: one PPO minibatch of 256
(forward with a stand-in loss, backward, Adam step) and one rollout inference of 8 observations,
the CPU defaults' sizes. Medians in benchmarks/results/train_step-<date>.json (-2, -3, ... for
later runs the same day).

    python benchmarks/train_step.py --rounds 10 --note "alone"
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch

from _results import new_result_path   # benchmarks/_results.py
from fps import machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import common   # noqa: E402  (examples/common.py)

FORMS = ("nchw-fp32", "channels-last-fp32", "channels-last-bf16")


def make(form: str, num_actions: int) -> tuple[torch.nn.Module, callable]:
    """The network of `form` from seed 0, and its forward: observations -> (logits, values)."""
    torch.manual_seed(0)
    agent = common.ActorCritic(num_actions, bf16=form.endswith("bf16"))
    if form != "nchw-fp32":
        return agent, agent
    agent.trunk.net.to(memory_format=torch.contiguous_format)

    def nchw(obs):
        features = agent.trunk.net(obs.float() / 255.0)
        return agent.policy(features), agent.value(features).squeeze(-1)
    return agent, nchw


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=10, help="rounds; each times every form once")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--rollout-envs", type=int, default=8)
    p.add_argument("--note", default="", help="what else ran on the machine meanwhile")
    args = p.parse_args()

    num_actions = 6
    obs = torch.randint(0, 256, (args.minibatch, 4, 84, 84), dtype=torch.uint8)
    actions = torch.randint(num_actions, (args.minibatch,))
    rollout_obs = obs[:args.rollout_envs].clone()
    nets = {form: make(form, num_actions) for form in FORMS}
    optimizers = {form: torch.optim.Adam(nets[form][0].parameters(), lr=2.5e-4, eps=1e-5) for form in FORMS}
    times = {form: {"forward": [], "backward": [], "optimizer": [], "inference": []} for form in FORMS}

    for round_ in range(args.rounds + 1):   # round 0 warms up (oneDNN builds its kernels)
        for form in FORMS:
            _, forward = nets[form]
            t0 = time.perf_counter()
            logits, values = forward(obs)
            loss = torch.nn.functional.cross_entropy(logits, actions) + values.pow(2).mean()
            t1 = time.perf_counter()
            optimizers[form].zero_grad()
            loss.backward()
            t2 = time.perf_counter()
            optimizers[form].step()
            t3 = time.perf_counter()
            with torch.no_grad():
                forward(rollout_obs)
            t4 = time.perf_counter()
            if round_:
                for phase, seconds in zip(times[form], (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                    times[form][phase].append(seconds)

    medians = {form: {phase: statistics.median(s) * 1e3 for phase, s in phases.items()}
               for form, phases in times.items()}
    for form in FORMS:
        m = medians[form]
        m["minibatch"] = m["forward"] + m["backward"] + m["optimizer"]
    base = medians["nchw-fp32"]
    result = dict(machine(), torch_threads=torch.get_num_threads(), rounds=args.rounds, minibatch=args.minibatch,
                  rollout_envs=args.rollout_envs, note=args.note, median_ms=medians,
                  speedup_vs_nchw_fp32={form: {k: base[k] / medians[form][k] for k in ("minibatch", "inference")}
                                        for form in FORMS})
    path = new_result_path(f"train_step-{result['date']}")
    path.write_text(json.dumps(result, indent=2) + "\n")
    for form in FORMS:
        m = medians[form]
        print(f"{form:20s} minibatch {m['minibatch']:7.1f} ms (forward {m['forward']:.1f}, backward "
              f"{m['backward']:.1f}, Adam {m['optimizer']:.1f})  inference {m['inference']:.2f} ms")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
