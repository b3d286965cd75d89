"""For each game, the seed (of --seeds) whose random play in the diff tool reaches game over
first, and the frame it does: what the CI test uses to cross an episode end in few frames.
ale-py alone plays, so this is fast.

    python -m cule.tools.episode_ends --seeds 0 1 2 3 4 5 --jobs 2
"""
from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..games import get_game, list_games
from .oracle import AleOracle


def first_episode_end(job: tuple[str, int, int]) -> tuple[str, int, int | None]:
    """The first frame at which ale-py's game is over under run_diff's actions for this seed."""
    game, seed, frames = job
    oracle = AleOracle(get_game(game))
    for frame, action in enumerate(np.random.default_rng(seed).integers(0, 18, size=frames), 1):
        oracle.ale.act(int(action))
        if oracle.ale.game_over(with_truncation=False):
            return game, seed, frame
    return game, seed, None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, nargs="+", default=list(range(6)))
    p.add_argument("--frames", type=int, default=20000)
    p.add_argument("--games", nargs="+", default=None)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    jobs = [(g, s, args.frames) for g in args.games or list_games() for s in args.seeds]
    first: dict[str, tuple[int, int]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for game, seed, frame in pool.map(first_episode_end, jobs):
            if frame is not None and (game not in first or frame < first[game][1]):
                first[game] = (seed, frame)
    games = sorted(args.games or list_games())
    print(f"FIRST_EPISODE_END = {{   # game: (seed, frame); None: no game over within {args.frames} frames")
    for game in games:
        print(f"    {game!r}: {first.get(game, (args.seeds[0], None))},")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
