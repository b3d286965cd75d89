"""`make demo`: Pong with random actions at v5 settings (what gymnasium.make_vec("ALE/Pong-v5")
gives: 84 x 84 grey, frameskip 4, sticky actions 0.25, max-pooling, stacks of 4) on the best
backend here (the GPU if there is one, else the CPU's cores), beside ale-py's own AtariVectorEnv
on this machine's cores, in raw frames per second and as a ratio; then a PNG of four envs'
screens, whose path it prints.

    python -m cule.demo [game] [--out PATH]
"""
from __future__ import annotations

import argparse
import struct
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import torch

from .backends import cuda
from .registration import atari_vector_env


def frames_per_second(env, steps: int, device: torch.device | None = None) -> float:
    """Raw frames per second of `steps` steps with random actions after a warm-up step; torch
    actions on `device` (cule's env), numpy ones where device is None (ale-py's)."""
    n, actions = env.num_envs, env.single_action_space.n

    def act():
        if device is None:
            return np.random.randint(0, actions, n)
        return torch.randint(0, actions, (n,), device=device)

    def wait():
        if device is not None and device.type == "cuda":
            torch.cuda.synchronize(device)
    env.reset(seed=0)
    env.step(act())   # on a GPU the first use compiled the kernels at construction (cached afterwards)
    wait()
    start = time.perf_counter()
    for _ in range(steps):
        env.step(act())
    wait()
    return steps * n * 4 / (time.perf_counter() - start)


def write_png(path: Path, rgb: np.ndarray) -> None:
    """An (H, W, 3) uint8 image as a PNG, with zlib alone."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    height, width, _ = rgb.shape
    rows = b"".join(b"\0" + row.tobytes() for row in np.ascontiguousarray(rgb, dtype=np.uint8))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="Pong")
    parser.add_argument("--out", type=Path, help="the PNG to write (default: in the temporary folder)")
    args = parser.parse_args(argv)
    from ale_py.vector_env import AtariVectorEnv

    on_gpu = cuda.available()
    # A GPU runs thousands of envs for the price of a few; AtariVectorEnv's best is about 64 on
    # 16 cores (docs/results.md). On a CPU both engines step the same envs on the same cores.
    num_envs, theirs_envs, steps = (16384, 64, 50) if on_gpu else (16, 16, 300)
    env = atari_vector_env(args.game, num_envs, device="cuda" if on_gpu else "cpu", repeat_action_probability=0.25)
    ours = frames_per_second(env, steps, env.device)
    reference = AtariVectorEnv(args.game.lower(), num_envs=theirs_envs, repeat_action_probability=0.25)
    theirs = frames_per_second(reference, steps)
    reference.close()
    where = f"the GPU ({torch.cuda.get_device_name(env.device)})" if on_gpu else "the CPU"
    rows = ((f"cule on {where}, {num_envs:,} envs", ours), (f"ale-py's AtariVectorEnv, {theirs_envs} envs", theirs))
    width = max(len(name) for name, _ in rows)
    print(f"{args.game} at v5 settings, random actions, raw frames/s on this machine:")
    for name, fps in rows:
        print(f"  {name:<{width}} {fps:>12,.0f}")
    print(f"  cule / AtariVectorEnv: {ours / theirs:.2f}x")

    screens = [np.pad(screen, ((0, 0), (0, 4), (0, 0))) for screen in env.render(env_ids=[0, 1, 2, 3])]
    out = args.out or Path(tempfile.gettempdir()) / f"cule-demo-{args.game.lower()}.png"
    write_png(out, np.concatenate(screens, axis=1)[:, :-4])
    print(f"four envs' screens after {steps + 1} steps: {out}")


if __name__ == "__main__":
    main()
