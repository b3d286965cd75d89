"""A2C with V-trace off-policy correction (Espeholt et al., 2018) and the multi-batch strategy of
the CuLE paper (Dalton et al., 2020, "Accelerating Reinforcement Learning through GPU Atari
Emulation": Fig. 7 and Table 3).

The strategy, as the paper specifies it: the envs form num_batches equal groups; all envs
advance together, one step at a time, with the current policy, and every steps_per_update steps
(SPU) the network is updated once, on the next group in turn, from that group's last num_steps
steps (N-steps) and its current observations to bootstrap from. Only the newest of those steps
come from the current policy, so V-trace corrects the others with the ratio of the current
policy's probability of each stored action to the behaviour policy's, stored when the action was
drawn (rho-bar = c-bar = 1 by default). Every configuration of the paper's Table 3 has
num_batches x SPU = N-steps, so that each transition is learnt from exactly once; num_batches 1
with SPU = N-steps is plain A2C, all ratios 1. The defaults are Table 3's fastest one-GPU
configuration: 1,200 envs, 20 groups, N-steps 20, SPU 1 (one update of 60 envs x 20 steps per
step of all envs). Where the paper is silent the defaults are the NVlabs CuLE examples':
RMSprop at 6.5e-4, entropy 0.01, gradient norm 0.5, rewards clipped, discount 0.99; but the
value loss weighs 1.0, not 0.5: with 0.5 this configuration had not learnt Pong in 12.6 million
frames, with 1.0 it reached 18 at 28.0 million (the CPU backend, examples/README.md). On a CPU
(--device cpu, or no GPU) the envs are 16 in 2 groups, N-steps 10, SPU 5, value loss 0.5, 10
million frames: they took Breakout to 21.6 in 2 million frames on 2 cores (examples/README.md).
--help gives both.

Rollout storage is a ring of the last N-steps steps of every env, on the env's device.

    # one GPU, until the mean evaluation score reaches 18
    python examples/a2c_vtrace.py --game Pong --target-score 18
    # K GPUs of one machine: one process and one CuleEnv of --num-envs envs per GPU, DDP over NCCL
    torchrun --standalone --nproc_per_node=K examples/a2c_vtrace.py --game Pong
    # the CuLE paper's protocol (no sticky actions in training or evaluation), cut at 5 minutes
    python examples/a2c_vtrace.py --game Pong --repeat-action-probability 0 --eval-repeat-action-probability 0 \\
        --target-score 18 --max-train-seconds 300
    # the GPU configuration without a GPU: the CUDA backend's kernels run on the host, slowly
    python examples/a2c_vtrace.py --device cpu --backend cuda --num-envs 20 --total-frames 2000 --eval-envs 0
    # plain A2C (single batch, on-policy): the paper's Table 3 baseline
    python examples/a2c_vtrace.py --num-batches 1 --num-steps 5 --steps-per-update 5
    # CPU smoke run, under a minute on 2 cores (torchrun with --device cpu uses gloo)
    python examples/a2c_vtrace.py --device cpu --num-envs 8 --num-batches 2 --num-steps 4 --steps-per-update 2 \\
        --total-frames 4096 --log-every 1024 --eval-envs 2 --eval-max-frames 1000
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch.distributions import Categorical

import common
from common import RunArgs
from cule.profiling import PhaseTimer


@dataclass
class Args(RunArgs):
    num_envs: int = 1200
    """training environments per process (per GPU under torchrun); a multiple of num_batches"""
    num_steps: int = 20
    """N-steps: the steps of a group that one update learns from"""
    num_batches: int = 20
    """groups of envs, updated in turn"""
    steps_per_update: int = 1
    """SPU: steps of all envs between two updates"""
    learning_rate: float = 6.5e-4
    """RMSprop's learning rate"""
    gamma: float = 0.99
    """discount factor"""
    rho_bar: float = 1.0
    """V-trace's clip of the importance weights in the temporal differences"""
    c_bar: float = 1.0
    """V-trace's clip of the importance weights in the traces"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 1.0
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""

    # 16 envs in 2 groups, updates of 8 envs x 10 steps every 5 steps: the batch of plain A2C
    # (16 envs x 5 steps, Mnih et al., 2016), with V-trace correcting the older half.
    CPU_DEFAULTS = {**RunArgs.CPU_DEFAULTS, "num_envs": 16, "num_batches": 2, "num_steps": 10,
                    "steps_per_update": 5, "vf_coef": 0.5, "total_frames": 10_000_000}


def vtrace(log_rhos: torch.Tensor, rewards: torch.Tensor, dones: torch.Tensor, values: torch.Tensor, gamma: float,
           rho_bar: float = 1.0, c_bar: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """V-trace targets v_s and policy-gradient advantages (Espeholt et al., 2018, eq. 1 and
    section 4.2) over time-major (T, M) tensors. log_rhos: log pi(a_t|x_t) - log mu(a_t|x_t);
    values: (T + 1, M), V(x_0) .. V(x_T), the last one to bootstrap from; dones[t]: no bootstrap
    from x_{t+1} into step t."""
    rhos = log_rhos.exp()
    clipped_rhos, cs = rhos.clamp(max=rho_bar), rhos.clamp(max=c_bar)
    discounts = gamma * (~dones).float()
    deltas = clipped_rhos * (rewards + discounts * values[1:] - values[:-1])
    corrections = torch.zeros_like(values)   # v_s - V(x_s), 0 at s = T
    for t in reversed(range(len(rewards))):
        corrections[t] = deltas[t] + discounts[t] * cs[t] * corrections[t + 1]
    targets = values + corrections
    advantages = clipped_rhos * (rewards + discounts * targets[1:] - values[:-1])
    return targets[:-1], advantages


class Segment(NamedTuple):
    """A group's last num_steps steps, (T, G, ...) oldest first, and the observations after them
    (G, ...) to bootstrap from: what an update learns from."""
    obs: torch.Tensor
    actions: torch.Tensor
    behaviour_logprobs: torch.Tensor
    rewards: torch.Tensor
    dones: torch.Tensor
    next_obs: torch.Tensor


def make_optimizer(model: torch.nn.Module, args: Args) -> torch.optim.Optimizer:
    return torch.optim.RMSprop(model.parameters(), lr=args.learning_rate, alpha=0.99, eps=1e-5)


def update(model: torch.nn.Module, optimizer: torch.optim.Optimizer, segment: Segment, args: Args,
           timer: PhaseTimer) -> dict[str, torch.Tensor]:
    """One gradient step on a segment, V-trace correcting the steps the current policy did not
    take; returns the loss and its terms. With K processes, each on its own group, DDP averages
    the gradients of the equal-sized means: as one process with K times the envs
    (tests/test_examples.py)."""
    steps, group_size = segment.actions.shape
    with timer("forward"):
        logits, values = model(torch.cat([segment.obs.flatten(0, 1), segment.next_obs]))
        values = values.view(steps + 1, group_size)
        pi = Categorical(logits=logits[:-group_size].view(steps, group_size, -1), validate_args=False)
        logprobs = pi.log_prob(segment.actions)
        log_rhos = logprobs.detach() - segment.behaviour_logprobs
        targets, advantages = vtrace(log_rhos, segment.rewards, segment.dones, values.detach(), args.gamma,
                                     args.rho_bar, args.c_bar)
        policy_loss = -(advantages * logprobs).mean()
        value_loss = 0.5 * ((targets - values[:-1]) ** 2).mean()
        entropy = pi.entropy().mean()
        loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
    optimizer.zero_grad()
    with timer("backward"):   # with several processes, DDP averages the gradients here
        loss.backward()
    with timer("optimizer"):
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        optimizer.step()
    return dict(loss=loss, policy_loss=policy_loss, value_loss=value_loss, entropy=entropy, rho=log_rhos.exp().mean())


def main(argv: list[str] | None = None) -> dict:
    args = common.parse_args(Args, argv)
    if args.num_envs % args.num_batches:
        raise ValueError(f"--num-envs ({args.num_envs}) must be a multiple of --num-batches ({args.num_batches})")
    dist, timer, env = common.start(args)
    device = dist.device
    agent = common.ActorCritic(env.num_actions, args.bf16).to(device)
    model = common.training_model(agent, args, dist)
    optimizer = make_optimizer(model, args)
    run = common.Run("a2c_vtrace", args, dist, agent, optimizer, env, timer,
                     loss_names=("policy_loss", "value_loss", "entropy", "rho"))

    # A ring of the last num_steps steps of every env: slot step % num_steps holds step `step`.
    steps, n = args.num_steps, args.num_envs
    obs = torch.zeros((steps, *env.obs.shape), dtype=torch.uint8, device=device)
    actions = torch.zeros((steps, n), dtype=torch.long, device=device)
    behaviour_logprobs = torch.zeros((steps, n), device=device)
    rewards = torch.zeros((steps, n), device=device)
    dones = torch.zeros((steps, n), dtype=torch.bool, device=device)
    ring = torch.arange(steps, device=device)
    group_size = n // args.num_batches
    group = 0

    for step in itertools.count():
        slot = step % steps
        obs[slot] = env.obs
        with torch.no_grad(), timer("inference"):
            pi = Categorical(logits=model(env.obs)[0], validate_args=False)
            actions[slot] = pi.sample()
            behaviour_logprobs[slot] = pi.log_prob(actions[slot])
        rewards[slot], dones[slot] = env.step(actions[slot])

        # Every steps_per_update steps, once the ring is full: one update on the next group.
        if (step + 1) % args.steps_per_update == 0 and step + 1 >= steps:
            envs = slice(group * group_size, (group + 1) * group_size)
            group = (group + 1) % args.num_batches
            window = (ring + step + 1) % steps   # the ring's slots, oldest step first
            segment = Segment(obs[window, envs], actions[window, envs], behaviour_logprobs[window, envs],
                              rewards[window, envs], dones[window, envs], env.obs[envs])
            run.add_losses(**update(model, optimizer, segment, args, timer))

        if run.end_iteration(agent.sample_actions):
            break

    return run.finish()


if __name__ == "__main__":
    main()
