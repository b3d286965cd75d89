"""The memory model of the GPU kernels (kernel_models/memory_model.py): its sector arithmetic per
layout, and the build that counts every load and store (bindings/memory_count.h) on a kernel whose
stores are known and on a real step."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "kernel_models"))
import memory_model as mm  # noqa: E402

MEMORY_LIB = ROOT / "build" / "memory" / "_cuda_host.so"


def counts(loads: dict, element: int) -> dict:
    """Per-offset counts of loads only: {offset: (accesses, bytes a load)}, each within a sector."""
    out = {f"{op}_{f}": np.zeros(element, np.uint64) for op in ("load", "store") for f in ("accesses", "bytes", "sectors")}
    for offset, (n, width) in loads.items():
        out["load_accesses"][offset] = n
        out["load_bytes"][offset] = n * width
        out["load_sectors"][offset] = n
    return out


def test_sectors_per_layout():
    c = counts({0: (64, 1), 8: (32, 4)}, 632)   # 96 lane loads: a byte twice a lane, a word once
    assert mm.warp_sectors(c, "own", 632, 32, None) == 96   # each lane its own sector
    interleaved = np.ones(632, bool)
    # 32 lanes' bytes side by side are a sector, their words four
    assert mm.warp_sectors(c, "own", 632, 32, interleaved) == 2 + 4
    assert mm.warp_sectors(c, "own", 632, 8, interleaved) == 64 / 8 + 4   # 8 lanes' words: a sector
    assert mm.warp_sectors(c, "shared", 632, 32, None) == 96 / 32
    # the logs' events: a warp's lanes' word k side by side, 32 lanes' words four sectors, 8 lanes' one
    assert mm.kind_of("log_events", 32 * 4) == "interleaved"
    assert mm.warp_sectors(c, "interleaved", 632, 32, None) == 64 / 32 + 32 * 4 / 32
    assert mm.warp_sectors(c, "interleaved", 632, 8, None) == 64 / 8 + 32 / 8
    assert mm.ideal_sectors(c) == (64 + 128) / 32


def test_ncu_sectors_are_read_from_the_reports():
    ncu = mm.ncu_sectors(ROOT / "benchmarks" / "results" / mm.NCU_FILES["in-passes"])
    assert ncu == {"cule_step_in_passes": 395_131_321 / 512, "cule_render_by_clock": 85_465_436 / 512}


@pytest.mark.skipif(not MEMORY_LIB.exists(), reason="the counting build (make build/memory/_cuda_host.so; make test builds it)")
def test_the_counting_build_counts_every_access():
    """cule_layout stores one u64 per field and loads nothing of `out`; a step of Pong's split
    state kernel touches the TIA's fields in its machines thousands of times a frame, and every
    candidate layout takes fewer sectors than the one built; the default state kernel touches
    them as often in its shared TIA slots, and its machines' TIA (and its log's count) only to copy
    it in and out, its RAM in its warp's shared tile, and stores its log's events in its warp's
    block."""
    script = f"""
import sys, numpy as np, torch
sys.path.insert(0, {str(ROOT / 'kernel_models')!r})
import memory_model as mm
from cule import _core, _cuda_host
out = torch.zeros(64, dtype=torch.int64)
_cuda_host.count_memory([("out", out.data_ptr(), 512, 8)])
_cuda_host.cule_layout(1, 1, (np.uint64(out.data_ptr()),))
c = {{k: np.frombuffer(v, np.uint64) for k, v in _cuda_host.memory_counts()["out"].items()}}
fields = len(_core.layout())
assert c["store_accesses"][0] == fields and c["store_bytes"][0] == 8 * fields and c["store_sectors"][0] == fields, c
assert c["load_accesses"].sum() == 0 and c["store_accesses"][1:].sum() == 0
split = mm.count_step("pong", "split", 64, 1, 0)["cule_step_logged"]
assert split["parts"]["tia"]["accesses_per_lane_frame"] > 1000, split["parts"]
assert {{f["field"] for f in split["tia_fields"][:3]}} <= set(mm.TIA_HOT), split["tia_fields"][:3]
layouts = split["sectors_per_warp_frame"]
assert layouts["aos"] > split["ideal_sectors_per_warp_frame"] > 0
assert all(v < layouts["aos"] for k, v in layouts.items() if k != "aos" and k != "screens-interleaved"), layouts
r = mm.count_step("pong", "in-passes", 64, 1, 0)
state = r["cule_step_in_passes"]
slots = state["buffers"]["tia_slots"]
assert slots["kind"] == "shared memory" and slots["sectors_per_warp_frame"] == 0, slots
assert slots["loads_per_lane_frame"] + slots["stores_per_lane_frame"] > 1000, slots
assert state["shared_wavefronts_per_warp_frame"] > 0
# the warp's RAM too, in its tile: the RAM's reads and writes of every frame, none in global memory
tile = state["buffers"]["ram_tile"]
assert tile["kind"] == "shared memory" and tile["sectors_per_warp_frame"] == 0, tile
assert tile["loads_per_lane_frame"] > 100 and tile["stores_per_lane_frame"] > 100, tile
# byte k of the warp's lanes side by side: the tile's rows (bytes) differ by the byte's use, its
# columns (lanes, each playing Pong) alike
tile = dict(mm.count_launches("pong", "in-passes", 32, 3, 0))["cule_step_in_passes"]["ram_tile"]
loads = tile["load_accesses"].astype(np.float64).reshape(_core.RAM_BYTES, mm.WARP)
by_byte, by_lane = loads.sum(axis=1), loads.sum(axis=0)
assert by_byte.max() > 4 * by_byte.min() and by_lane.max() < 1.5 * by_lane.min(), (by_byte, by_lane)
tia_bytes = _core.TIA_SLOT_BYTES
assert state["parts"]["tia"]["accesses_per_lane_frame"] < 2 * tia_bytes, state["parts"]   # the copies, a frame
# the log's count too is the slot's for the frame: its own counters a few accesses a frame; its events,
# a warp's interleaved, a store each TIA access of a logged frame
assert state["parts"]["log_counters"]["accesses_per_lane_frame"] < 20 < split["parts"]["log_counters"]["accesses_per_lane_frame"]
events = state["buffers"]["log_events"]
assert events["kind"] == "interleaved" and events["stores_per_lane_frame"] > 100 and events["loads_per_lane_frame"] == 0, events
assert {{f["field"] for f in state["tia_fields"][:3]}} <= set(mm.TIA_HOT), state["tia_fields"][:3]
assert state["sectors_per_warp_frame"]["aos"] < layouts["aos"] / 4
assert r["cule_render_by_clock"]["sectors_per_warp_frame"]["screens-interleaved"] < \\
    r["cule_render_by_clock"]["sectors_per_warp_frame"]["aos"]
"""
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT,
                   env={**os.environ, "CULE_CUDA_HOST_LIB": str(MEMORY_LIB), "CULE_CORE_LIB": ""})
