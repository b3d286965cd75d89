"""PPO (Schulman et al., 2017) on cule, after CleanRL's ppo_atari: the clipped objective, GAE,
optional value clipping, minibatches and epochs, per-minibatch advantage normalisation, a linearly
annealed learning rate, an entropy bonus and a gradient-norm clip.

Every env advances num_steps steps with the current policy; the rollout stays on the env's
device (observations, actions, log-probabilities, values, rewards, done flags) and so do the
advantages; then update_epochs passes over it in num_minibatches shuffled minibatches.

    # one GPU, until the mean evaluation score reaches 18
    python examples/ppo.py --game Pong --target-score 18
    # K GPUs of one machine: one process and one CuleEnv of --num-envs envs per GPU, DDP over NCCL
    torchrun --standalone --nproc_per_node=K examples/ppo.py --game Pong
    # the CuLE paper's protocol (no sticky actions in training or evaluation), cut at 3 minutes
    python examples/ppo.py --game Pong --repeat-action-probability 0 --eval-repeat-action-probability 0 \\
        --target-score 18 --max-train-seconds 180
    # the GPU configuration without a GPU: the CUDA backend's kernels run on the host, slowly
    python examples/ppo.py --device cpu --backend cuda --num-envs 16 --total-frames 2000 --eval-envs 0
    # CPU smoke run, under a minute on 2 cores (torchrun with --device cpu uses gloo)
    python examples/ppo.py --device cpu --num-envs 8 --num-steps 16 --total-frames 4096 --log-every 1024 \\
        --eval-envs 2 --eval-max-frames 1000

The defaults with the CUDA backend (the GPU configuration) are starting points, not tuned yet: a
GPU step of the emulator costs about as much for 16,384 envs as for 4,096 (46 ms and 36 ms on an
H100, emulation alone: benchmarks/results/fps-pong-2026-11-26-h100.json), so many envs (4,096)
and short rollouts (8 steps) give both throughput and several updates per second; minibatches of
4,096 samples, 4 epochs, CleanRL's learning rate and coefficients otherwise. On the CPU backend
(--device cpu, or no GPU) they are CleanRL's ppo_atari: 8 envs x 128 steps in 4 minibatches, 4
epochs, 40 million frames (its 10 million agent steps, the span the learning rate anneals over);
they took Breakout to 16.6 in 2 million frames on 2 cores, and Pong to 15.9 with sticky actions
(20.5 without) in 40 million (examples/README.md). --help gives both. --bf16 and --compile may be
faster, or slower: benchmarks/train_fps.py times the loop with them (train_step.py the network
alone, on a CPU).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch
import torch.distributed
from torch.distributions import Categorical

import common
from common import RunArgs
from cule.profiling import PhaseTimer


@dataclass
class Args(RunArgs):
    num_envs: int = 4096   # (RunArgs fields, with this script's defaults)
    num_steps: int = 8
    """steps of every env per rollout"""
    num_minibatches: int = 8
    """minibatches per epoch over the rollout"""
    update_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 2.5e-4
    """Adam's learning rate at the start"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to 0 over total_frames"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of the generalised advantage estimate"""
    norm_adv: bool = True
    """normalise the advantages of each minibatch"""
    clip_coef: float = 0.1
    """the surrogate's clipping range"""
    clip_vloss: bool = True
    """clip the value loss as the surrogate is clipped"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""

    # CleanRL's ppo_atari: 8 envs x 128 steps, 4 minibatches, the learning rate annealed over 10
    # million agent steps of 4 frames (examples/README.md, Results: over 10 million frames it
    # reaches 0 before Pong is learned).
    CPU_DEFAULTS = {**RunArgs.CPU_DEFAULTS, "num_envs": 8, "num_steps": 128, "num_minibatches": 4,
                    "total_frames": 40_000_000}


def gae(rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor, last_value: torch.Tensor,
        gamma: float, gae_lambda: float) -> torch.Tensor:
    """Generalised advantage estimates over time-major (T, N) tensors; dones[t]: no bootstrap from
    step t + 1 into step t."""
    next_values = torch.cat([values[1:], last_value[None]])
    not_done = (~dones).float()
    deltas = rewards + gamma * next_values * not_done - values
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(last_value)
    for t in reversed(range(len(rewards))):
        running = deltas[t] + gamma * gae_lambda * not_done[t] * running
        advantages[t] = running
    return advantages


class PPOLoss(NamedTuple):
    """One minibatch's loss and the terms logged with it (approx_kl and clipfrac: no gradient)."""
    loss: torch.Tensor
    policy_loss: torch.Tensor
    value_loss: torch.Tensor
    entropy: torch.Tensor
    approx_kl: torch.Tensor
    clipfrac: torch.Tensor


def ppo_loss(new_logprobs: torch.Tensor, old_logprobs: torch.Tensor, advantages: torch.Tensor,
             new_values: torch.Tensor, old_values: torch.Tensor, returns: torch.Tensor, entropies: torch.Tensor, *,
             clip_coef: float, clip_vloss: bool, norm_adv: bool, ent_coef: float, vf_coef: float) -> PPOLoss:
    """PPO's loss over one minibatch (Schulman et al., 2017): the clipped surrogate of eq. 7,
    negated, -mean(min(ratio A, clip(ratio, 1 - clip_coef, 1 + clip_coef) A)); the value loss
    0.5 mean((V - R)^2), or with clip_vloss the larger of that and the loss of the old value moved
    by at most clip_coef towards the new one; and the entropy bonus. The advantages are normalised
    over the minibatch first with norm_adv. new_logprobs: log pi(a|x) under the network being
    trained; old_logprobs, old_values: the rollout's; entropies: the policy's, per sample."""
    log_ratio = new_logprobs - old_logprobs
    ratio = log_ratio.exp()
    with torch.no_grad():   # http://joschu.net/blog/kl-approx.html
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clipfrac = ((ratio - 1.0).abs() > clip_coef).float().mean()

    if norm_adv:
        advantages = normalise(advantages)
    policy_loss = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()

    if clip_vloss:
        clipped = old_values + (new_values - old_values).clamp(-clip_coef, clip_coef)
        value_loss = 0.5 * torch.max((new_values - returns) ** 2, (clipped - returns) ** 2).mean()
    else:
        value_loss = 0.5 * ((new_values - returns) ** 2).mean()
    entropy = entropies.mean()
    loss = policy_loss - ent_coef * entropy + vf_coef * value_loss
    return PPOLoss(loss, policy_loss, value_loss, entropy, approx_kl, clipfrac)


