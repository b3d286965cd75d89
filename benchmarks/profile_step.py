"""A few steps of 4,096 Pong envs on the GPU with v5 settings, for a profiler (ncu) to watch."""
import torch

from cule import CuleEnv

env = CuleEnv("pong", num_envs=4096, device="cuda", frameskip=4, repeat_action_probability=0.25, noop_max=30,
              grayscale=True, img_height=84, img_width=84, stack_num=4, maxpool=True, full_action_space=False)
env.reset(seed=0)
for _ in range(6):
    env.step(torch.randint(0, env.single_action_space.n, (env.num_envs,), device="cuda"))
torch.cuda.synchronize()
