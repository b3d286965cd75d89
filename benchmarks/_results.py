"""Where a benchmark writes its results: a new file for each run, never an edit of an old one."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

RESULTS = Path(__file__).resolve().parent / "results"


def new_result_path(stem: str, suffix: str = ".json", folder: str | Path = RESULTS,
                    companions: Sequence[str] = ()) -> Path:
    """<folder>/<stem><suffix> (folder: benchmarks/results/ by default, made if missing), or
    <stem>-2<suffix>, -3, ... if that name is taken: by a file of an earlier run, or by one of its
    `companions`, the files the run writes beside it under the same name (a ".png", a ".txt")."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    name, k = stem, 2
    while any((folder / f"{name}{s}").exists() for s in (suffix, *companions)):
        name = f"{stem}-{k}"
        k += 1
    return folder / f"{name}{suffix}"
