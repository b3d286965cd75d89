"""Evaluate a trained actor-critic (a ppo.py or a2c_vtrace.py run's checkpoint.pt) by the v5
protocol, whole games with raw scores, one episode per env, at one or more sticky-action
probabilities: 0.25 is v5's (what the training scripts' evaluations use), 0 is the deterministic
NoFrameskip-v4 setting of most published Atari curves. With --env ale-py the games are played on
ale-py's own AtariVectorEnv with the same settings, to tell an agent's score from its env's (the
two match frame for frame where neither draws random numbers; sticky actions and no-op starts are
each env's own draws).

    python examples/evaluate.py examples/results/ppo-pong-cpu-2026-11-27 --episodes 32 \\
        --repeat-action-probability 0.25 0 --out scores.json
"""
from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

import ale_py
import numpy as np
import torch
from ale_py.vector_env import AtariVectorEnv
from gymnasium.wrappers.vector import ArrayConversion

import common
import cule
from cule.games import get_game

ACTOR_CRITICS = ("ppo", "a2c_vtrace")


def ale_py_vector_env(game: str, num_envs: int, device: str = "cpu", **options):
    """ale-py's AtariVectorEnv with atari_vector_env's signature, its arrays converted to torch."""
    if device != "cpu":
        raise ValueError(f"ale-py runs on the CPU, not on {device!r}")
    return ArrayConversion(AtariVectorEnv(get_game(game).id, num_envs, num_threads=1, **options),
                           env_xp=np, target_xp=torch)


ENVS = {"cule": cule.atari_vector_env, "ale-py": ale_py_vector_env}


def load_agent(logdir: Path) -> tuple[common.ActorCritic, dict]:
    """The checkpoint's network (on the CPU, for evaluation) and the run's arguments."""
    path = logdir / common.Run.CHECKPOINT
    if not path.exists():
        raise FileNotFoundError(f"there is no {common.Run.CHECKPOINT} in {logdir}: is it a run's --logdir?")
    saved = torch.load(path, map_location="cpu", weights_only=False)   # the run's own file
    if saved["algo"] not in ACTOR_CRITICS:
        raise ValueError(f"{path} is a {saved['algo']!r} run; evaluate.py takes {', '.join(ACTOR_CRITICS)}")
    args = saved["args"]
    num_actions = saved["model"]["policy.weight"].shape[0]   # the policy head's outputs
    agent = common.ActorCritic(num_actions, args.get("bf16", False))
    agent.load_state_dict(saved["model"])
    return agent.eval(), dict(args, frames=saved["frames"])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logdir", type=Path, help="the --logdir of a ppo.py or a2c_vtrace.py run")
    parser.add_argument("--episodes", type=int, default=32, help="episodes (envs) per probability")
    parser.add_argument("--repeat-action-probability", type=float, nargs="+", default=[0.25],
                        help="sticky-action probabilities to evaluate at, each in [0, 1]")
    parser.add_argument("--seed", type=int, default=123, help="of the envs and of the sampled actions")
    parser.add_argument("--max-frames", type=int, default=108_000, help="frames after which an episode is cut")
    parser.add_argument("--noop-max", type=int, default=30,
                        help="most no-ops at an episode's start (AtariVectorEnv's 30; 0 for none)")
    parser.add_argument("--env", choices=ENVS, default="cule", help="whose env plays the games")
    parser.add_argument("--out", type=Path, help="a JSON file for the scores")
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error(f"--episodes must be at least 1, not {args.episodes}")
    if args.noop_max < 0:
        parser.error(f"--noop-max must be at least 0, not {args.noop_max}")
    for p in args.repeat_action_probability:
        if not 0 <= p <= 1:
            parser.error(f"--repeat-action-probability must be in [0, 1], not {p}")

    agent, run = load_agent(args.logdir)
    result = dict(logdir=str(args.logdir), algo_args=run, game=run["game"], frames_trained=run["frames"],
                  env=args.env, num_envs=args.episodes, seed=args.seed, noop_max=args.noop_max,
                  device=common.device_name(torch.device("cpu")), torch=torch.__version__, cule=cule.__version__,
                  ale_py=ale_py.__version__, threads=torch.get_num_threads(),
                  date=datetime.date.today().isoformat(), scores={})
    for p in args.repeat_action_probability:
        torch.manual_seed(args.seed)   # the policy samples its actions: the same seed, the same scores
        mean, scores = common.evaluate(agent.sample_actions, run["game"], args.episodes, "cpu", args.seed,
                                       args.max_frames, repeat_action_probability=p, noop_max=args.noop_max,
                                       make_env=ENVS[args.env])
        result["scores"][str(p)] = dict(mean=mean, scores=scores)
        print(f"{run['game']} on {args.env}, sticky actions {p}: mean {mean:.2f} over {args.episodes} episodes "
              f"(from {min(scores):g} to {max(scores):g})", flush=True)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
