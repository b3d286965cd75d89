"""The memory model of the GPU kernels: the global memory sectors each kernel of a step takes, by
buffer and part of the state, as built and under other layouts, from counts of every load and
store the kernels make.

The CUDA kernels run on the host (the CUDA backend's HostKernels) in a build that counts every
load and store of their optimised code (`make build/memory/_cuda_host.so`, bindings/memory_count.h),
by buffer and by byte offset within an env's element (its machine, its render job, its frame
buffers) or a warp's (its plan, its log's events). A kernel's step is played as the committed
ncu profiles played it (v5 settings, random actions, `--age` steps after reset(seed)), then one
step counted.

A warp's memory instruction takes, for its active lanes, the sectors their addresses span. Per
layout of the envs' state:

  aos         as built: each env's machine, render job and frame buffers a block of its own, so a
              lane's access to them spans sectors of its own: the warp's sectors are the sum of its
              lanes'. Arrays of a few bytes an env (rewards, flags, RNG) put the lanes side by side;
              the ROM and the step's settings are the same for every lane. The TIA logs' events
              put a warp's lanes' event k side by side (tia_log.h), counted as if a warp's lanes
              stored and read one count together (simt_model.py's log_sectors measures how often
              they do). The in-passes kernel keeps each lane's TIA and its warp's RAM in shared
              memory for a frame (kernels.cu's `tia_slots`, console.h's warp_ram_tile): no global
              sectors there, and a warp access is counted one shared-memory wavefront: its lanes'
              TIA slots lie an odd number of words apart (32 banks: no conflicts at one field),
              and a RAM byte's 32 lanes fill 8 banks, where lanes at different bytes of the tile
              can conflict (up to 4 ways: a lower bound there).
  <part>-interleaved   as aos, with one part of every env's state (the TIA's fields, the TIA log's
              counters, ...) interleaved across a warp's lanes, byte k of lane l at k x 32 + l: a warp
              access at one offset then spans ceil(lanes x bytes / 32) sectors (not built)
  tia_hot-in-registers   the TIA's most accessed fields (TIA_HOT) in registers for a frame: a load
              and a store of each a frame instead of their accesses (not built)

Lanes side by side share sectors only with the lanes that access with them: `lanes`, per kernel,
are the active threads per warp (the SIMT model's lanes per pass, simt_model.py and
render_model.py: they match ncu's within 25%, docs/results.md). Sectors are counted per access,
as ncu counts them (a sector read twice counts twice); what the model leaves out: local memory
(the GPU's spills, none in the profiled kernels) and the loads g++ keeps in registers where the
GPU's compiler reloads them, or the reverse.

    make memory-model                                   # Pong, both two-pass steps, age 6
    python kernel_models/memory_model.py --game pong --envs 256 --age 6 --steps split in-passes

writes benchmarks/results/memory_model-<date>.json, with ncu's sectors per warp-frame beside the
model's for the profiled kernels.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIB = ROOT / "build" / "memory" / "_cuda_host.so"
os.environ.setdefault("CULE_CUDA_HOST_LIB", str(MEMORY_LIB))
os.environ.setdefault("CULE_CORE_LIB", "")   # the package's own, not simt_model's trace build
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmarks._results import new_result_path  # noqa: E402
from simt_model import NCU_FILES, NCU_WARP_FRAMES, WARP, machine, v5_settings  # noqa: E402

SECTOR = 32
# The active threads per warp a kernel's memory instructions run with: the SIMT model's lanes per
# pass at the profiled age (simt_model-2026-11-26-7.json: 31.4 with the warp schedule, 6.7 each
# lane its own instruction; render_model-2026-11-26-2.json: 16.0 in step, 31.7 by clock).
LANES = {"cule_step_in_passes": 31.4, "cule_step_logged": 6.7, "cule_step": 6.7, "cule_render": 16.0,
         "cule_render_by_clock": 31.7, "cule_redo": 1.0, "cule_hold_frames": 32.0}
# The profiled kernels whose layout has changed since: ncu's figure is kept beside the model's as
# the layout's before, not compared.
OWN_EVENTS = "each lane's log's events a run of its own (before log_events)"
NCU_LAYOUT_BEFORE = {"cule_step_in_passes": "each lane's TIA in global memory (before tia_slots); " + OWN_EVENTS,
                     "cule_step_logged": OWN_EVENTS, "cule_render": OWN_EVENTS, "cule_render_by_clock": OWN_EVENTS}
# The TIA's fields most of its accesses touch (74% of them in Pong's state kernels: the model's
# `tia_fields`, 2026-11-28), 28 bytes: the bookkeeping of every access's drawing up to its clock.
TIA_HOT = ("clock_last_update", "clocks_to_end_of_line", "enabled", "clock_frame_start", "frame_pos",
           "clock_start_display", "pal", "clock_stop_display", "vblank", "hmove_blank")
# The candidate layouts: parts interleaved across a warp's lanes (MACHINE_PARTS, RENDER_JOB_PARTS,
# "screens": the frame buffers, "tia_rest": the TIA's fields other than TIA_HOT), and the TIA_HOT
# fields kept in registers for a frame (a load and a store each a frame, as console.h's Bus keeps its own).
CANDIDATES = {
    "tia-interleaved": dict(interleave=["tia"]),
    "tia_hot-in-registers": dict(registers=True),
    "tia_hot-in-registers+tia_rest-interleaved": dict(registers=True, interleave=["tia_rest"]),
    "log-interleaved": dict(interleave=["log_counters"]),
    "screens-interleaved": dict(interleave=["screens"]),
    "all": dict(registers=True, interleave=["tia_rest", "log_counters", "screens"]),
}
# The kernels whose threads are envs (the render's: an env's shown frame), each lane's state its own
# block: the others (a thread per row or byte of the observations) are counted, not modelled.
THREAD_PER_ENV = {"cule_step", "cule_step_logged", "cule_step_in_passes", "cule_render", "cule_render_by_clock",
                  "cule_redo", "cule_reset"}


def ncu_sectors(path: Path) -> dict[str, float]:
    """Each kernel's global sectors per warp-frame in an ncu report (simt_model's NCU_FILES)."""
    out, kernel = {}, None
    text = path.read_text().split("\n")
    for i, line in enumerate(text):
        if line.startswith("  cule_"):
            kernel = line.split()[0]
        if "excessive sectors" in line and kernel:
            total = text[i + 1].split("total ")[1].split(" sectors")[0]
            out[kernel] = int(total.replace(",", "")) / NCU_WARP_FRAMES
    return out


def part_of(parts: tuple, size: int) -> np.ndarray:
    """The name of each offset's part: the first listed that holds it."""
    names = np.full(size, "", dtype=object)
    for name, offset, n in parts:
        where = names[offset:offset + n] == ""
        names[offset:offset + n][where] = name
    return names


