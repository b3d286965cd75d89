#!/bin/bash
# One call on a GPU machine: the checks, benchmarks and training runs that need a GPU. Logs and
# results go to $OUT (default ./gpu-out). Stages, in the order given as arguments:
#   build smoke test test-long steps bench variants ncu ncu-source loop      the emulator: exact, fast
#   games games-ncu                                                 ... game by game
#   cold-start pong pong-sticky torchrun train-fps train-fps-variants      training on one GPU
#   host-memory                                                            host RAM at the GPU's scale
# Needs torch with CUDA, CuPy, and gymnasium (with ale-py and EnvPool for the oracle and the
# peers) on PYTHONPATH: ../shared/tools/gpu-site.sh builds .gpu-site, which the call carries.
# The training queue, time to a score first (the order is the priority: a call cut short keeps
# the stages before, and a run cut short writes its summary; cold-start first, as it compiles
# the kernels the others use). A call of about 9 minutes: A2C + V-trace at 1,200 envs to Pong 18,
# 28.0M frames on the CPU backend, estimated at 3.5-3.7 minutes of training (docs/results.md):
#   TRAIN_SECONDS=240 EVAL_EVERY=2000000 bash benchmarks/gpu_run.sh build cold-start pong
# then PPO at 4,096 envs, both with sticky actions, torchrun on all the machine's GPUs:
#   PONG_RUNS=ppo:1 STICKY_RUNS="a2c_vtrace:1 ppo:1" TRAIN_SECONDS=90 EVAL_EVERY=2000000 \
#     bash benchmarks/gpu_run.sh build pong pong-sticky torchrun
# and where device time is left:
#   bash benchmarks/gpu_run.sh build train-fps train-fps-variants host-memory
# What fits a session's 15 device minutes (H100, 2026-11-26): build 1 min, smoke 0.5, test over 4
# (TEST_WORKERS=8: each worker compiles the all-games module first), steps 3, ncu 0.4 a step.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:${GPU_SITE:-$PWD/.gpu-site}:${PYTHONPATH:-}
log() { echo "== $* ($(date +%T))"; }
# NVRTC's kernel cache, new on a new machine (cold-start times it empty, then fills it).
export CUPY_CACHE_DIR=${CUPY_CACHE_DIR:-$PWD/.gpu-cache}
# The training runs' directories, outside $OUT (which brings back 8 files at most), packed after
# each run into $OUT/runs.tgz without checkpoints and TensorBoard events.
RUNS=${RUNS:-/tmp/gpu-runs}
TRAIN_SECONDS=${TRAIN_SECONDS:-100}
mkdir -p "$RUNS"
pack() { tar czf "$OUT/runs.tgz" -C "$RUNS" --exclude=checkpoint.pt --exclude='*.tmp' --exclude='events.out.*' .; }
# The training stages run on a CPU too, for their plumbing (tests/test_training_benchmarks.py):
# TRAIN_DEVICE=cpu TRAIN_ARGS="--backend cuda --num-envs 20 ...".
train() {   # name script seed flags...: examples/<script>.py on Pong, cut at TRAIN_SECONDS of training
  local name=$1-$2-s$3 script=$2 seed=$3
  shift 3
  log "$name"
  TQDM_DISABLE=1 timeout -k 30 $((TRAIN_SECONDS + 300)) ${LAUNCH:-python3} examples/$script.py --device ${TRAIN_DEVICE:-cuda} \
    --game Pong --seed "$seed" --max-train-seconds "$TRAIN_SECONDS" --eval-every ${EVAL_EVERY:-500000} \
    --logdir "$RUNS/$name" "$@" ${TRAIN_ARGS:-} > "$RUNS/$name.log" 2>&1
  grep -aE "^frames |evaluated|Error" "$RUNS/$name.log" | tail -5
  python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print('stopped:', s['stopped'], '| reached:', \
s['reached_target'], '| score', s['eval_score'], '| frames', s['frames'], '| train s', round(s['train_seconds']), \
'| processes', s['world_size'], s['process_group'], '| phases', {k: round(v, 1) for k, v in s['phase_seconds'].items()})" \
    "$RUNS/$name/summary.json" \
    || echo "$name: no summary.json"
  pack
}
# ncu's sections for the kernels' profiles, and the lines of them each stage prints
NCU_SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
  --section SourceCounters --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
