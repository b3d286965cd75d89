"""Plays seeded random actions on cule and on ale-py side by side and reports the first frame
where they differ: the RAM bytes, the CPU and TIA state, and a PNG of both screens and their
difference.

    python -m cule.tools.diff pong --frames 2000 --seed 0
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _core
from ..env import CuleEnv
from ..games import get_game
from .oracle import AleOracle


@dataclass
class Mismatch:
    frame: int
    fields: list[str]
    ram_diff: list[tuple[int, int, int]] = field(default_factory=list)   # (address, cule, ale)
    pixels_differing: int = 0
    cule_screen: np.ndarray | None = None
    ale_screen: np.ndarray | None = None
    detail: str = ""
    pal: bool = False   # the screens are a PAL console's

    def describe(self) -> str:
        lines = [f"first mismatch at frame {self.frame}: {', '.join(self.fields)}"]
        for addr, c, a in self.ram_diff:
            lines.append(f"  RAM[{0x80 + addr:#04x}] cule={c:#04x} ale={a:#04x}")
        if self.pixels_differing:
            lines.append(f"  {self.pixels_differing} pixels differ")
        if self.detail:
            lines.append(self.detail)
        return "\n".join(lines)


def compare_frame(frame: int, cule: dict, ale) -> Mismatch | None:
    fields = []
    ram_diff = [(i, int(c), int(a)) for i, (c, a) in enumerate(zip(cule["ram"], ale.ram)) if c != a]
    if ram_diff:
        fields.append("ram")
    pixels = int((cule["screen"] != ale.screen).sum())
    if pixels:
        fields.append("screen")
    for name in ("reward", "terminal", "truncated", "lives", "frame_number", "episode_frame_number"):
        if cule[name] != getattr(ale, name):
            fields.append(f"{name} (cule {cule[name]}, ale {getattr(ale, name)})")
    if not fields:
        return None
    return Mismatch(frame, fields, ram_diff, pixels, cule["screen"], ale.screen)


def run_diff(game_name: str, frames: int, seed: int, mode: int | None = None,
             difficulty: int | None = None, max_frames: int = 0) -> tuple[Mismatch | None, int]:
    """Plays `frames` frames of seeded random actions (full action set) on both; returns the first
    mismatch or None, and the number of episode ends (game over or the `max_frames` cap) played
    through. When an episode ends both start a fresh one: cule by its next-step autoreset, ale-py
    by loading its post-reset state. cule's cap counts frames stepped since the reset, as
    AtariVectorEnv does, ALE's the episode frame number: the same but in the five games whose
    reset counts frames."""
    game = get_game(game_name)
    env = CuleEnv(game.id, num_envs=1, mode=mode, difficulty=difficulty, max_num_frames_per_episode=max_frames)
    oracle = AleOracle(game, mode, difficulty, max_frames)
    actions = np.random.default_rng(seed).integers(0, 18, size=frames)
    _, info = env.reset(seed=seed)
    ale = oracle.observe(0)
    reward, terminated, truncated = [0], [False], [False]
    episode_ends = 0
    for f in range(frames + 1):
        if f > 0:
            episode_over = bool(terminated[0] or truncated[0])
            _, reward, terminated, truncated, info = env.step(actions[f - 1:f])
            ale = oracle.load() if episode_over else oracle.act(int(actions[f - 1]))
        cule = dict(ram=env.get_ram()[0].numpy(), screen=env.get_screens()[0].numpy(),
                    reward=int(reward[0]), terminal=bool(terminated[0]), truncated=bool(truncated[0]),
                    lives=int(info["lives"][0]),
                    frame_number=int(info["frame_number"][0]),
                    episode_frame_number=int(info["episode_frame_number"][0]))
        mismatch = compare_frame(f, cule, ale)
        if mismatch:
            mismatch.detail = machine_detail(env)
            mismatch.pal = game.pal
            return mismatch, episode_ends
        episode_ends += ale.terminal or ale.truncated
    return None, episode_ends


def machine_detail(env: CuleEnv) -> str:
    console = _core.Console(env._spec) if hasattr(env, "_spec") else None
    if console is None:
        return ""
    console.set_state(env.get_states()[0].cpu().numpy())
    return f"  cule CPU {console.cpu()}\n  cule TIA {console.tia()}"


def mismatch_png(m: Mismatch, path: Path) -> None:
    """cule | ale | difference (red where the palette indices differ), each scaled 2x."""
    palette = _core.palette_rgb(m.pal)
    a, b = palette[m.cule_screen], palette[m.ale_screen]
    diff = np.zeros_like(a)
    diff[m.cule_screen != m.ale_screen] = (255, 0, 0)
    gap = np.full((a.shape[0], 4, 3), 255, np.uint8)
    row = np.concatenate([a, gap, b, gap, diff], axis=1)
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError("the screens' PNG needs Pillow: pip install pillow") from e
    Image.fromarray(np.ascontiguousarray(row.repeat(2, axis=0).repeat(2, axis=1), dtype=np.uint8)).save(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--frames", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mode", type=int, default=None)
    p.add_argument("--difficulty", type=int, default=None)
    p.add_argument("--max-frames", type=int, default=0, help="frame cap per episode (0: none)")
    p.add_argument("--png", type=Path, default=None, help="where to write the screens (default GAME-diff.png)")
    args = p.parse_args(argv)
    mismatch, episode_ends = run_diff(args.game, args.frames, args.seed, args.mode, args.difficulty,
                                      args.max_frames)
    if mismatch is None:
        print(f"{args.game}: {args.frames} frames equal to ale-py (seed {args.seed}, "
              f"{episode_ends} episode ends)")
        return 0
    print(mismatch.describe())
    png = args.png or Path(f"{get_game(args.game).id}-diff.png")
    mismatch_png(mismatch, png)
    print(f"  screens written to {png}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
