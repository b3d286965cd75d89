"""Random actions in many Pong environments at once, with per-episode scores.

    python examples/random_agent.py --game Pong --num-envs 32 --steps 2000
"""
import argparse

import torch

import cule


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="Pong")
    p.add_argument("--num-envs", type=int, default=32)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    env = cule.CuleEnv(args.game, num_envs=args.num_envs, frameskip=4, repeat_action_probability=0.25,
                       full_action_space=False)
    env.reset(seed=args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    score = torch.zeros(args.num_envs, device=env.device)
    finished = []
    for _ in range(args.steps):
        actions = torch.randint(0, len(env.action_set), (args.num_envs,), generator=generator)
        _, reward, terminated, truncated, _ = env.step(actions)
        score += reward
        done = terminated | truncated
        finished += score[done].tolist()
        score[done] = 0   # the next step starts a new episode in those envs
    print(f"{args.game}: {len(finished)} episodes finished, mean score "
          f"{sum(finished) / max(len(finished), 1):.1f}")


if __name__ == "__main__":
    main()