class Counter:
    """Wraps a CudaBackend's launches: those of a counted step are counted, buffer by buffer."""

    def __init__(self, backend, module):
        self.backend, self.module = backend, module
        self.active = False
        self.launches = []
        launch = backend._launch

        def counted(name, threads, block, warps=False, **args):
            if not self.active:
                return launch(name, threads, block, warps=warps, **args)
            module.count_memory(self.buffers(args))
            try:
                launch(name, threads, block, warps=warps, **args)
            finally:
                self.launches.append((name, {k: {field: np.frombuffer(v, np.uint64) for field, v in d.items()}
                                             for k, d in module.memory_counts().items()}))
        backend._launch = counted

    def buffers(self, args: dict) -> list:
        """(name, address, bytes, element bytes) of each tensor argument: an env's element where the
        tensor has one per env, a warp's for the plans and logs' events, else the whole tensor; and
        the in-passes kernel's shared memory (this host thread's, a block's): a lane's TIA slot,
        the warp's RAM tile."""
        import torch

        from cule import _core
        n = self.backend.num_envs
        # the logs' events too: the render kernels reach them through the jobs' logs (tia_log.h)
        args = {"log_events": self.backend._log_events, **args}
        out = []
        for name, t in args.items():
            if not isinstance(t, torch.Tensor) or t.numel() == 0:
                continue
            size = t.numel() * t.element_size()
            if name in ("warp_plans", "log_events"):
                element = size // -(-n // WARP)
            elif t.dim() and t.shape[0] == n and name not in ("pool", "pool_screens"):
                element = size // n
            else:
                element = size
            out.append((name, t.data_ptr(), size, element))
        address, size = self.module.tia_slots()
        out.append(("tia_slots", address, size, _core.TIA_SLOT_BYTES))
        address, size = self.module.ram_tile()
        out.append(("ram_tile", address, size, size))
        return out


