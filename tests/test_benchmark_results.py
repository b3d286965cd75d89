"""benchmarks/_results.py: each benchmark run writes new files, never over an earlier run's."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._results import RESULTS, new_result_path  # noqa: E402


def test_each_run_gets_a_new_name(tmp_path):
    folder = tmp_path / "results"   # made on the first call
    first = new_result_path("fps-pong-2026-11-25", folder=folder)
    assert first == folder / "fps-pong-2026-11-25.json" and folder.is_dir()
    assert new_result_path("fps-pong-2026-11-25", folder=folder) == first   # nothing written yet: still free
    first.write_text("{}")
    second = new_result_path("fps-pong-2026-11-25", folder=folder)
    assert second == folder / "fps-pong-2026-11-25-2.json"
    second.write_text("{}")
    assert new_result_path("fps-pong-2026-11-25", folder=folder) == folder / "fps-pong-2026-11-25-3.json"
    assert first.read_text() == second.read_text() == "{}"


def test_a_companion_file_takes_the_name_too(tmp_path):
    (tmp_path / "loop_profile-pong-2026-11-25.txt").write_text("table")   # a run whose JSON is gone
    path = new_result_path("loop_profile-pong-2026-11-25", folder=tmp_path, companions=[".txt"])
    assert path == tmp_path / "loop_profile-pong-2026-11-25-2.json"
    alone = new_result_path("loop_profile-pong-2026-11-25", folder=tmp_path)   # no companions named
    assert alone == tmp_path / "loop_profile-pong-2026-11-25.json"
    assert new_result_path("x", suffix=".png", folder=tmp_path) == tmp_path / "x.png"


def test_the_default_folder_is_benchmarks_results():
    assert RESULTS == Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    path = new_result_path("no-such-run-name")
    assert path.parent == RESULTS and not path.exists()
