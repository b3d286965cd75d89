"""Double DQN (van Hasselt et al., 2016) on cule, after CleanRL's dqn_atari: a target network
copied every target_update_every updates, the Huber loss, linearly annealed epsilon-greedy
exploration, Adam, one-step targets. The replay buffer, the exploration and the updates all stay
on the env's device.

Every step all envs act (epsilon-greedy, drawn on the device) and store their transitions; then
updates_per_step updates of batch_size transitions each. A stored transition is replayed
updates_per_step x batch_size / num_envs times on average (the replay ratio: Nature DQN's is 8,
one batch of 32 every 4 steps).

    # one GPU
    python examples/dqn.py --game Pong --target-score 18
    # K GPUs of one machine: one process, CuleEnv and replay buffer per GPU, DDP over NCCL
    torchrun --standalone --nproc_per_node=K examples/dqn.py --game Pong
    # CPU smoke run, under a minute on 2 cores (torchrun with --device cpu uses gloo)
    python examples/dqn.py --device cpu --num-envs 8 --buffer-size 4096 --learning-starts 256 --batch-size 32 \\
        --updates-per-step 1 --total-frames 4096 --log-every 1024 --eval-envs 2 --eval-max-frames 1000

The defaults on a GPU are starting points, not tuned: 1,024 envs (a GPU step costs about the
same for any number of envs up to a few thousand), batches of 512 and 16 updates per step
(Nature's replay ratio of 8), a 500,000-transition buffer (28 KB each: 14 GB), CleanRL's learning
rate, discount and epsilon schedule. On a CPU (--device cpu, or no GPU): 8 envs, batches of 32,
2 updates a step (the same ratio, CleanRL's one batch every 4 transitions), learning from 20,000
transitions, a 200,000-transition buffer (5.6 GB), 10 million frames (examples/README.md has the
Breakout run they made). --help gives both.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

import common
from common import RunArgs


@dataclass
class Args(RunArgs):
    num_envs: int = 1024   # (RunArgs fields, with this script's defaults)
    buffer_size: int = 500_000
    """transitions the replay buffer holds, per process"""
    learning_starts: int = 80_000
    """transitions stored before the first update"""
    batch_size: int = 512
    """transitions per update"""
    updates_per_step: int = 16
    """updates after every step of all envs"""
    learning_rate: float = 1e-4
    """Adam's learning rate"""
    gamma: float = 0.99
    """discount factor"""
    target_update_every: int = 250
    """updates between two copies of the network into the target network"""
    start_epsilon: float = 1.0
    """exploration at the start"""
    end_epsilon: float = 0.01
    """exploration after exploration_fraction of total_frames"""
    exploration_fraction: float = 0.1
    """the part of total_frames over which epsilon falls linearly"""
    eval_epsilon: float = 0.01
    """exploration during evaluations (pure greedy play can stall a game, e.g. never serving)"""

    # CleanRL's dqn_atari rates with 8 envs: a batch of 32 every 4 transitions (2 updates a step),
    # learning from 20,000 transitions, a 200,000-transition buffer (5.6 GB).
    CPU_DEFAULTS = {**RunArgs.CPU_DEFAULTS, "num_envs": 8, "buffer_size": 200_000, "learning_starts": 20_000,
                    "batch_size": 32, "updates_per_step": 2, "total_frames": 10_000_000}


class QNetwork(nn.Module):
    def __init__(self, num_actions: int, bf16: bool = False):
        super().__init__()
        self.trunk = common.NatureCNN(bf16)
        self.q = nn.Linear(512, num_actions)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.q(self.trunk(obs))


def epsilon_greedy(q_values: torch.Tensor, epsilon: float) -> torch.Tensor:
    """Greedy actions, each replaced by a uniform one with probability epsilon: drawn on the device."""
    n, num_actions = q_values.shape
    explore = torch.rand(n, device=q_values.device) < epsilon
    random_actions = torch.randint(num_actions, (n,), device=q_values.device)
    return torch.where(explore, random_actions, q_values.argmax(1))


def double_dqn_targets(rewards: torch.Tensor, dones: torch.Tensor, next_q_online: torch.Tensor,
                       next_q_target: torch.Tensor, gamma: float) -> torch.Tensor:
    """One-step Double DQN targets (van Hasselt et al., 2016): r + gamma Q_target(x', a*)
    with a* = argmax_a Q_online(x', a): the online network picks the next action, the target
    network values it; just r where `done` (the next observation is not bootstrapped from).
    next_q_online, next_q_target: (B, A) action values of the next observations."""
    next_actions = next_q_online.argmax(1, keepdim=True)
    next_q = next_q_target.gather(1, next_actions).squeeze(1)
    return rewards + gamma * next_q * (~dones).float()


