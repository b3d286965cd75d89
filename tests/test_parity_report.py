"""docs/games.md names the commits of the runs it was made from."""
from cule.tools.parity_report import render


def run(game: str, seed: int, **extra) -> dict:
    return {"game": game, "seed": seed, "frames": 100, "date": "2026-11-24", "episode_ends": 0,
            "first_mismatch": None, "fields": [], **extra}


def test_the_report_names_each_commit_and_runs_that_recorded_none():
    text = render([run("pong", 0, commit="4b34ced"), run("pong", 1, commit="448660e"), run("tennis", 0)],
                  100, "0.12.1")
    assert "runs made 2026-11-24 (commit 448660e, 4b34ced, not recorded):" in text
    assert "| pong | 2K | 0, 1 | 100 | 0, 0 | exact |" in text
