#!/bin/bash
# One call on a GPU machine: build the CPU extension, run the CUDA tests (GPU == CPU bit for bit),
# benchmark, profile. Logs and results go to $OUT (default ./gpu-out). Stages, in order, from
# the arguments: build smoke test test-long steps bench variants ncu loop train. Needs torch with CUDA, CuPy, and for the
# oracle and the peers ale-py, gymnasium and EnvPool on PYTHONPATH (see ../shared/tools/gpu-site.sh).
# What fits a session's 15 device minutes (H100, 2026-11-26): build 1 min, smoke 0.5, test over 4
# (TEST_WORKERS=8: each worker compiles the all-games module first), steps 3, ncu 0.4 a step.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:$PWD/.gpu-site:${PYTHONPATH:-}
log() { echo "== $* ($(date +%T))"; }
for stage in "$@"; do
  case $stage in
    build)   # the machine's default compilers link libstdc++ statically, which breaks next to torch
      log build
      CC=gcc CXX=g++ python3 setup.py -q build_ext --inplace -j 16 > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
      readelf -d cule/_cpu*.so | grep -q 'libstdc++.so.6' && echo "libstdc++ linked dynamically" ;;
    smoke)
      log smoke
      python3 - <<'PY'
import time, torch, cule
t = time.time()
env = cule.CuleEnv("pong", num_envs=8, device="cuda", frameskip=4, grayscale=True, img_height=84, img_width=84)
obs, info = env.reset(seed=0)
print("compiled and reset in", round(time.time() - t, 1), "s;", obs.shape, obs.device, torch.cuda.get_device_name())
for _ in range(100): out = env.step(torch.randint(0, 6, (8,), device="cuda"))
print("lives", out[4]["lives"].tolist(), "frames", out[4]["frame_number"].tolist())
PY
      ;;
    test)    # every test marked cuda but the 10,000-step runs (test-long), on TEST_WORKERS processes
      log test
      timeout ${TEST_TIMEOUT:-900} python3 -m pytest -q -p no:cacheprovider -p no:benchmark -W ignore::DeprecationWarning \
        -rf -n ${TEST_WORKERS:-12} tests/test_cuda.py tests/test_wrappers.py -m "cuda and not slow" --durations=8 2>&1 \
        | tee "$OUT/test.log" | tail -25 ;;
    test-long)
      log test-long
      python3 -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning tests/test_cuda.py -m "cuda and slow" \
        2>&1 | tee "$OUT/test-long.log" | tail -15 ;;
    steps)   # each of the GPU's steps at STEP_ENVS envs, random actions: the emulation alone
      for step in split in-passes one-kernel; do
        log "steps: $step"
        timeout ${STEP_TIMEOUT:-120} python3 benchmarks/fps.py --games pong --gpu-envs ${STEP_ENVS:-4096 16384 65536} \
          --loads emulation --seconds ${STEP_SECONDS:-2} --skip cpu ale vector envpool divergence --gpu-step $step \
          --out "$OUT" 2>&1 | grep -E "cule-gpu|Error"
      done ;;
    bench)
      log bench
      timeout ${BENCH_TIMEOUT:-1200} python3 benchmarks/fps.py --games pong ${BENCH_ARGS:-} --out "$OUT" 2>&1 | tee "$OUT/bench.log" ;;
    variants)   # the GPU's steps (split, the warp schedule in both passes, one kernel) and compiler options, 16,384 envs
      log variants
      for opts in "" "--maxrregcount=128" "--maxrregcount=96" "--maxrregcount=64"; do
        for step in split in-passes one-kernel; do
          CULE_NVRTC_OPTIONS="$opts" timeout 120 python3 benchmarks/fps.py --games pong --gpu-envs 16384 --loads emulation \
            --seconds 3 --skip cpu ale vector envpool divergence --gpu-step $step --out /tmp/variants 2>&1 | grep cule-gpu \
            | sed "s/^/[$opts] /"
        done
      done ;;
    ncu)     # each GPU step's kernels on young envs (step 7, as 2026-11-23) and on envs 1,000 steps old,
             # beside the SIMT models' figures for the same (benchmarks/simt_model.py, render_model.py)
      for step in ${NCU_STEPS:-split in-passes one-kernel}; do
        per_step=2; [ $step = one-kernel ] && per_step=1   # the launches a step makes that the regex takes
        for age in ${NCU_AGES:-6 1000}; do
          log "ncu $step, $age steps"
          timeout ${NCU_TIMEOUT:-300} ncu --clock-control none -k regex:"cule_(step|render)" -s $((age * per_step)) \
            -c $per_step \
            --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
            --section SourceCounters --section MemoryWorkloadAnalysis \
            python3 benchmarks/profile_step.py --gpu-step $step --steps $((age + 1)) > "$OUT/ncu-$step-$age.txt" 2>&1
          grep -E "^  cule_|Active Threads Per Warp|Registers Per Thread|excessive sectors|Duration" "$OUT/ncu-$step-$age.txt"
        done
      done ;;
    loop)    # a minute of a PyTorch loop under torch's sync debug mode, then the profiler
      log loop
      timeout ${LOOP_TIMEOUT:-200} python3 benchmarks/loop_profile.py --seconds ${LOOP_SECONDS:-60} --out "$OUT" 2>&1 \
        | tee "$OUT/loop.log" | tail -45 ;;
    train)   # time to a Pong mean score of 18 (examples/) with the GPU defaults, evaluated every 250,000
             # frames, each run cut at TRAIN_TIMEOUT s; with several GPUs also one process per GPU (torchrun).
             # Its plumbing on a CPU: TRAIN_DEVICE=cpu TRAIN_ARGS="--total-frames 2048 --num-envs 8 ..."
      gpus=$(python3 -c "import torch; print(torch.cuda.device_count())")
      for script in ${TRAIN_SCRIPTS:-ppo a2c_vtrace}; do
        for procs in 1 $([ "${gpus:-1}" -gt 1 ] && echo "$gpus"); do
          name=train-$script-${procs}gpu
          launch="python3"
          [ "$procs" -gt 1 ] && launch="torchrun --standalone --nproc_per_node=$procs"
          log "$name"
          timeout ${TRAIN_TIMEOUT:-420} $launch examples/$script.py --device ${TRAIN_DEVICE:-cuda} --game Pong --target-score 18 \
            --eval-every 250000 --logdir "$OUT/$name" ${TRAIN_ARGS:-} > "$OUT/$name.log" 2>&1
          grep -E "frames |time:|evaluated" "$OUT/$name.log" | tail -6
          python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print('reached', s['reached_target'], \
'score', s['eval_score'], 'frames', s['frames'], 'train s', round(s['train_seconds']))" "$OUT/$name/summary.json" \
            2>/dev/null || echo "$name: no summary (cut at ${TRAIN_TIMEOUT:-420} s?)"
        done
      done ;;
  esac
done
log done