class ReplayBuffer:
    """Transitions of all envs in time-major slots on the device: slot i holds every env's
    observation, action, clipped reward and done flag of one step. Observations are stored once:
    the next observation of slot i is slot i + 1's. Where an episode or life ended that is the
    next episode's first observation (SameStep autoreset), but `done` then cuts the bootstrap, so
    it is never used; the newest slot, whose next observation is not stored yet, is never sampled."""

    def __init__(self, capacity: int, num_envs: int, obs_shape: torch.Size, device: torch.device):
        self.slots, self.num_envs = max(capacity // num_envs, 2), num_envs
        self.obs = torch.zeros((self.slots, num_envs, *obs_shape), dtype=torch.uint8, device=device)
        self.actions = torch.zeros((self.slots, num_envs), dtype=torch.long, device=device)
        self.rewards = torch.zeros((self.slots, num_envs), device=device)
        self.dones = torch.zeros((self.slots, num_envs), dtype=torch.bool, device=device)
        self.newest, self.filled = -1, 0

    @property
    def transitions(self) -> int:
        """Transitions that can be sampled."""
        return max(self.filled - 1, 0) * self.num_envs

    def add(self, obs: torch.Tensor, actions: torch.Tensor, rewards: torch.Tensor, dones: torch.Tensor) -> None:
        self.newest = (self.newest + 1) % self.slots
        self.filled = min(self.filled + 1, self.slots)
        i = self.newest
        self.obs[i], self.actions[i], self.rewards[i], self.dones[i] = obs, actions, rewards, dones

    def sample(self, batch_size: int) -> tuple[torch.Tensor, ...]:
        """obs, actions, rewards, dones, next_obs of batch_size transitions drawn uniformly."""
        device = self.obs.device
        age = torch.randint(1, self.filled, (batch_size,), device=device)   # 1: the slot before the newest
        slot = (self.newest - age) % self.slots
        env = torch.randint(self.num_envs, (batch_size,), device=device)
        next_slot = (slot + 1) % self.slots
        return (self.obs[slot, env], self.actions[slot, env], self.rewards[slot, env], self.dones[slot, env],
                self.obs[next_slot, env])


def main(argv: list[str] | None = None) -> dict:
    args = common.parse_args(Args, argv)
    dist, timer, env = common.start(args)
    device = dist.device
    q_network = QNetwork(env.num_actions, args.bf16).to(device)
    model = common.training_model(q_network, args, dist)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    run = common.Run("dqn", args, dist, q_network, optimizer, env, timer, loss_names=("q_mean",))
    # After training_model (process 0's weights on every process) and Run (a resumed run's weights).
    target_network = QNetwork(env.num_actions, args.bf16).to(device)
    target_network.load_state_dict(q_network.state_dict())
    buffer = ReplayBuffer(args.buffer_size, args.num_envs, env.obs.shape[1:], device)

    def policy(obs: torch.Tensor) -> torch.Tensor:
        return epsilon_greedy(q_network(obs), args.eval_epsilon)

    exploration_frames = max(args.exploration_fraction * args.total_frames, 1)
    while True:
        epsilon = args.end_epsilon + (args.start_epsilon - args.end_epsilon) * max(1 - env.frames / exploration_frames, 0)
        with torch.no_grad(), timer("inference"):
            actions = epsilon_greedy(model(env.obs), epsilon)
        obs = env.obs
        rewards, dones = env.step(actions)
        with timer("replay"):
            buffer.add(obs, actions, rewards, dones)

        ready = buffer.transitions >= max(args.learning_starts, args.batch_size)
        for _ in range(args.updates_per_step if ready else 0):
            with timer("replay"):
                b_obs, b_actions, b_rewards, b_dones, b_next_obs = buffer.sample(args.batch_size)
            with timer("forward"):
                with torch.no_grad():   # Double DQN: the network picks the next action, the target network values it
                    targets = double_dqn_targets(b_rewards, b_dones, model(b_next_obs), target_network(b_next_obs),
                                                 args.gamma)
                q = model(b_obs).gather(1, b_actions.unsqueeze(1)).squeeze(1)
                loss = F.smooth_l1_loss(q, targets)
            optimizer.zero_grad()
            with timer("backward"):   # with several processes, DDP averages the gradients here
                loss.backward()
            with timer("optimizer"):
                optimizer.step()
            run.add_losses(loss, q_mean=q.detach().mean())
            if run.updates % args.target_update_every == 0:
                target_network.load_state_dict(q_network.state_dict())

        if run.end_iteration(policy):
            break

    return run.finish()


if __name__ == "__main__":
    main()
