"""The training examples (examples/ppo.py, a2c_vtrace.py, dqn.py) on the CPU backend with tiny
settings: a few updates each, finite losses, every parameter changed, the logs written; their
return computations against direct formulas; and two processes under torchrun (gloo), on one
node or on two, ending with the same weights."""
import csv
import json
import math
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys

import pytest
import torch

import cule

from _examples import EXAMPLES, load

# Pong on the CPU; evaluations of 2 envs cut at 400 frames (100 steps).
TINY = ["--game", "Pong", "--device", "cpu", "--seed", "0", "--eval-device", "cpu", "--eval-envs", "2",
        "--eval-max-frames", "400"]
SCRIPTS = {
    "ppo": ["--num-envs", "4", "--num-steps", "8", "--num-minibatches", "2", "--update-epochs", "2",
            "--total-frames", "256", "--log-every", "128", "--eval-every", "128"],
    "a2c_vtrace": ["--num-envs", "4", "--num-batches", "2", "--num-steps", "4", "--steps-per-update", "2",
                   "--total-frames", "256", "--log-every", "128", "--eval-every", "128"],
    "dqn": ["--num-envs", "4", "--buffer-size", "256", "--learning-starts", "32", "--batch-size", "16",
            "--updates-per-step", "2", "--total-frames", "256", "--log-every", "128", "--eval-every", "128"],
}
CSV_COLUMNS = ["frames", "wall_seconds", "train_seconds", "updates", "train_return", "eval_score", "fps", "loss"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_trains_and_logs(script, tmp_path):
    summary = load(script).main([*TINY, *SCRIPTS[script], "--logdir", str(tmp_path)])

    assert summary["frames"] == 256
    assert summary["updates"] >= 2 and len(summary["losses"]) == summary["updates"]
    assert all(math.isfinite(loss) for loss in summary["losses"])
    unchanged = [k for k, v in summary["initial_params"].items() if torch.equal(v, summary["final_params"][k])]
    assert not unchanged

    with open(tmp_path / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0])[:len(CSV_COLUMNS)] == CSV_COLUMNS
    assert [int(r["frames"]) for r in rows] == [128, 256]
    assert all(r["eval_score"] for r in rows)   # evaluated every 128 frames
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["params_changed"] and saved["frames"] == 256 and saved["game"] == "Pong"
    assert len(saved["eval_scores"]) == 2 and saved["eval_score"] == sum(saved["eval_scores"]) / 2
    # Where the training time went, over the whole run: the env's phases and the script's.
    phases = saved["phase_seconds"]
    assert {"emulation", "rendering", "inference", "forward", "backward", "optimizer"} <= set(phases)
    assert all(s > 0 for s in phases.values()) and sum(phases.values()) <= saved["train_seconds"]


def test_the_trunk_computes_the_nature_cnn_in_either_layout_and_precision():
    # Channels-last is a layout only: the features are Mnih et al.'s, computed here in NCHW from
    # the same weights. bfloat16 keeps about 3 significant digits and returns float32 features.
    common = load("ppo").common
    torch.manual_seed(0)
    trunk = common.NatureCNN()
    obs = torch.randint(0, 256, (5, 4, 84, 84), dtype=torch.uint8)
    x = obs.float() / 255.0
    convs = [m for m in trunk.net if isinstance(m, torch.nn.Conv2d)]
    for conv in convs:
        x = torch.relu(torch.nn.functional.conv2d(x, conv.weight.contiguous(), conv.bias, conv.stride))
    linear = trunk.net[-2]
    expected = torch.relu(x.flatten(1) @ linear.weight.T + linear.bias)
    assert convs[0].weight.is_contiguous(memory_format=torch.channels_last)
    torch.testing.assert_close(trunk(obs), expected, rtol=1e-4, atol=1e-5)

    trunk.bf16 = True
    features = trunk(obs)
    assert features.dtype == torch.float32 and trunk.net[0].weight.dtype == torch.float32
    torch.testing.assert_close(features, expected, rtol=0.05, atol=0.02)