def kind_of(buffer: str, element: int) -> str:
    """How a warp's lanes meet in a buffer: each its own sectors, side by side, or the same."""
    if buffer == "log_events":
        return "interleaved"
    if buffer in ("tia_slots", "ram_tile"):
        return "shared memory"
    if buffer in ("rom", "config", "skip", "axes", "warp_plans"):   # a warp's plan: every lane's the same
        return "shared"
    return "own" if element >= SECTOR else "side by side"


def warp_sectors(counts: dict, kind: str, element: int, lanes: float, interleaved: np.ndarray | None) -> float:
    """The sectors a warp's instructions take for the lane accesses `counts` (by offset), `lanes`
    of them an instruction."""
    total = 0.0
    for op in ("load", "store"):
        accesses, nbytes, sectors = (counts[f"{op}_{f}"].astype(np.float64) for f in ("accesses", "bytes", "sectors"))
        if kind == "own":
            own = sectors
            if interleaved is not None:   # those parts: lanes x bytes side by side, per instruction
                width = np.divide(nbytes, accesses, out=np.zeros_like(nbytes), where=accesses > 0)
                shared = accesses * np.ceil(lanes * width / SECTOR) / lanes
                own = np.where(interleaved, shared, sectors)
            total += float(own.sum())
        elif kind == "side by side":   # lanes x element bytes, per instruction
            total += float(accesses.sum()) * math.ceil(lanes * element / SECTOR) / lanes
        elif kind == "interleaved":    # the lanes' word k side by side
            width = np.divide(nbytes, accesses, out=np.zeros_like(nbytes), where=accesses > 0)
            total += float((accesses * np.ceil(lanes * width / SECTOR)).sum()) / lanes
        elif kind == "shared memory":  # not global memory (shared_wavefronts)
            pass
        else:                          # the same address for every lane
            total += float(accesses.sum()) / lanes
    return total


def ideal_sectors(counts: dict) -> float:
    """The sectors the bytes would take, packed: what ncu's excess is measured against."""
    return sum(float(counts[f"{op}_bytes"].sum()) for op in ("load", "store")) / SECTOR


def candidate_sectors(counts: dict, kind: str, element: int, lanes: float, names: np.ndarray | None,
                      candidate: dict, fields: tuple, warp_frames: float) -> float:
    """A buffer's warp sectors under a candidate layout."""
    if names is None or kind != "own":
        return warp_sectors(counts, kind, element, lanes, None)
    names = names.copy()
    hot = np.zeros(len(names), bool)
    for field, offset, size in fields:
        if offset < len(names) and names[offset] == "tia":
            names[offset:offset + size] = "tia" if field in TIA_HOT else "tia_rest"
            hot[offset:offset + size] = field in TIA_HOT
    parts = set(candidate.get("interleave", []))
    if "tia" in parts:
        parts.add("tia_rest")
    interleave = np.isin(names, sorted(parts))
    if not candidate.get("registers") or not hot.any():
        return warp_sectors(counts, kind, element, lanes, interleave)
    kept = {k: np.where(hot, 0, v) for k, v in counts.items()}
    hot_fields = sum(1 for f, o, _ in fields if f in TIA_HOT and o < len(names))
    return warp_sectors(kept, kind, element, lanes, interleave) + 2 * hot_fields * WARP * warp_frames


