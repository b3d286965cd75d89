"""The SIMT model of the render pass: how the GPU's warps would run `cule_render`, measured on a CPU
from traces of what each thread does.

The render pass (kernels/cuda/kernels.cu, `cule_render`) gives each shown frame of each env a
thread, which replays the frame's log of TIA accesses (kernels/atari/tia_log.h): one iteration of
its loop an access, a read drawing up to its clock, a write drawing up to its clock (most
registers) then taking effect in a case of its own. The trace build (kernels/testing/trace.h)
records, per env, every access replayed and every span of pixels drawn (how: blanked, background
alone, with objects; how many; where in the frame). The model maps the threads to envs and frames
(LANES), groups them into warps of 32 and replays each warp under a schedule (SCHEDULES): in step,
as `cule_render` runs, a loop whose lanes reconverge after each iteration, or by clock, as
`cule_render_by_clock` runs (the warp schedule's render kernel). It counts:

  access passes   one per case (a read, or the register written) among the accesses run together
  span passes     in the drawing of the accesses run together, one per way of drawing among the
                  lanes drawing their k-th span in it
  store passes    in a span pass, as many as its longest span's 8-byte words

Sectors (32 bytes) per frame, of the two arrays the lanes walk through: the log's accesses (4
bytes each, loaded one per iteration) and the frame buffer's pixels (8 bytes a store):

  aos             as built: each env's log and frame buffers its own, so a lane's load or store is a
                  sector of its own (32 sectors for a warp's 32 lanes)
  interleaved     access k of the 32 lanes side by side, and word k of their frames side by side: a
                  warp's load of its lanes' k-th accesses is 4 sectors, its store of words at the
                  same offset 8 (not built)

    python kernel_models/render_model.py --games pong seaquest --envs 256 --age 3000

The envs are played from reset(seed) to the age (kernel_models/simt_model.py's states, `--states`,
are reused) and one step traced.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import simt_model  # noqa: E402  (sets CULE_CORE_LIB to the trace build)
from simt_model import GAMES, TRACE_EVENT, WARP, machine  # noqa: E402

from benchmarks._results import new_result_path  # noqa: E402

TIA, SPAN = 6, 7                    # kernels/testing/trace.h
SPAN_BLANK, SPAN_BACKGROUND, SPAN_OBJECTS, SPAN_HMOVE_BLANK = range(4)
READ_CASE = 0x100                   # a read's case, apart from the 64 registers
LANES = {
    # thread t of the launch: (env, frame)
    "env-major": "t // 2, t % 2 (as built: a warp is 16 envs' two frames)",
    "frame-major": "t % num_envs, t // num_envs (a warp is 32 envs' same frame)",
}
LOG_BYTES, STORE_BYTES, SECTOR = 4, 8, 32


def render_traces(game: str, num_envs: int, age: int, seed: int, states: Path | None):
    """One traced step of `num_envs` envs `age` steps after reset(seed) in random v5 play
    (simt_model.traced_vecs): the render pass's events, and each env's count."""
    from cule import _core

    if not hasattr(_core.VecEnv, "take_render_trace"):
        raise SystemExit("this build records no render traces: make build/trace/_core.so")
    for _, vec, _ in simt_model.traced_vecs(game, num_envs, num_envs, [age], seed, states):
        vec.take_trace()
        events, counts = vec.take_render_trace()
    return np.frombuffer(np.ascontiguousarray(events).tobytes(), TRACE_EVENT), np.asarray(counts)


def lane_tables(events: np.ndarray, counts: np.ndarray, lanes: str) -> tuple[dict, dict]:
    """Per lane (thread of the launch): its accesses (lane, index, case, clock) and its spans
    (lane, access index, the access's row in the accesses, span index, key, words, first word)."""
    num_envs = len(counts)
    env = np.repeat(np.arange(num_envs), counts)
    access = events["kind"] == TIA
    # each event's access: the last one up to it (a span always follows one)
    last_access = np.maximum.accumulate(np.where(access, np.arange(len(events)), -1))
    frame = (events["extra"] >> 24).astype(np.int64)[last_access]
    thread = env * 2 + frame if lanes == "env-major" else frame * num_envs + env
    # each event's access index within its lane (the events of a lane are contiguous)
    order = np.cumsum(access) - 1
    a_thread = thread[access]
    starts = np.flatnonzero(np.r_[True, a_thread[1:] != a_thread[:-1]])
    first = np.zeros(2 * num_envs, np.int64)
    first[a_thread[starts]] = starts
    index = order - first[thread]
    case = np.where(events["value"] == 1, READ_CASE, events["addr"])
    accesses = dict(lane=a_thread, index=index[access], case=case[access],
                    clock=(events["extra"][access] & 0xFFFFFF).astype(np.int64))
    span = events["kind"] == SPAN
    s_access = last_access[span]
    n, pos = events["addr"][span].astype(np.int64), events["extra"][span].astype(np.int64)
    spans = dict(lane=thread[span], index=index[span], access=order[s_access], k=np.flatnonzero(span) - s_access - 1,
                 key=(events["value"][s_access] == 1) * 8 + events["value"][span],
                 words=(pos + n + 7) // 8 - pos // 8, first=pos // 8)
    return accesses, spans


def group_ids(*cols: np.ndarray) -> tuple[np.ndarray, int]:
    """Group ids of the rows of `cols`, and how many groups."""
    if not len(cols[0]):
        return np.zeros(0, np.int64), 0
    _, ids = np.unique(np.stack([c.astype(np.int64) for c in cols], axis=1), axis=0, return_inverse=True)
    return ids.ravel(), int(ids.max()) + 1


def in_step(accesses: dict) -> dict:
    """As cule_render: a warp's lanes run their k-th accesses together (one load), draw together
    those of the same kind (a read's drawing, or a write's, which comes before the register's case)
    and run one pass a case."""
    warp, index, read = accesses["lane"] // WARP, accesses["index"], accesses["case"] == READ_CASE
    return dict(load=group_ids(warp, index)[0], draw=group_ids(warp, index, read)[0],
                case=group_ids(warp, index, accesses["case"])[0])


def by_clock(accesses: dict) -> dict:
    """As cule_render_by_clock: each pass runs the lanes whose next access comes first in its frame
    (the least CPU cycle), of those the lowest case, and every lane whose next access is of that
    case: lanes drawing the same part of their screens run together."""
    pass_of = np.empty(len(accesses["lane"]), np.int64)
    lane, case, clock = accesses["lane"], accesses["case"], accesses["clock"]
    row = np.arange(len(lane))
    passes = 0
    for warp in np.unique(lane // WARP):
        rows = row[lane // WARP == warp]
        _, begin = np.unique(lane[rows], return_index=True)
        end = np.r_[begin[1:], len(rows)]
        at, stop = rows[begin].copy(), rows[end - 1] + 1   # each lane's next access row, and its end
        while True:
            live = at < stop
            if not live.any():
                break
            nxt = np.where(live, at, 0)
            c_clock = np.where(live, clock[nxt], np.iinfo(np.int64).max)
            first = live & (c_clock == c_clock.min())
            chosen = live & (case[nxt] == case[nxt][first].min())
            pass_of[at[chosen]] = passes
            passes += 1
            at[chosen] += 1
    return dict(load=pass_of, draw=pass_of, case=pass_of)


SCHEDULES = {"in-step": in_step, "by-clock": by_clock}
SCHEDULE_KERNELS = {"in-step": "cule_render (cuda_step 'split')", "by-clock": "cule_render_by_clock (cuda_step 'in-passes')"}


def replay(accesses: dict, spans: dict, passes: dict) -> dict:
    """The model's counts, given which accesses share a pass: of their load (`load`), of their
    drawing (`draw`), of their case (`case`): ids per access."""
    frames = len(np.unique(accesses["lane"]))
    warps = len(np.unique(accesses["lane"] // WARP))
    access_passes = int(passes["case"].max()) + 1
    # a span runs in its access's drawing pass, one span pass per (pass, span index, way)
    s_pass = passes["draw"][spans["access"]]
    s_group, span_passes = group_ids(s_pass, spans["k"], spans["key"])
    # each span pass stores its longest span's words, one store pass a word
    longest = np.zeros(span_passes, np.int64)
    np.maximum.at(longest, s_group, spans["words"])
    store_passes = int(longest.sum())
    words = int(spans["words"].sum())
    # sectors of the interleaved layouts: access j of lane l at (j * 32 + l) * 4 bytes, word w of
    # lane l's frame at (w * 32 + l) * 8
    lane_in_warp = accesses["lane"] % WARP
    log_sectors = group_ids(passes["load"], accesses["index"] * 4 + lane_in_warp // 8)[1]
    w_row = np.repeat(np.arange(len(s_group)), spans["words"])
    w_iter = np.arange(len(w_row)) - np.repeat(np.cumsum(spans["words"]) - spans["words"], spans["words"])
    w_sector = (spans["first"][w_row] + w_iter) * 8 + (spans["lane"][w_row] % WARP) // 4
    store_sectors = group_ids(s_group[w_row], w_iter, w_sector)[1]
    return dict(
        frames=frames, warps=warps,
        accesses_per_frame=len(accesses["lane"]) / frames, spans_per_frame=len(s_pass) / frames, words_per_frame=words / frames,
        lanes_per_access_pass=len(accesses["lane"]) / access_passes,
        lanes_per_span_pass=len(s_pass) / max(span_passes, 1),
        lanes_per_store_pass=words / max(store_passes, 1),
        passes_per_warp=dict(access=access_passes / warps, span=span_passes / warps, store=store_passes / warps),
        sectors_per_frame=dict(aos=dict(log=len(accesses["lane"]) / frames, frames=words / frames),
                               interleaved=dict(log=log_sectors / frames, frames=store_sectors / frames)),
    )


def table(record: dict) -> str:
    """A markdown row per game and lane map: each schedule's figures, as built first."""
    rows = ["| game | lanes | lanes per pass (access, span, store): in step, by clock | store passes per warp: "
            "in step, by clock (fewer) | frame sectors per frame: aos, interleaved in step, by clock | "
            "log sectors per frame: aos, interleaved in step, by clock |", "|---|---|---|---|---|---|"]
    by = {(r["game"], r["lanes"], r["schedule"]): r for r in record["results"]}
    for game, lanes in dict.fromkeys((r["game"], r["lanes"]) for r in record["results"]):
        a, b = by[game, lanes, "in-step"], by[game, lanes, "by-clock"]
        lpp = lambda r: f"{r['lanes_per_access_pass']:.1f}, {r['lanes_per_span_pass']:.1f}, {r['lanes_per_store_pass']:.1f}"  # noqa: E731
        sa, sb = a["sectors_per_frame"], b["sectors_per_frame"]
        rows.append(f"| {game} | {lanes} | {lpp(a)}; {lpp(b)} | {a['passes_per_warp']['store']:,.0f}, "
                    f"{b['passes_per_warp']['store']:,.0f} ({a['passes_per_warp']['store'] / b['passes_per_warp']['store']:.1f}x) | "
                    f"{sa['aos']['frames']:,.0f}, {sa['interleaved']['frames']:,.0f}, {sb['interleaved']['frames']:,.0f} | "
                    f"{sa['aos']['log']:,.0f}, {sa['interleaved']['log']:,.0f}, {sb['interleaved']['log']:,.0f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--envs", type=int, default=256, help="envs played and traced (a multiple of 16)")
    parser.add_argument("--age", type=int, default=3000, help="steps since the reset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--states", type=Path, default=None, help="simt_model.py's directory of kept states")
    parser.add_argument("--out", type=Path, default=None, help="the JSON (default: a new file in benchmarks/results)")
    parser.add_argument("--table", type=Path, default=None, help="print the table of this JSON and stop")
    args = parser.parse_args(argv)
    if args.table:
        print(table(json.loads(args.table.read_text())))
        return
    if args.envs <= 0 or args.envs % (WARP // 2):
        parser.error(f"--envs must be a positive multiple of {WARP // 2}, got {args.envs}")

    import cule
    record = dict(benchmark="render_model", date=datetime.date.today().isoformat(), cule=cule.__version__,
                  machine=machine(), settings="v5 (AtariVectorEnv's defaults), random actions",
                  num_envs=args.envs, age=args.age, seed=args.seed, warp=WARP, lanes=LANES,
                  schedules=SCHEDULE_KERNELS, results=[])
    for game in args.games:
        events, counts = render_traces(game, args.envs, args.age, args.seed, args.states)
        for lanes in LANES:
            accesses, spans = lane_tables(events, counts, lanes)
            for schedule, passes in SCHEDULES.items():
                r = dict(game=game, lanes=lanes, schedule=schedule, **replay(accesses, spans, passes(accesses)))
                record["results"].append(r)
                print(json.dumps(r), flush=True)
    out = args.out or new_result_path(f"render_model-{record['date']}")
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(table(record))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
