"""The benchmarks of a GPU user's journey, run on the CPU: train_fps.py (the training loop's
frames/s) on the GPU configurations with the CUDA backend run on the host, its JSON each
script's frames/s and phases beside the emulation's; cold_start.py (a new process to its first
step); host_memory.py (host RAM per env); games_fps.py (the GPU's steps game by game); and the
training stage of the prepared GPU command (benchmarks/gpu_run.sh)."""
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_train_fps_measures_each_script_beside_emulation(tmp_path):
    command = [sys.executable, str(ROOT / "benchmarks" / "train_fps.py"), "--device", "cpu", "--backend", "cuda",
               "--num-envs", "20", "--frames", "2400", "--warmup", "0", "--emulation-seconds", "0.5",
               "--out", str(tmp_path)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    (path,) = tmp_path.glob("train_fps-pong-*.json")
    result = json.loads(path.read_text())
    assert result["backend"] == "cuda" and result["how"].startswith("benchmarks/train_fps.py --device cpu")
    assert [e["num_envs"] for e in result["emulation"]] == [20] and result["emulation"][0]["fps"] > 0
    assert [(r["script"], r["num_envs"]) for r in result["results"]] == [("ppo", 20), ("a2c_vtrace", 20)]
    for entry in result["results"]:
        assert entry["fps"] > 0 and entry["updates_per_second"] > 0 and entry["log_intervals"] >= 1
        phases = {"emulation", "rendering", "inference", "forward", "backward", "optimizer"}
        assert set(entry["phase_seconds"]) == phases
        assert sum(entry["phase_seconds"].values()) <= entry["seconds"]
    ppo, a2c = (entry["settings"] for entry in result["results"])
    assert (ppo["num_steps"], ppo["num_minibatches"], a2c["num_batches"], a2c["steps_per_update"]) == (8, 8, 20, 1)
    assert "ppo 20 envs (defaults):" in run.stdout and f"wrote {path}" in run.stdout


def test_cold_start_times_a_new_process_to_its_first_step(tmp_path):
    command = [sys.executable, str(ROOT / "benchmarks" / "cold_start.py"), "--device", "cpu", "--num-envs", "4",
               "--out", str(tmp_path)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    (path,) = tmp_path.glob("cold_start-pong-*.json")
    result = json.loads(path.read_text())
    assert (result["num_envs"], result["backend"], result["cache_bytes"]) == (4, "cpu", 0)   # no NVRTC on a CPU
    for cache in ("empty_cache", "warm_cache"):
        times = result[cache]
        phases = ("import_seconds", "construct_seconds", "reset_seconds", "first_step_seconds")
        assert all(times[p] > 0 for p in phases)
        assert sum(times[p] for p in phases) == pytest.approx(times["total_seconds"], abs=0.01)
        assert times["total_seconds"] < times["process_wall_seconds"]
    assert "empty cache:" in run.stdout and "warm cache:" in run.stdout


def test_host_memory_measures_each_env_count_in_a_new_process(tmp_path):
    command = [sys.executable, str(ROOT / "benchmarks" / "host_memory.py"), "--device", "cpu", "--num-envs", "8", "64",
               "--out", str(tmp_path)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    (path,) = tmp_path.glob("host_memory-pong-cpu-*.json")
    result = json.loads(path.read_text())
    assert [row["num_envs"] for row in result["rows"]] == [8, 64] and result["backend"] == "cpu"
    for row in result["rows"]:
        assert row["rss_after_imports"] < row["rss_after_env"] <= row["peak_rss"]
        assert row["rss_growth"] == row["rss_after_step"] - row["rss_after_imports"] > 0
        assert row["observation_spaces_bytes"] < 64   # the bounds held once (cule/spaces.py)
        assert row["gymnasium_box_bytes"] == row["num_envs"] * 4 * 84 * 84 * 4   # low, high and two masks
    assert "     64 envs: +" in run.stdout and f"wrote {path}" in run.stdout


def test_the_prepared_gpu_command_s_training_stage_runs_and_packs_its_results(tmp_path):
    # benchmarks/gpu_run.sh pong, as the GPU machine runs it, but on the CPU with the CUDA
    # backend run on the host, 20 envs and 2 seconds of training.
    env = dict(os.environ, OUT=str(tmp_path / "out"), RUNS=str(tmp_path / "runs"), TRAIN_DEVICE="cpu",
               GPU_SITE=str(tmp_path / "no-gpu-site"),   # the GPU machine's packages are not this machine's
               TRAIN_SECONDS="2", EVAL_EVERY="0", PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",
               TRAIN_ARGS="--backend cuda --num-envs 20 --eval-envs 2 --eval-max-frames 400 --log-every 960")
    run = subprocess.run(["bash", str(ROOT / "benchmarks" / "gpu_run.sh"), "pong"], capture_output=True, text=True,
                         timeout=600, cwd=ROOT, env=env)
    assert run.returncode == 0 and "stopped: time | reached: None" in run.stdout, run.stdout + run.stderr
    with tarfile.open(tmp_path / "out" / "runs.tgz") as packed:
        names = set(packed.getnames())
        summary = json.load(packed.extractfile("./pong-a2c_vtrace-s1/summary.json"))
    assert {"./pong-a2c_vtrace-s1.log", "./pong-a2c_vtrace-s1/progress.csv"} <= names
    assert not any(name.endswith("checkpoint.pt") for name in names)
    args = summary["args"]
    assert (args["repeat_action_probability"], args["eval_repeat_action_probability"]) == (0, 0)
    assert args["target_score"] == 18
    assert summary["stopped"] == "time" and summary["train_seconds"] >= 2 and len(summary["eval_scores"]) == 2


def test_games_fps_times_both_steps_game_by_game_and_resumes(tmp_path):
    # the CUDA kernels run on the host: the plumbing, not the GPU's speed
    out = tmp_path / "games_fps.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "games_fps.py"), "--device", "cpu", "--envs", "32",
               "--seconds", "0.1", "--out", str(out)]
    run = subprocess.run(command + ["--games", "pong"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    first = json.loads(out.read_text())
    run = subprocess.run(command + ["--games", "Pong", "ALE/Breakout-v5", "--resume"], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["device"] == "cpu" and result["num_envs"] == 32 and result["steps"] == ["in-passes", "split"]
    assert result["results"]["pong"] == first["results"]["pong"] and set(result["results"]) == {"pong", "breakout"}
    assert all(fps > 0 for r in result["results"].values() for fps in r.values())
    assert "least gain of in-passes on split: " in run.stdout
    run = subprocess.run(command + ["--games", "pong", "--resume", "--envs", "64"], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    assert run.returncode != 0 and "holds 32 envs" in run.stderr
    run = subprocess.run(command + ["--games", "pongg"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode != 0 and "unknown game 'pongg'" in run.stderr