def tia_fields(counts: dict, fields: tuple, warp_frames: float, base: int = 0) -> list:
    """The TIA's fields by accesses, most first: each one's loads and stores per lane-frame.
    `base`: the TIA's offset in `fields` (its offset in a machine) where the counts are a TIA's."""
    rows = []
    for name, offset, size in fields:
        span = slice(offset - base, offset - base + size)
        loads, stores = (float(counts[f"{op}_accesses"][span].sum()) / (warp_frames * WARP) for op in ("load", "store"))
        if loads or stores:
            rows.append(dict(field=name, bytes=size, loads_per_lane_frame=loads, stores_per_lane_frame=stores))
    return sorted(rows, key=lambda r: -(r["loads_per_lane_frame"] + r["stores_per_lane_frame"]))


def summarise(launches: list, module, num_envs: int, frameskip: int) -> dict:
    """Per kernel: each buffer's lane accesses, bytes and sectors, the machine's and render job's
    by part, and the warp's sectors per warp-frame as built and per candidate layout."""
    warp_frames = num_envs / WARP * frameskip
    machine_parts = part_of(module.MACHINE_PARTS, max(o + n for _, o, n in module.MACHINE_PARTS))
    job_parts = part_of(module.RENDER_JOB_PARTS, max(o + n for _, o, n in module.RENDER_JOB_PARTS))
    out = {}
    for kernel, buffers in launches:
        lanes = LANES.get(kernel, WARP)
        entry = dict(lanes=lanes, buffers={}, parts={})
        layouts = {"aos": 0.0, **{name: 0.0 for name in CANDIDATES}}
        ideal = 0.0
        for buffer, counts in buffers.items():
            element = len(counts["load_accesses"])
            kind = kind_of(buffer, element)
            names = {"machines": machine_parts, "jobs": job_parts}.get(buffer)   # the pool's copies: as they are
            if names is not None:
                names = names[:element]
            elif buffer == "screens":
                names = np.full(element, "screens", dtype=object)
            sectors = warp_sectors(counts, kind, element, lanes, None)
            accesses = sum(int(counts[f"{op}_accesses"].sum()) for op in ("load", "store"))
            if not accesses:
                continue
            entry["buffers"][buffer] = dict(
                kind=kind, element_bytes=element,
                loads_per_lane_frame=int(counts["load_accesses"].sum()) / (warp_frames * WARP),
                stores_per_lane_frame=int(counts["store_accesses"].sum()) / (warp_frames * WARP),
                sectors_per_warp_frame=sectors / warp_frames)
            if kind == "shared memory":   # a wavefront a warp access (the module's docstring)
                entry["shared_wavefronts_per_warp_frame"] = (entry.get("shared_wavefronts_per_warp_frame", 0.0)
                                                             + accesses / lanes / warp_frames)
                if buffer == "tia_slots":
                    tia = dict((n, o) for n, o, _ in module.MACHINE_PARTS)["tia"]
                    entry["tia_fields"] = tia_fields(counts, module.TIA_FIELDS, warp_frames, base=tia)
                continue
            ideal += ideal_sectors(counts)
            if names is not None and kind == "own":
                for part in sorted(set(names)):
                    mask = names == part
                    sub = {k: np.where(mask, v, 0) for k, v in counts.items()}
                    n = sum(int(sub[f"{op}_accesses"].sum()) for op in ("load", "store"))
                    if n:
                        entry["parts"][part] = dict(accesses_per_lane_frame=n / (warp_frames * WARP),
                                                    sectors_per_warp_frame=warp_sectors(sub, kind, element, lanes,
                                                                                        None) / warp_frames)
            if buffer == "machines" and kind == "own":   # unless the TIA slots were used (below)
                entry["tia_fields"] = tia_fields(counts, module.TIA_FIELDS, warp_frames)
            for name, candidate in CANDIDATES.items():
                layouts[name] += candidate_sectors(counts, kind, element, lanes, names, candidate, module.TIA_FIELDS,
                                                   warp_frames)
            layouts["aos"] += sectors
        entry["ideal_sectors_per_warp_frame"] = ideal / warp_frames
        if kernel in THREAD_PER_ENV:
            entry["sectors_per_warp_frame"] = {k: v / warp_frames for k, v in layouts.items()}
        else:   # its lanes share an env's buffers: their sectors need the lanes' addresses together
            entry.pop("parts")
            for b in entry["buffers"].values():
                b.pop("sectors_per_warp_frame")
        out.setdefault(kernel, []).append(entry)
    return {k: v[0] if len(v) == 1 else v for k, v in out.items()}