def normalise(advantages: torch.Tensor) -> torch.Tensor:
    """(A - mean) / (std + 1e-8). Under torchrun the mean and the standard deviation are those of
    every process's advantages together, so that K processes normalise as one process with all
    their samples."""
    if not torch.distributed.is_initialized():
        return (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    a = advantages.double()
    stats = torch.stack([a.new_tensor(a.numel()), a.sum(), (a * a).sum()])
    torch.distributed.all_reduce(stats)
    count, total, squares = stats
    mean = total / count
    std = ((squares - count * mean * mean) / (count - 1)).sqrt()
    return ((advantages - mean) / (std + 1e-8)).to(advantages.dtype)


class Batch(NamedTuple):
    """A rollout flattened over its steps and envs: what an update learns from."""
    obs: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor
    values: torch.Tensor


def make_optimizer(model: torch.nn.Module, args: Args) -> torch.optim.Optimizer:
    return torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)


def update(model: torch.nn.Module, optimizer: torch.optim.Optimizer, batch: Batch, args: Args,
           timer: PhaseTimer) -> list[PPOLoss]:
    """update_epochs passes over the batch in num_minibatches shuffled minibatches, a gradient
    step each; returns each minibatch's loss terms. With K processes each learns from its own
    batch, DistributedDataParallel averages the gradients and normalise() the advantages over
    all of them: as one process with K times the envs (tests/test_examples.py)."""
    size = len(batch.actions)
    minibatch_size = size // args.num_minibatches
    losses = []
    for _ in range(args.update_epochs):
        order = torch.randperm(size, device=batch.actions.device)
        for start in range(0, size, minibatch_size):
            mb = order[start:start + minibatch_size]
            with timer("forward"):
                logits, new_values = model(batch.obs[mb])
                pi = Categorical(logits=logits, validate_args=False)
                terms = ppo_loss(pi.log_prob(batch.actions[mb]), batch.logprobs[mb], batch.advantages[mb], new_values,
                                 batch.values[mb], batch.returns[mb], pi.entropy(), clip_coef=args.clip_coef,
                                 clip_vloss=args.clip_vloss, norm_adv=args.norm_adv, ent_coef=args.ent_coef,
                                 vf_coef=args.vf_coef)
            optimizer.zero_grad()
            with timer("backward"):   # with several processes, DDP averages the gradients here
                terms.loss.backward()
            with timer("optimizer"):
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
            losses.append(terms)
    return losses


def main(argv: list[str] | None = None) -> dict:
    args = common.parse_args(Args, argv)
    # Equal minibatches: a short last one could hold one sample, whose advantages' std is NaN.
    if (args.num_envs * args.num_steps) % args.num_minibatches:
        raise ValueError(f"--num-minibatches ({args.num_minibatches}) must divide --num-envs x --num-steps "
                         f"({args.num_envs} x {args.num_steps})")
    dist, timer, env = common.start(args)
    device = dist.device
    agent = common.ActorCritic(env.num_actions, args.bf16).to(device)
    model = common.training_model(agent, args, dist)
    optimizer = make_optimizer(model, args)
    run = common.Run("ppo", args, dist, agent, optimizer, env, timer,
                     loss_names=("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac"))

    steps, n = args.num_steps, args.num_envs
    obs = torch.zeros((steps, *env.obs.shape), dtype=torch.uint8, device=device)
    actions = torch.zeros((steps, n), dtype=torch.long, device=device)
    logprobs = torch.zeros((steps, n), device=device)
    rewards = torch.zeros((steps, n), device=device)
    dones = torch.zeros((steps, n), dtype=torch.bool, device=device)
    values = torch.zeros((steps, n), device=device)
    frames_per_iteration = steps * env.frames_per_step
    num_iterations = math.ceil(args.total_frames / frames_per_iteration)

    for iteration in range(env.frames // frames_per_iteration, num_iterations):   # a resumed run goes on
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - iteration / num_iterations)

        # Rollout: the sampled actions go straight from the network to the env, on the device.
        for t in range(steps):
            obs[t] = env.obs
            with torch.no_grad(), timer("inference"):
                logits, values[t] = model(env.obs)
                pi = Categorical(logits=logits, validate_args=False)
                actions[t] = pi.sample()
                logprobs[t] = pi.log_prob(actions[t])
            rewards[t], dones[t] = env.step(actions[t])

        with torch.no_grad(), timer("forward"):
            advantages = gae(rewards, values, dones, model(env.obs)[1], args.gamma, args.gae_lambda)
            returns = advantages + values

        batch = Batch(obs.flatten(0, 1), actions.flatten(), logprobs.flatten(), advantages.flatten(),
                      returns.flatten(), values.flatten())
        for terms in update(model, optimizer, batch, args, timer):
            run.add_losses(**terms._asdict())

        if run.end_iteration(agent.sample_actions):
            break

    return run.finish()


if __name__ == "__main__":
    main()
