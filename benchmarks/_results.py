"""Where a benchmark writes its results: a new file for each run, never an edit of an old one."""
from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def new_result_path(stem: str, suffix: str = ".json") -> Path:
    """benchmarks/results/<stem>.json, or <stem>-2.json, -3, ... if that run's file exists."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{stem}{suffix}"
    k = 2
    while path.exists():
        path = RESULTS / f"{stem}-{k}{suffix}"
        k += 1
    return path
