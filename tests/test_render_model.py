"""The render pass's SIMT model (kernel_models/render_model.py): each schedule runs every lane's
accesses once and in order; its passes, lanes and sectors are checked on logs built by hand, and
on real traces of the build that records them."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "kernel_models"))
import render_model as rm  # noqa: E402

TRACE_LIB = ROOT / "build" / "trace" / "_core.so"
WSYNC, COLUP0, GRP0, GRP1 = 0x02, 0x06, 0x1B, 0x1C


def accesses_from(lanes: list[list[tuple[int, int]]]) -> dict:
    """Each lane's accesses as (CPU cycle, case)."""
    return dict(lane=np.array([lane for lane, acc in enumerate(lanes) for _ in acc]),
                index=np.array([i for acc in lanes for i in range(len(acc))]),
                clock=np.array([c for acc in lanes for c, _ in acc]),
                case=np.array([k for acc in lanes for _, k in acc]))


def spans_from(accesses: dict, rows: list[tuple[int, int, int, int, int]]) -> dict:
    """Spans of `accesses` as (lane, access index, span index, words, first word), all drawn by
    writes, alike."""
    lane, index, k, words, first = (np.array(c) for c in zip(*rows))
    row = {(a_lane, a_index): r for r, (a_lane, a_index) in enumerate(zip(accesses["lane"].tolist(),
                                                                           accesses["index"].tolist()))}
    return dict(lane=lane, index=index, access=np.array([row[lane_index] for lane_index in zip(lane.tolist(), index.tolist())]),
                k=k, key=np.full(len(lane), rm.SPAN_OBJECTS), words=words, first=first)


def check_schedule(accesses: dict, passes: dict) -> None:
    """Every access in a pass; a lane's accesses in passes one after another."""
    for ids in passes.values():
        assert len(ids) == len(accesses["lane"]) and (ids >= 0).all()
    order = np.lexsort((accesses["index"], accesses["lane"]))
    lane, case = accesses["lane"][order], passes["case"][order]
    assert (np.diff(case)[lane[1:] == lane[:-1]] > 0).all()


def test_a_lane_one_access_ahead_splits_every_pass_in_step_and_none_by_clock():
    """Lane 1 sets a colour before the line lane 0 also draws: in step the lanes stay an access
    apart (two cases at each index but the last); by clock lane 1 runs its extra access alone and
    the lanes then run together."""
    line = [(10, WSYNC), (20, GRP0), (30, GRP1)]
    accesses = accesses_from([line, [(5, COLUP0)] + line])
    for schedule in rm.SCHEDULES.values():
        check_schedule(accesses, schedule(accesses))
    assert int(rm.in_step(accesses)["case"].max()) + 1 == 7
    assert int(rm.by_clock(accesses)["case"].max()) + 1 == 4


def test_by_clock_takes_the_lowest_case_of_the_lanes_first_in_their_frames():
    """Lanes 0 and 1 both first at cycle 5 with other registers: the lower register runs first,
    with lane 2 whose next access is the same register later in its frame."""
    accesses = accesses_from([[(5, GRP1)], [(5, GRP0)], [(9, GRP0)]])
    passes = rm.by_clock(accesses)["case"]
    assert passes.tolist() == [1, 0, 0]


def test_interleaved_frames_give_lanes_storing_the_same_words_one_sector_per_4_lanes():
    """32 lanes each storing words 10 and 11 of their frames in one span pass: a sector a lane a
    word in their own frame buffers (aos), 8 a word interleaved (word k of the warp's lanes side by
    side); lanes storing different words share no sector."""
    accesses = accesses_from([[(10, GRP0)] for _ in range(rm.WARP)])
    same = rm.replay(accesses, spans_from(accesses, [(lane, 0, 0, 2, 10) for lane in range(rm.WARP)]), rm.by_clock(accesses))
    assert same["sectors_per_frame"]["aos"]["frames"] == 2
    assert same["sectors_per_frame"]["interleaved"]["frames"] == 2 * 8 / rm.WARP
    assert same["lanes_per_store_pass"] == rm.WARP
    apart = rm.replay(accesses, spans_from(accesses, [(lane, 0, 0, 2, 10 * lane) for lane in range(rm.WARP)]),
                      rm.by_clock(accesses))
    assert apart["sectors_per_frame"]["interleaved"]["frames"] == 2


def test_a_span_pass_stores_its_longest_spans_words():
    """Two lanes drawing 3 and 5 words in one pass: 5 store passes, 8 words stored, 1.6 a pass."""
    accesses = accesses_from([[(10, GRP0)], [(10, GRP0)]])
    r = rm.replay(accesses, spans_from(accesses, [(0, 0, 0, 3, 0), (1, 0, 0, 5, 0)]), rm.in_step(accesses))
    assert r["passes_per_warp"]["store"] == 5 and r["lanes_per_store_pass"] == 8 / 5


@pytest.mark.skipif(not TRACE_LIB.exists(), reason="the trace build (make build/trace/_core.so; make test builds it)")
def test_real_render_traces_replay_every_access_once_in_order():
    """A traced step of Seaquest's render pass: accesses and spans for both shown frames of every
    env, pixels for every line of the screen, each schedule replaying them in order."""
    script = f"""
import sys, numpy as np
sys.path.insert(0, {str(ROOT / 'kernel_models')!r})
import render_model as rm
events, counts = rm.render_traces("seaquest", 32, 40, seed=1, states=None)
for lanes in rm.LANES:
    accesses, spans = rm.lane_tables(events, counts, lanes)
    assert len(np.unique(accesses["lane"])) == 64
    for schedule in rm.SCHEDULES.values():
        passes = schedule(accesses)
        order = np.lexsort((accesses["index"], accesses["lane"]))
        same = accesses["lane"][order][1:] == accesses["lane"][order][:-1]
        assert (np.diff(passes["case"][order])[same] > 0).all()
        r = rm.replay(accesses, spans, passes)
        assert r["words_per_frame"] >= 210 * 160 / 8, r
        assert 1 <= r["lanes_per_access_pass"] <= rm.WARP
"""
    subprocess.run([sys.executable, "-c", script], check=True, env={**os.environ, "CULE_CORE_LIB": str(TRACE_LIB)},
                   cwd=ROOT)