NCU_LINES="^  cule_|Active Threads Per Warp|Registers Per Thread|excessive sectors|Duration|[Bb]ank"
for stage in "$@"; do
  case $stage in
    build)   # the machine's default compilers link libstdc++ statically, which breaks next to torch
      log build
      CC=gcc CXX=g++ python3 setup.py -q build_ext --inplace -j 16 > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
      readelf -d cule/_core*.so | grep -q 'libstdc++.so.6' && echo "libstdc++ linked dynamically" ;;
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
             # beside the SIMT models' figures for the same (kernel_models/simt_model.py, render_model.py)
      for step in ${NCU_STEPS:-split in-passes one-kernel}; do
        per_step=2; [ $step = one-kernel ] && per_step=1   # the launches a step makes that the regex takes
        for age in ${NCU_AGES:-6 1000}; do
          log "ncu $step, $age steps"
          timeout ${NCU_TIMEOUT:-300} ncu --clock-control none -k regex:"cule_(step|render)" -s $((age * per_step)) \
            -c $per_step $NCU_SECTIONS \
            python3 benchmarks/profile_step.py --gpu-step $step --steps $((age + 1)) > "$OUT/ncu-$step-$age.txt" 2>&1
          grep -E "$NCU_LINES" "$OUT/ncu-$step-$age.txt"
        done
      done ;;
    ncu-source)   # per machine instruction, how often the in-passes state kernel ran it (ncu's source
                  # counters; Pong, 6 steps old, as the ncu stage), and the module it ran (its CUBIN, with
                  # line information), packed into ncu-source.tgz: the SIMT model charges each part of the
                  # interpreter its static count, every inline path (docs/results.md); these give what ran
      log "ncu source counters, in-passes, 6 steps"
      src=/tmp/ncu-source
      rm -rf $src && mkdir -p $src/cache
      CUPY_CACHE_DIR=$src/cache CULE_NVRTC_OPTIONS=-lineinfo timeout ${NCU_TIMEOUT:-300} ncu --clock-control none \
        -k regex:cule_step_in_passes -s 6 -c 1 --section SourceCounters -o $src/report -f \
        python3 benchmarks/profile_step.py --gpu-step in-passes --steps 7 > $src/ncu.log 2>&1
      ncu --import $src/report.ncu-rep --page source --csv --print-source sass > $src/source.csv 2> $src/source.err
      tail -3 $src/ncu.log $src/source.err; head -c 400 $src/source.csv; echo
      tar czf "$OUT/ncu-source.tgz" -C $src . ;;
    games)   # the default step against the split step on the Atari-57 (GAMES), GAMES_ENVS envs, one JSON
             # kept across calls (--resume): each game compiles its module first, so GAMES_TIMEOUT cuts a call
             # and the next goes on
      log games
      timeout ${GAMES_TIMEOUT:-420} python3 benchmarks/games_fps.py ${GAMES:+--games $GAMES} --envs ${GAMES_ENVS:-16384} \
        --seconds 2 --out "$OUT/games_fps.json" --resume 2>&1 | tail -60 ;;
    games-ncu)   # ncu on the in-passes step of the games where it gains least (games' JSON, or NCU_GAMES), into one file
      games=${NCU_GAMES:-$(python3 -c "import json, sys; r = json.load(open(sys.argv[1]))['results']; \
print(' '.join(sorted(r, key=lambda g: r[g]['in-passes'] / r[g]['split'])[:5]))" "$OUT/games_fps.json")}
      for game in $games; do
        log "ncu in-passes, $game, 1000 steps"
        timeout ${NCU_TIMEOUT:-300} ncu --clock-control none -k regex:"cule_step" -s 1000 -c 1 $NCU_SECTIONS \
          python3 benchmarks/profile_step.py --gpu-step in-passes --game "$game" --steps 1001 > /tmp/ncu-game.txt 2>&1
        { echo "== $game"; cat /tmp/ncu-game.txt; } >> "$OUT/ncu-games.txt"
        grep -E "$NCU_LINES" /tmp/ncu-game.txt
      done ;;
    loop)    # a minute of a PyTorch loop under torch's sync debug mode, then the profiler
      log loop
      timeout ${LOOP_TIMEOUT:-200} python3 benchmarks/loop_profile.py --seconds ${LOOP_SECONDS:-60} --out "$OUT" 2>&1 \
        | tee "$OUT/loop.log" | tail -45 ;;
    cold-start)   # a new process to its first step at 4,096 envs, with an empty and a warm NVRTC cache; it
                  # fills $CUPY_CACHE_DIR, so that the stages after it start warm
      log cold-start
      timeout ${COLD_START_TIMEOUT:-300} python3 benchmarks/cold_start.py --device cuda --num-envs 4096 --out "$OUT" \
        --fill-cache "$CUPY_CACHE_DIR" 2>&1 | tail -3 ;;
    pong)    # time to a Pong mean evaluation score of 18 under the CuLE paper's protocol (no sticky actions,
             # in training or evaluation; up to 30 no-op starts), each run cut at TRAIN_SECONDS of training.
             # PONG_RUNS: script:seed ...
      for run in ${PONG_RUNS:-a2c_vtrace:1}; do
        train pong "${run%:*}" "${run#*:}" --repeat-action-probability 0 --eval-repeat-action-probability 0 \
          --target-score 18
      done ;;
    pong-sticky)   # the same budget under v5's sticky actions (0.25 in training and evaluation), no target,
                   # evaluated less often (the whole budget runs: at 100K frames/s, 10M frames)
      for run in ${STICKY_RUNS:-a2c_vtrace:1}; do
        EVAL_EVERY=${STICKY_EVAL_EVERY:-2000000} train pong-sticky "${run%:*}" "${run#*:}"
      done ;;
    torchrun)   # the examples' multi-GPU path: one process per GPU, DDP over NCCL (for one process too)
      gpus=$(python3 -c "import torch; print(max(torch.cuda.device_count(), 1))")
      LAUNCH="python3 -m torch.distributed.run --standalone --nproc_per_node=$gpus" TRAIN_SECONDS=${TORCHRUN_SECONDS:-20} \
        train torchrun a2c_vtrace 1 --repeat-action-probability 0 --eval-repeat-action-probability 0 --eval-envs 8 ;;
    train-fps)   # the training loop's frames/s beside emulation alone, TRAIN_FPS_ENVS envs, the GPU defaults
      log train-fps
      timeout ${TRAIN_FPS_TIMEOUT:-240} python3 benchmarks/train_fps.py --device cuda \
        --num-envs ${TRAIN_FPS_ENVS:-1024 4096 16384} --seconds ${TRAIN_FPS_SECONDS:-6} --warmup 4 --out "$OUT" \
        ${TRAIN_FPS_ARGS:-} 2>&1 | grep -E "frames/s|wrote|Error" ;;
    train-fps-variants)   # the same at 4,096 envs with bf16 and torch.compile
      log train-fps-variants
      timeout ${TRAIN_FPS_TIMEOUT:-400} python3 benchmarks/train_fps.py --device cuda --num-envs 4096 \
        --variants "" "--bf16" "--compile default" "--bf16 --compile max-autotune" --seconds 6 --warmup 4 \
        --out "$OUT" 2>&1 | grep -E "frames/s|wrote|Error" ;;
    host-memory)   # host RAM per env, a new process per count, up to 262,144 envs (about 50 GB of states
                   # on the GPU, 75 GB with the frames: an H200; a count that does not fit records its error)
      log host-memory
      timeout ${HOST_MEMORY_TIMEOUT:-300} python3 benchmarks/host_memory.py --device cuda \
        --num-envs ${HOST_MEMORY_ENVS:-4096 65536 262144} --out "$OUT" 2>&1 | tail -4 ;;
  esac
done
log done
