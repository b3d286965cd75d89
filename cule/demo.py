"""`make demo`: Pong with random actions on the best backend here (the GPU if there is one, else
the CPU), printing raw frames per second."""
from __future__ import annotations

import time

import torch

from .backends import cuda
from .env import CuleEnv


def main(game: str = "Pong") -> None:
    device = "cuda" if cuda.available() else "cpu"
    num_envs, steps = (16384, 50) if device == "cuda" else (16, 200)
    env = CuleEnv(game, num_envs=num_envs, device=device, frameskip=4, grayscale=True, img_height=84, img_width=84)
    env.reset(seed=0)   # on a GPU, the first use compiles the kernels (cached afterwards)
    n = len(env.action_set)
    total_reward = torch.zeros(num_envs, device=env.device)
    env.step(torch.randint(0, n, (num_envs,), device=env.device))   # warm-up
    if device == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        _, reward, _, _, _ = env.step(torch.randint(0, n, (num_envs,), device=env.device))
        total_reward += reward
    if device == "cuda":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    frames = steps * num_envs * env.frameskip
    print(f"{game} on {device}: {num_envs} envs x {steps} steps x frameskip {env.frameskip} = {frames} frames "
          f"in {seconds:.2f} s -> {frames / seconds:,.0f} raw frames/s "
          f"(summed reward {total_reward.sum().item():.0f})")


if __name__ == "__main__":
    main()
