"""Steps of 4,096 envs of a game (`--game`, Pong) on the GPU with v5 settings, for a profiler (ncu)
to watch: `--steps` steps (6: envs as young as the 2026-11-23 profile's; more to age them, as the
SIMT model does), with the GPU's step `--gpu-step` (CuleEnv's cuda_step).

    ncu -k regex:"cule_(step|render)" python3 benchmarks/profile_step.py --gpu-step in-passes --steps 1000
"""
import argparse

import torch

from cule import CuleEnv
from cule.env import CUDA_STEPS, DEFAULT_CUDA_STEP

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--gpu-step", choices=CUDA_STEPS, default=DEFAULT_CUDA_STEP)
parser.add_argument("--steps", type=int, default=6)
parser.add_argument("--envs", type=int, default=4096)
parser.add_argument("--game", default="pong")
args = parser.parse_args()
env = CuleEnv(args.game, num_envs=args.envs, device="cuda", frameskip=4, repeat_action_probability=0.25, noop_max=30,
              grayscale=True, img_height=84, img_width=84, stack_num=4, maxpool=True, full_action_space=False,
              cuda_step=args.gpu_step)
env.reset(seed=0)
for _ in range(args.steps):
    env.step(torch.randint(0, env.single_action_space.n, (env.num_envs,), device="cuda"))
torch.cuda.synchronize()
