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
    # CPU smoke run (torchrun with --device cpu uses gloo)
    python examples/ppo.py --device cpu --num-envs 8 --num-steps 16 --total-frames 20000 --eval-envs 2

The defaults are starting points for one GPU, not tuned: a GPU step takes about 0.2 s for any
number of envs up to a few thousand, so many envs (4,096) and short rollouts (8 steps) give both
throughput and several updates per second of emulation; minibatches of 4,096 samples, 4 epochs,
CleanRL's learning rate and coefficients otherwise.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch.distributions import Categorical

import common
from common import RunArgs


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


def main(argv: list[str] | None = None) -> dict:
    args = common.parse_args(Args, argv)
    dist, timer, env = common.start(args)
    device = dist.device
    agent = common.ActorCritic(env.num_actions).to(device)
    model = common.wrap_ddp(agent, dist)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
    run = common.Run("ppo", args, dist, agent, env, timer,
                     loss_names=("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac"))

    steps, n = args.num_steps, args.num_envs
    obs = torch.zeros((steps, *env.obs.shape), dtype=torch.uint8, device=device)
    actions = torch.zeros((steps, n), dtype=torch.long, device=device)
    logprobs = torch.zeros((steps, n), device=device)
    rewards = torch.zeros((steps, n), device=device)
    dones = torch.zeros((steps, n), dtype=torch.bool, device=device)
    values = torch.zeros((steps, n), device=device)
    batch_size = steps * n
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = math.ceil(args.total_frames / (steps * env.frames_per_step))

    for iteration in range(num_iterations):
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

        b_obs, b_actions, b_logprobs = obs.flatten(0, 1), actions.flatten(), logprobs.flatten()
        b_advantages, b_returns, b_values = advantages.flatten(), returns.flatten(), values.flatten()
        for _ in range(args.update_epochs):
            order = torch.randperm(batch_size, device=device)
            for start in range(0, batch_size, minibatch_size):
                mb = order[start:start + minibatch_size]
                with timer("forward"):
                    logits, new_values = model(b_obs[mb])
                    pi = Categorical(logits=logits, validate_args=False)
                    log_ratio = pi.log_prob(b_actions[mb]) - b_logprobs[mb]
                    ratio = log_ratio.exp()
                    with torch.no_grad():   # http://joschu.net/blog/kl-approx.html
                        approx_kl = ((ratio - 1) - log_ratio).mean()
                        clipfrac = ((ratio - 1.0).abs() > args.clip_coef).float().mean()

                    mb_advantages = b_advantages[mb]
                    if args.norm_adv:
                        mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                    policy_loss = torch.max(-mb_advantages * ratio,
                                            -mb_advantages * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()

                    if args.clip_vloss:
                        clipped = b_values[mb] + (new_values - b_values[mb]).clamp(-args.clip_coef, args.clip_coef)
                        value_loss = 0.5 * torch.max((new_values - b_returns[mb]) ** 2,
                                                     (clipped - b_returns[mb]) ** 2).mean()
                    else:
                        value_loss = 0.5 * ((new_values - b_returns[mb]) ** 2).mean()
                    entropy = pi.entropy().mean()
                    loss = policy_loss - args.ent_coef * entropy + args.vf_coef * value_loss

                optimizer.zero_grad()
                with timer("backward"):   # with several processes, DDP averages the gradients here
                    loss.backward()
                with timer("optimizer"):
                    torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                    optimizer.step()
                run.add_losses(loss, policy_loss=policy_loss, value_loss=value_loss, entropy=entropy,
                               approx_kl=approx_kl, clipfrac=clipfrac)

        if run.end_iteration(agent.sample_actions):
            break

    return run.finish()


if __name__ == "__main__":
    main()