def count_step(game: str, cuda_step: str, num_envs: int, age: int, seed: int) -> dict:
    """Plays `age` steps from reset(seed), then counts the next step's kernels (summarise)."""
    from cule import _cuda_host

    launches = count_launches(game, cuda_step, num_envs, age, seed)
    return summarise(launches, _cuda_host, num_envs, v5_settings()["frameskip"])


def count_launches(game: str, cuda_step: str, num_envs: int, age: int, seed: int) -> list:
    """Plays `age` steps from reset(seed), then counts the next step's kernels: each launch's
    counts by buffer (Counter's launches)."""
    import torch

    import cule
    from cule import _cuda_host

    if not hasattr(_cuda_host, "count_memory"):
        raise SystemExit(f"{_cuda_host.__file__} counts no memory: make {MEMORY_LIB.relative_to(ROOT)}")
    settings = v5_settings()
    # One host thread (memory_count.h's counts are plain; the TIA slots are the thread's own).
    env = cule.CuleEnv(game, num_envs=num_envs, device="cpu", backend="cuda", cuda_step=cuda_step, num_threads=1,
                       **settings)
    try:
        counter = Counter(env._backend, _cuda_host)
        env.reset(seed=seed)
        actions = torch.Generator().manual_seed(seed)
        for step in range(age + 1):
            counter.active = step == age
            env.step(torch.randint(0, env.single_action_space.n, (num_envs,), generator=actions))
        counter.active = False
        return counter.launches
    finally:
        env.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="pong")
    parser.add_argument("--envs", type=int, default=256, help="envs played (a multiple of 64: whole blocks)")
    parser.add_argument("--age", type=int, default=6, help="steps since the reset (ncu's profiles: 6)")
    parser.add_argument("--steps", nargs="+", default=["split", "in-passes"], choices=["split", "in-passes", "one-kernel"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="the JSON (default: a new file in benchmarks/results)")
    args = parser.parse_args(argv)
    if args.envs <= 0 or args.envs % 64:
        parser.error(f"--envs must be a positive multiple of 64, got {args.envs}")
    import cule
    record = dict(benchmark="memory_model", date=datetime.date.today().isoformat(), cule=cule.__version__,
                  device="none: the kernels run on this CPU, counted; ncu's figures are an H100's",
                  machine=machine(), game=args.game, num_envs=args.envs, age=args.age, seed=args.seed,
                  settings="v5 (AtariVectorEnv's defaults), random actions", lanes=LANES, steps={})
    for step in args.steps:
        kernels = count_step(args.game, step, args.envs, args.age, args.seed)
        ncu = ncu_sectors(ROOT / "benchmarks" / "results" / NCU_FILES[step]) if step in NCU_FILES and args.game == "pong" else {}
        for kernel, entry in kernels.items():
            if not isinstance(entry, dict) or "sectors_per_warp_frame" not in entry:
                continue
            layouts = entry["sectors_per_warp_frame"]
            against = ""
            if kernel in ncu and kernel in NCU_LAYOUT_BEFORE:
                entry["ncu_before"] = dict(layout=NCU_LAYOUT_BEFORE[kernel], sectors_per_warp_frame=ncu[kernel])
                against = f"ncu {ncu[kernel]:10,.0f} of the layout before "
            elif kernel in ncu:
                entry["ncu_sectors_per_warp_frame"] = ncu[kernel]
                entry["model_over_ncu"] = layouts["aos"] / ncu[kernel]
                against = f"ncu {ncu[kernel]:10,.0f} model/ncu {layouts['aos'] / ncu[kernel]:.2f} "
            best = min(layouts, key=layouts.get)
            print(f"{step:10s} {kernel:22s} sectors/warp-frame {layouts['aos']:10,.0f}", against,
                  f"fewest: {best} {layouts[best]:10,.0f}", flush=True)
        record["steps"][step] = kernels
    path = args.out or new_result_path(f"memory_model-{record['date']}")
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
