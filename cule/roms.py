"""Game ROMs: the images bundled with ale-py, checked against the catalogue's md5 so that a
different dump never runs under another game's settings."""
from __future__ import annotations

import hashlib
from pathlib import Path

from .games import Game


class RomError(ValueError):
    """A ROM that is missing or is not the image the game's settings were written for."""


def md5_of(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def check_rom(game: Game, data: bytes, source: str = "ROM") -> bytes:
    digest = md5_of(data)
    if digest != game.md5:
        raise RomError(
            f"{source} has md5 {digest}, but {game.id!r} expects {game.md5} ({game.rom_bytes} bytes); "
            "cule runs only the exact images whose settings it knows")
    return data


def load_rom(game: Game, path: str | Path | None = None) -> bytes:
    """The ROM image of `game`: from `path` if given, else from ale-py's bundled ROMs."""
    if path is None:
        from ale_py import roms

        path = roms.get_rom_path(game.id)
        if path is None:
            raise RomError(f"ale-py has no ROM for {game.id!r}")
    path = Path(path)
    return check_rom(game, path.read_bytes(), source=str(path))
