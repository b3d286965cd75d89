"""benchmarks/_results.py: each benchmark run writes new files, never over an earlier run's; and
benchmarks/plot_fps.py, which draws the README's speed plot from one."""
import sys
from pathlib import Path

import pytest

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


def test_plot_fps_draws_the_committed_h100_run(tmp_path):
    """benchmarks/plot_fps.py on the run the README's speed plot comes from (matplotlib)."""
    import json
    import subprocess

    from PIL import Image
    result = RESULTS / "fps-pong-2026-11-23-h100.json"
    png = tmp_path / "fps.png"
    run = subprocess.run([sys.executable, str(RESULTS.parent / "plot_fps.py"), str(result), "--out", str(png)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == f"wrote {png}\n", run.stderr
    assert Image.open(png).size == (825, 506)
    one_count = json.loads(result.read_text())
    one_count["results"] = [r for r in one_count["results"] if r["num_envs"] == 16]
    (tmp_path / "one.json").write_text(json.dumps(one_count))
    run = subprocess.run([sys.executable, str(RESULTS.parent / "plot_fps.py"), str(tmp_path / "one.json"), "--out",
                          str(tmp_path / "one.png")], capture_output=True, text=True)
    assert run.returncode == 1 and "no 'emulation' results at two env counts or more to plot" in run.stderr


def test_plot_fps_names_an_unknown_engine_or_load(tmp_path):
    sys.path.insert(0, str(RESULTS.parent))
    from plot_fps import plot
    rows = [dict(engine="gym", load="emulation", num_envs=n, fps=1000) for n in (1, 2)]
    with pytest.raises(ValueError, match=r"unknown engine 'gym': fps.py's engines are \['cule-gpu', "):
        plot(dict(game="pong", results=rows), tmp_path / "x.png")
    with pytest.raises(ValueError, match=r"load must be one of \['emulation', 'inference'\], got 'training'"):
        plot(dict(game="pong", results=rows), tmp_path / "x.png", load="training")


def test_plot_simt_model_draws_and_tabulates_the_committed_runs(tmp_path):
    """benchmarks/plot_simt_model.py on the runs docs/results.md's table (the built layout's sectors,
    age 3,000; global and local memory) and docs/simt-lanes.png (every age) come from."""
    import json
    import subprocess

    from PIL import Image
    plot = [sys.executable, str(RESULTS.parent / "plot_simt_model.py")]
    result = RESULTS / "simt_model-2026-11-26-6.json"
    run = subprocess.run([*plot, str(result), "--table", "--age", "3000"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("| game | lanes per pass: today, built, best (policy) |")
    record = json.loads(result.read_text())
    rows = {(r["policy"], r["kernel"]): r for r in record["results"] if r["game"] == "pong" and r["age"] == 3000}
    # today: the per-lane policy on today's kernel, its machine code from the commit the result names
    today, built = rows["per-lane", record["today_kernel"]], rows["fstack+wait+join", "built"]
    assert today["state_sectors_per_warp_frame_aos"] != rows["per-lane", "built"]["state_sectors_per_warp_frame_aos"]
    pong = next(line for line in lines if line.startswith("| pong |"))
    assert pong.startswith(f"| pong | {today['lanes_per_pass']:.1f}, {built['lanes_per_pass']:.1f}, ")
    assert f"({today['passes_per_warp_frame'] / built['passes_per_warp_frame']:.1f}x)" in pong
    today_sectors = today["sectors_per_warp_frame_aos"] + today["state_sectors_per_warp_frame_aos"]
    built_sectors = built["sectors_per_warp_frame_tiles"] + built["state_sectors_per_warp_frame_tiles"]
    assert f"| {today_sectors:,.0f}, {built_sectors:,.0f} (" in pong
    assert (f"| {today['local_sectors_per_warp_frame']:,.0f}, {built['local_sectors_per_warp_frame']:,.0f} |"
            in pong)
    old_run = subprocess.run([*plot, str(RESULTS / "simt_model-2026-11-25-3.json"), "--table", "--age", "3000",
                              "--built", "min-pc+wait"],
                             capture_output=True, text=True)   # a run from before results named kernels
    assert old_run.returncode == 0 and "| pong | 2.3, 29.7, " in old_run.stdout, old_run.stderr
    run = subprocess.run([*plot, str(result), "--table", "--age", "5"], capture_output=True, text=True)
    assert run.returncode == 1 and "no results at age 5; the result has ages [3000]" in run.stderr
    png = tmp_path / "lanes.png"
    run = subprocess.run([*plot, str(RESULTS / "simt_model-2026-11-25.json"), "--out", str(png)], capture_output=True,
                         text=True)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == f"wrote {png}", run.stderr
    assert Image.open(png).size[0] > Image.open(png).size[1]