# The GPU configurations (the defaults with the CUDA backend) on the CUDA backend run on the host,
# with fewer envs: PPO 2 iterations of 16 envs x 8 steps in 8 minibatches, 4 epochs; A2C 20 groups
# of 1 env, N-steps 20 and an update every step from the 20th (5 updates). No evaluations.
ON_THE_HOST = ["--game", "Pong", "--device", "cpu", "--backend", "cuda", "--seed", "0", "--eval-envs", "0"]
GPU_CONFIGURATIONS = {"ppo": ["--num-envs", "16", "--total-frames", "1024", "--log-every", "512"],
                      "a2c_vtrace": ["--num-envs", "20", "--total-frames", "1920", "--log-every", "960"]}


@pytest.mark.parametrize("script", GPU_CONFIGURATIONS)
def test_the_gpu_configuration_trains_on_the_cuda_backend_run_on_the_host(script, tmp_path):
    summary = load(script).main([*ON_THE_HOST, *GPU_CONFIGURATIONS[script], "--logdir", str(tmp_path)])
    args = summary["args"]
    assert args["backend"] == "cuda" and summary["device"].endswith("cores)")
    if script == "ppo":
        assert (args["num_steps"], args["num_minibatches"], args["update_epochs"]) == (8, 8, 4)
        assert summary["updates"] == 2 * 8 * 4
    else:
        assert (args["num_batches"], args["num_steps"], args["steps_per_update"]) == (20, 20, 1)
        assert summary["updates"] == 24 - 20 + 1
    assert summary["params_changed"] and all(math.isfinite(loss) for loss in summary["losses"])
    assert summary["stopped"] == "frames" and summary["eval_score"] is None and summary["eval_scores"] == []
    with open(tmp_path / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and all(float(r["emulation_seconds"]) > 0 for r in rows)
    assert float(rows[-1]["forward_seconds"]) > 0 and rows[-1]["replay_seconds"] == ""   # no phase of DQN's


def test_bf16_runs_train(tmp_path):
    summary = load("ppo").main([*TINY, *SCRIPTS["ppo"], "--bf16", "--logdir", str(tmp_path)])
    assert summary["args"]["bf16"] and all(math.isfinite(loss) for loss in summary["losses"])
    assert all(not torch.equal(v, summary["final_params"][k]) for k, v in summary["initial_params"].items())


def test_compiled_network_learns_as_the_eager_one(tmp_path):
    # torch.compile (about 25 s on 2 cores) computes the same network: the same actions sampled,
    # the same losses, update after update.
    argv = [*TINY, *SCRIPTS["ppo"], "--eval-every", "0"]
    eager = load("ppo").main([*argv, "--logdir", str(tmp_path / "eager")])
    compiled = load("ppo").main([*argv, "--compile", "default", "--logdir", str(tmp_path / "compiled")])
    assert compiled["args"]["compile"] == "default" and len(compiled["losses"]) == len(eager["losses"]) == 8
    assert compiled["losses"] == pytest.approx(eager["losses"], rel=1e-4, abs=1e-6)


def test_target_score_stops_the_run_and_is_recorded(tmp_path):
    # Any Pong score is at least -21: the first evaluation (at 128 frames) reaches the target.
    summary = load("a2c_vtrace").main([*TINY, *SCRIPTS["a2c_vtrace"], "--total-frames", "100000",
                                       "--target-score", "-21", "--logdir", str(tmp_path)])
    assert summary["frames"] == 128
    reached = json.loads((tmp_path / "summary.json").read_text())["reached_target"]
    assert reached["frames"] == 128 and 0 < reached["train_seconds"] <= reached["wall_seconds"]


def test_a_time_limit_stops_the_run_evaluated(tmp_path):
    summary = load("ppo").main([*TINY, *SCRIPTS["ppo"], "--total-frames", "100000", "--max-train-seconds", "0.001",
                                "--eval-every", "0", "--eval-repeat-action-probability", "0",
                                "--logdir", str(tmp_path)])
    assert summary["frames"] == 128 and summary["stopped"] == "time" and len(summary["eval_scores"]) == 2
    assert summary["evaluation"] == dict(episodes=2, repeat_action_probability=0.0, noop_max=30, max_frames=400,
                                         whole_games=True, device="cpu")
    with pytest.raises(ValueError, match="--target-score needs evaluations: --eval-envs is 0"):
        load("ppo").main([*TINY, *SCRIPTS["ppo"], "--eval-envs", "0", "--target-score", "18"])


def test_sigterm_stops_the_run_at_its_next_log_line_with_its_results(tmp_path):
    words = smoke_command("ppo")
    run = subprocess.Popen([sys.executable, *words[1:], "--total-frames", "10000000", "--logdir", str(tmp_path)],
                           cwd=EXAMPLES.parent, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in run.stdout:
        if "frames " in line:   # the first log line: the run is under way
            run.send_signal(signal.SIGTERM)
            break
    rest = run.stdout.read()
    assert run.wait(timeout=120) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["stopped"] == "signal" and 1024 < summary["frames"] < 10_000_000
    assert "evaluating" not in rest   # no evaluation after the signal


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_run_stopped_goes_on_from_its_checkpoint(script, tmp_path):
    # Stopped at 128 frames (its checkpoint written at the log line there), its directory moved,
    # then resumed to 256 there. (DQN learns from 16 transitions here: its replay buffer starts
    # empty in either part.)
    argv = [*TINY, *SCRIPTS[script], *(["--learning-starts", "16"] if script == "dqn" else [])]
    first = load(script).main([*argv, "--total-frames", "128", "--logdir", str(tmp_path / "first")])
    assert first["updates"] > 0
    (tmp_path / "first").rename(tmp_path / "moved")
    argv += ["--logdir", str(tmp_path / "moved")]
    checkpoint = torch.load(tmp_path / "moved" / "checkpoint.pt", weights_only=False)
    assert checkpoint["frames"] == 128 and checkpoint["updates"] == first["updates"]
    assert all(torch.equal(v, first["final_params"][k]) for k, v in checkpoint["model"].items())

    module = load(script)
    loaded = {}
    original = module.common.Run._resume
    def resume(run):   # the weights the resumed run starts from
        original(run)
        loaded.update({k: v.clone() for k, v in run.model.state_dict().items()})
    module.common.Run._resume = resume
    second = module.main([*argv, "--total-frames", "256", "--resume"])

    assert all(torch.equal(v, first["final_params"][k]) for k, v in loaded.items()) and loaded
    assert second["frames"] == 256 and second["updates"] > first["updates"]
    assert second["losses"][:len(first["losses"])] == first["losses"]
    assert all(torch.equal(v, first["initial_params"][k]) for k, v in second["initial_params"].items())
    assert second["wall_seconds"] > first["wall_seconds"] and second["params_changed"]
    assert [s["frames"] for s in second["sessions"]] == [0, 128]
    with open(tmp_path / "moved" / "progress.csv", newline="") as f:
        assert [int(r["frames"]) for r in csv.DictReader(f)] == [128, 256]


def test_a_resumed_run_stopped_before_its_first_log_line_keeps_its_rows(tmp_path, monkeypatch):
    ppo = load("ppo")
    argv = [*TINY, *SCRIPTS["ppo"], "--logdir", str(tmp_path)]
    ppo.main([*argv, "--total-frames", "128"])
    path = tmp_path / "progress.csv"
    header, row = path.read_text().splitlines()
    path.write_text("\n".join([header, *[row] * 1000]) + "\n")   # far more than a write buffer holds

    class Stopped(Exception):
        pass
    on_disk = []
    def stop(run, policy):   # what a run killed at its first iteration leaves
        on_disk.append(path.read_text())
        raise Stopped
    monkeypatch.setattr(ppo.common.Run, "end_iteration", stop)
    with pytest.raises(Stopped):
        ppo.main([*argv, "--total-frames", "256", "--resume"])
    assert on_disk[0].splitlines() == [header, *[row] * 1000]


def test_resume_refuses_another_run_s_arguments(tmp_path):
    ppo = load("ppo")
    ppo.main([*TINY, *SCRIPTS["ppo"], "--total-frames", "128", "--logdir", str(tmp_path)])
    with pytest.raises(ValueError, match=r"--resume: num_envs is 8 here and was 4 in the run in .*; a resumed run "
                                         r"can change only total_frames, target_score"):
        ppo.main([*TINY, *SCRIPTS["ppo"], "--num-envs", "8", "--logdir", str(tmp_path), "--resume"])
    # A checkpoint from before an argument existed: that run had the argument's default.
    checkpoint = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    del checkpoint["args"]["bf16"]
    torch.save(checkpoint, tmp_path / "checkpoint.pt")
    with pytest.raises(ValueError, match=r"--resume: bf16 is True here and was False in the run in "):
        ppo.main([*TINY, *SCRIPTS["ppo"], "--bf16", "--logdir", str(tmp_path), "--resume"])
    assert ppo.main([*TINY, *SCRIPTS["ppo"], "--logdir", str(tmp_path), "--resume"])["frames"] == 256
    with pytest.raises(ValueError, match="the run in .* is ppo's, not dqn's"):
        load("dqn").main([*TINY, *SCRIPTS["dqn"], "--logdir", str(tmp_path), "--resume"])
    with pytest.raises(FileNotFoundError, match="there is no checkpoint.pt in"):
        ppo.main([*TINY, *SCRIPTS["ppo"], "--logdir", str(tmp_path / "new"), "--resume"])
    with pytest.raises(ValueError, match="--resume needs --logdir"):
        ppo.main([*TINY, *SCRIPTS["ppo"], "--resume"])


def test_curves_plot_a_finished_run_and_one_still_going(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    plot_curves = load("plot_curves")
    ppo = load("ppo")
    ppo.main([*TINY, *SCRIPTS["ppo"], "--logdir", str(tmp_path / "done")])
    shutil.copytree(tmp_path / "done", tmp_path / "going")
    (tmp_path / "going" / "summary.json").unlink()   # as it is before the run's end
    done, rows = plot_curves.read_run(tmp_path / "done")
    going, _ = plot_curves.read_run(tmp_path / "going")
    assert done["frames"] == 256 and [r["frames"] for r in rows] == [128.0, 256.0] and "finished" not in done
    assert (going["algo"], going["game"], going["num_envs"], going["frames"], going["finished"]) == \
        ("ppo", "Pong", 4, 256, False)
    monkeypatch.setattr(sys, "argv", ["plot_curves.py", str(tmp_path / "done"), str(tmp_path / "going"),
                                      "--out", str(tmp_path / "curve.png")])
    plot_curves.main()
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(FileNotFoundError, match="has neither summary.json nor checkpoint.pt"):
        plot_curves.read_run(tmp_path)


def test_evaluate_scores_a_checkpoint_at_each_sticky_probability(tmp_path):
    evaluate = load("evaluate")
    load("ppo").main([*TINY, *SCRIPTS["ppo"], "--logdir", str(tmp_path)])
    result = evaluate.main([str(tmp_path), "--episodes", "2", "--max-frames", "400",
                            "--repeat-action-probability", "0.25", "0", "--out", str(tmp_path / "eval.json")])
    assert result["frames_trained"] == 256 and set(result["scores"]) == {"0.25", "0.0"}
    for run in result["scores"].values():   # 100 steps of Pong: at most a few points either way
        assert len(run["scores"]) == 2 and -21 <= run["mean"] <= 21
    assert json.loads((tmp_path / "eval.json").read_text())["scores"] == result["scores"]
    again = evaluate.main([str(tmp_path), "--episodes", "2", "--max-frames", "400", "--repeat-action-probability", "0"])
    assert again["scores"]["0.0"] == result["scores"]["0.0"]   # the seed fixes the envs and the sampled actions
    without_draws = [str(tmp_path), "--episodes", "2", "--max-frames", "400", "--repeat-action-probability", "0",
                     "--noop-max", "0", "--env"]   # then the two envs play the same games
    on_ale_py, on_cule = evaluate.main([*without_draws, "ale-py"]), evaluate.main([*without_draws, "cule"])
    assert on_ale_py["env"] == "ale-py" and on_ale_py["scores"] == on_cule["scores"]
    with pytest.raises(SystemExit):
        evaluate.main([str(tmp_path), "--noop-max", "-1"])
    with pytest.raises(SystemExit):
        evaluate.main([str(tmp_path), "--repeat-action-probability", "1.5"])
    dqn = tmp_path / "dqn"
    load("dqn").main([*TINY, *SCRIPTS["dqn"], "--logdir", str(dqn)])
    with pytest.raises(ValueError, match="is a 'dqn' run; evaluate.py takes ppo, a2c_vtrace"):
        evaluate.load_agent(dqn)


def test_evaluate_plays_on_ale_py_as_on_cule():
    """Without random draws (no sticky actions, no no-op starts) ale-py's env, through
    evaluate.py's adapter, and cule's show the same frames for the same actions."""
    evaluate = load("evaluate")
    options = dict(repeat_action_probability=0.0, noop_max=0, reward_clipping=False)
    ale, ours = evaluate.ale_py_vector_env("Pong", 2, **options), cule.atari_vector_env("Pong", 2, **options)
    (a_obs, _), (c_obs, _) = ale.reset(seed=0), ours.reset(seed=0)
    actions = torch.tensor([2, 3])
    for _ in range(50):
        assert torch.equal(a_obs, c_obs)
        a_obs, a_reward, *_ = ale.step(actions)
        c_obs, c_reward, *_ = ours.step(actions)
        assert torch.equal(a_reward.float(), c_reward.float())
    with pytest.raises(ValueError, match="ale-py runs on the CPU, not on 'cuda'"):
        evaluate.ale_py_vector_env("Pong", 1, device="cuda")


def test_arguments_from_the_command_line():
    ppo = load("ppo")
    args = ppo.common.parse_args(ppo.Args, ["--num-envs", "16", "--no-anneal-lr", "--target-score", "18.5"])
    assert (args.num_envs, args.anneal_lr, args.target_score, args.game) == (16, False, 18.5, "Pong")


def test_defaults_follow_the_device(capsys):
    ppo = load("ppo")
    on_cpu = ppo.common.parse_args(ppo.Args, ["--device", "cpu"])
    assert (on_cpu.num_envs, on_cpu.num_steps, on_cpu.num_minibatches, on_cpu.log_every) == (8, 128, 4, 100_000)
    assert on_cpu.total_frames == 40_000_000   # CleanRL's 10 million agent steps of 4 frames
    on_gpu = ppo.common.parse_args(ppo.Args, ["--device", "cuda:1"])   # only parsed: no GPU needed
    assert (on_gpu.num_envs, on_gpu.num_steps, on_gpu.num_minibatches, on_gpu.log_every) == (4096, 8, 8, 500_000)
    given = ppo.common.parse_args(ppo.Args, ["--device", "cpu", "--num-envs", "16", "--log-every", "500000"])
    assert (given.num_envs, given.num_steps, given.log_every) == (16, 128, 500_000)   # a flag given wins
    a2c = load("a2c_vtrace")
    assert a2c.common.parse_args(a2c.Args, ["--device", "cpu"]).num_envs == 16
    with pytest.raises(SystemExit):
        ppo.common.parse_args(ppo.Args, ["--help"])
    assert "(default: 4_096 on a GPU, 8 on a CPU)" in " ".join(capsys.readouterr().out.split())


def smoke_command(script: str) -> list[str]:
    """The CPU smoke command of a script's docstring, as its words."""
    doc = load(script).__doc__
    start = doc.index("python examples/", doc.index("# CPU smoke run"))
    return shlex.split(doc[start:].split("\n\n")[0].split("\n    #")[0].replace("\\\n", " "))


@pytest.mark.parametrize("script", SCRIPTS)
def test_smoke_command_as_documented(script, tmp_path):
    # As written, but for where the logs go; log lines appear during the run, and the evaluation
    # says when it starts and ends.
    words = smoke_command(script)
    assert words[:2] == ["python", f"examples/{script}.py"]
    run = subprocess.run([sys.executable, *words[1:], "--logdir", str(tmp_path)], cwd=EXAMPLES.parent,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("frames ") >= 4
    assert "evaluating: 2 episodes" in run.stdout and "evaluated: mean score" in run.stdout
    assert json.loads((tmp_path / "summary.json").read_text())["frames"] >= 4096


def test_ppo_refuses_minibatches_of_unequal_size():
    with pytest.raises(ValueError, match=r"--num-minibatches \(3\) must divide --num-envs x --num-steps \(2 x 5\)"):
        load("ppo").main(["--num-envs", "2", "--num-steps", "5", "--num-minibatches", "3", "--device", "cpu"])


def discounted_returns(rewards, dones, bootstrap, gamma):
    """sum_k gamma^k r_{t+k} + gamma^(T-t) V(x_T), cut where done, by a plain loop over each env."""
    steps, envs = rewards.shape
    out = torch.zeros(steps, envs, dtype=torch.float64)
    for e in range(envs):
        running = bootstrap[e].item()
        for t in reversed(range(steps)):
            running = rewards[t, e].item() + gamma * running * (not dones[t, e])
            out[t, e] = running
    return out


def test_on_policy_vtrace_and_gae_give_n_step_returns():
    torch.manual_seed(0)
    steps, envs, gamma = 6, 3, 0.9
    rewards, values = torch.randn(steps, envs, dtype=torch.float64), torch.randn(steps + 1, envs, dtype=torch.float64)
    dones = torch.rand(steps, envs) < 0.3
    expected = discounted_returns(rewards, dones, values[-1], gamma)

    targets, advantages = load("a2c_vtrace").vtrace(torch.zeros(steps, envs, dtype=torch.float64), rewards, dones,
                                                    values, gamma)
    assert torch.allclose(targets, expected)
    next_targets = torch.cat([targets[1:], values[-1:]])
    assert torch.allclose(advantages, rewards + gamma * (~dones) * next_targets - values[:-1])
    gae = load("ppo").gae(rewards, values[:-1], dones, values[-1], gamma, gae_lambda=1.0)
    assert torch.allclose(gae + values[:-1], expected)


def test_vtrace_matches_its_definition_off_policy():
    """Espeholt et al. (2018), eq. 1, summed term by term: v_s = V(x_s) + sum_t gamma^(t-s)
    (c_s ... c_(t-1)) rho_t (r_t + gamma V(x_(t+1)) - V(x_t)), with truncated importance weights."""
    torch.manual_seed(1)
    steps, gamma, rho_bar, c_bar = 5, 0.95, 1.0, 0.8
    log_rhos = torch.randn(steps, 1, dtype=torch.float64)
    rewards, values = torch.randn(steps, 1, dtype=torch.float64), torch.randn(steps + 1, 1, dtype=torch.float64)
    targets, _ = load("a2c_vtrace").vtrace(log_rhos, rewards, torch.zeros(steps, 1, dtype=torch.bool), values,
                                           gamma, rho_bar, c_bar)
    rho, c = log_rhos.exp().clamp(max=rho_bar)[:, 0], log_rhos.exp().clamp(max=c_bar)[:, 0]
    r, v = rewards[:, 0], values[:, 0]
    for s in range(steps):
        expected = v[s] + sum(gamma ** (t - s) * torch.prod(c[s:t]) * rho[t] * (r[t] + gamma * v[t + 1] - v[t])
                              for t in range(s, steps))
        assert torch.allclose(targets[s, 0], expected)


def test_replay_buffer_pairs_each_observation_with_the_next_step_s():
    dqn = load("dqn")
    num_envs, slots = 3, 4
    buffer = dqn.ReplayBuffer(num_envs * slots, num_envs, torch.Size([1]), torch.device("cpu"))
    for step in range(6):   # the buffer wraps: slots hold steps 2..5
        obs = (10 * step + torch.arange(num_envs, dtype=torch.uint8)).view(num_envs, 1)   # 10 * step + env
        buffer.add(obs, torch.full((num_envs,), step), torch.zeros(num_envs), torch.zeros(num_envs, dtype=torch.bool))
    assert buffer.transitions == 3 * num_envs
    obs, actions, _, _, next_obs = buffer.sample(1000)
    assert set(actions.tolist()) == {2, 3, 4}   # never the newest step (5), whose next observation is not stored
    assert torch.equal(next_obs, obs + 10)       # the same env, one step later


# Two updates or more on each process, whose envs are 4 each.
DISTRIBUTED = {
    "ppo": ["--num-envs", "4", "--num-steps", "8", "--num-minibatches", "2", "--update-epochs", "1",
            "--total-frames", "512"],
    "a2c_vtrace": ["--num-envs", "4", "--num-batches", "2", "--num-steps", "4", "--steps-per-update", "2",
                   "--total-frames", "256"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("script, nodes", [("ppo", 1), ("ppo", 2), ("a2c_vtrace", 2)])
def test_torchrun_processes_end_with_the_same_weights(script, nodes, tmp_path):
    # Two processes on one node (--standalone, as on one multi-GPU machine), or one on each of
    # two nodes meeting at a c10d rendezvous, as on a cluster: here two torchrun agents on this
    # machine, each launching one process (examples/README.md, Several machines).
    weights = tmp_path / "weights"
    run = [str(EXAMPLES / f"{script}.py"), *TINY, *DISTRIBUTED[script], "--eval-every", "0",
           "--logdir", str(tmp_path / "logs"), "--save-weights", str(weights)]
    torchrun = [sys.executable, "-m", "torch.distributed.run"]
    if nodes == 1:
        commands = [[*torchrun, "--standalone", "--nproc_per_node=2", *run]]
    else:
        rendezvous = ["--nnodes=2", "--nproc_per_node=1", "--rdzv-backend=c10d", "--rdzv-id=test",
                      f"--rdzv-endpoint=127.0.0.1:{free_port()}"]
        commands = [[*torchrun, *rendezvous, *run]] * nodes   # the rendezvous numbers the nodes
    env = dict(os.environ, OMP_NUM_THREADS="1")
    launched = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
                for c in commands]
    try:
        outputs = [p.communicate(timeout=240)[0] for p in launched]
    finally:
        for p in launched:
            p.kill()
    assert all(p.returncode == 0 for p in launched), "\n".join(o[-3000:] for o in outputs)

    rank0, rank1 = (torch.load(f"{weights}.rank{r}.pt") for r in (0, 1))
    initial = torch.load(f"{weights}.initial.pt")
    assert rank0.keys() == rank1.keys() == initial.keys()
    assert all(torch.equal(rank0[k], rank1[k]) for k in rank0)
    assert all(not torch.equal(rank0[k], initial[k]) for k in rank0)
    summary = json.loads((tmp_path / "logs" / "summary.json").read_text())
    assert summary["world_size"] == 2 and summary["process_group"] == "gloo"
    assert summary["frames"] == int(DISTRIBUTED[script][-1]) and summary["updates"] >= 2
    assert summary["env_seeds"] == [0, 1]   # --seed 0: each process's envs seeded apart


@pytest.mark.parametrize("script", ["ppo", "a2c_vtrace"])
def test_two_gloo_processes_learn_as_one_process_with_twice_the_envs(script, tmp_path):
    # Updates on one rollout of 8 envs: its envs split between two processes, or all in one.
    # DDP averages the gradients of equal-sized means, and PPO normalises its advantages over
    # both processes (with each process's own statistics the weights differ by 9e-4 here, 3e-7
    # with the shared ones; an update moves them by about 5e-4).
    helper = str(EXAMPLES.parent / "tests" / "_ddp_update.py")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for command in ([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2", helper,
                     script, str(tmp_path / "two.pt")],
                    [sys.executable, helper, script, str(tmp_path / "one.pt")]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    two, one = torch.load(tmp_path / "two.pt"), torch.load(tmp_path / "one.pt")
    torch.manual_seed(0)
    initial = load(script).common.ActorCritic(6).state_dict()   # as the helper makes it
    for name, weights in one.items():
        assert (weights - initial[name]).abs().max() > 1e-4, name   # the updates moved every parameter
        torch.testing.assert_close(two[name], weights, rtol=0, atol=1e-5, msg=name)
