"""`make demo`: Pong with random actions on the best backend here, printing frames per second."""
from __future__ import annotations

import time

import torch

from .env import CuleEnv


def main(game: str = "Pong", num_envs: int = 16, steps: int = 200) -> None:
    device = "cpu"   # the CUDA backend is not part of this version yet
    env = CuleEnv(game, num_envs=num_envs, device=device, frameskip=4)
    env.reset(seed=0)
    n = len(env.action_set)
    start = time.perf_counter()
    total_reward = torch.zeros(num_envs)
    for _ in range(steps):
        actions = torch.randint(0, n, (num_envs,))
        _, reward, _, _, _ = env.step(actions)
        total_reward += reward
    seconds = time.perf_counter() - start
    frames = steps * num_envs * env.frameskip
    print(f"{game} on {device}: {num_envs} envs x {steps} steps x frameskip {env.frameskip} = {frames} frames "
          f"in {seconds:.2f} s -> {frames / seconds:,.0f} raw frames/s "
          f"(summed reward {total_reward.sum():.0f})")


if __name__ == "__main__":
    main()
