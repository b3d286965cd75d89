"""The SIMT model's replay (kernel_models/simt_model.py): whatever the policy, every lane runs each of
its instructions once, in its own order, a frame at a time; the passes and lanes it counts are
checked on traces built by hand, and on real traces from the build that records them."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "kernel_models"))
import simt_model as sm  # noqa: E402

TRACE_LIB = ROOT / "build" / "trace" / "_core.so"


def lanes_from(streams: list[list[tuple[int, int, int]]], polling=()) -> sm.Lanes:
    """Lanes from each env's instructions as (code key, opcode, frame), one RAM read each."""
    key = np.array([k for s in streams for k, _, _ in s], np.uint32)
    opcode = np.array([o for s in streams for _, o, _ in s], np.uint8)
    frame = np.array([f for s in streams for _, _, f in s], np.int16)
    count = np.array([len(s) for s in streams])
    base = np.concatenate([[0], np.cumsum(count)[:-1]])
    n = len(key)
    return sm.Lanes(key, opcode, frame, sm.call_stack_keys(key, opcode, base, count), np.isin(key, polling),
                    np.arange(n), np.ones(n, np.int64), np.full(n, 0x80, np.uint16), np.zeros(n, bool),
                    np.zeros(n, np.uint32), base, count,
                    np.array([len({f for _, _, f in s}) for s in streams]), np.zeros(len(streams), np.int64))


def check_schedule(lanes: sm.Lanes, schedule: sm.Schedule) -> None:
    """Every instruction ran once; a lane's instructions in order; no lane began frame f + 1 of a
    warp before every lane of it had ended frame f."""
    assert (schedule.pass_of >= 0).all()
    for e in range(schedule.num_envs):
        s = schedule.slot_of[lanes.base[e]:lanes.base[e] + lanes.count[e]]
        assert (np.diff(s) > 0).all(), f"env {e} ran out of order"
    for w in range(schedule.num_envs // sm.WARP):
        envs = range(w * sm.WARP, (w + 1) * sm.WARP)
        frames = np.concatenate([lanes.frame[lanes.base[e]:lanes.base[e] + lanes.count[e]] for e in envs])
        slots = np.concatenate([schedule.slot_of[lanes.base[e]:lanes.base[e] + lanes.count[e]] for e in envs])
        for f in range(int(frames.max()) if len(frames) else 0):
            assert slots[frames == f].max() < slots[frames == f + 1].min()


def random_streams(rng, envs=64, frames=3):
    """Envs running one small program from different places: loops and a subroutine."""
    streams = []
    for _ in range(envs):
        s = []
        for f in range(frames):
            pc = int(rng.integers(0, 40))
            for _ in range(int(rng.integers(20, 60))):
                op = 0x20 if pc % 17 == 5 else 0x60 if pc % 17 == 16 else 0xEA
                s.append((pc, op, f))
                pc = (pc + 1) % 50
        streams.append(s)
    return streams


@pytest.mark.parametrize("policy", sm.POLICIES + sm.TRIED)
def test_every_policy_runs_each_instruction_once_in_order(policy):
    lanes = lanes_from(random_streams(np.random.default_rng(1)), polling=(30, 31))
    result, schedule = sm.replay(lanes, policy)
    check_schedule(lanes, schedule)
    assert result["lane_instructions"] == lanes.count.sum()
    assert 1 <= result["lanes_per_pass"] <= sm.WARP
    # without the sectors, the same schedule (all a plan reads of its ways)
    alone, same = sm.replay(lanes, policy, sectors=False)
    assert np.array_equal(same.pass_of, schedule.pass_of) and np.array_equal(same.slot_of, schedule.slot_of)
    assert alone == {k: v for k, v in result.items() if "sectors" not in k}


def test_lanes_at_one_pc_share_every_pass():
    stream = [(pc, 0xEA, 0) for pc in range(10)] + [(pc, 0xEA, 1) for pc in range(5)]
    lanes = lanes_from([stream] * 32)
    for policy in ("min-pc", "stack", "stack+wait"):
        result, _ = sm.replay(lanes, policy)
        assert result["passes"] == 15 and result["lanes_per_pass"] == 32


def test_per_lane_passes_are_the_distinct_opcodes_of_each_slot():
    # lane 0 runs opcodes 1, 2; lane 1: 1, 3; lanes 2-31: 4, 4 -> slot 0: {1, 4}, slot 1: {2, 3, 4}
    streams = [[(0, 1, 0), (1, 2, 0)], [(5, 1, 0), (6, 3, 0)]] + [[(9, 4, 0), (9, 4, 0)]] * 30
    result, _ = sm.replay(lanes_from(streams), "per-lane")
    assert result["passes"] == 5 and result["lanes_per_pass"] == 64 / 5


def test_min_pc_runs_the_lowest_pc_first_and_waiting_defers_polling_lanes():
    # lane 0 polls at 1, 2, 1, 2, then runs 3; the others run 0, 3
    streams = [[(1, 0xAD, 0), (2, 0xD0, 0), (1, 0xAD, 0), (2, 0xD0, 0), (3, 0xEA, 0)]] + \
              [[(0, 0xEA, 0), (3, 0xEA, 0)]] * 31
    lanes = lanes_from(streams, polling=(1, 2))
    plain, _ = sm.replay(lanes, "min-pc")
    waiting, _ = sm.replay(lanes, "min-pc+wait")
    # min-pc: 0 (31 lanes), then 1, 2, 1, 2 (lane 0) while 31 lanes wait at 3, then 3 (32)
    assert plain["passes"] == 6
    # waiting: 0 (31), 3 (31: lane 0 polls), then lane 0 alone: 1, 2, 1, 2, 3
    assert waiting["passes"] == 7


def test_most_runs_the_code_most_lanes_share_first():
    # lane 0 runs 0, 5; the others 5, 6
    streams = [[(0, 0xEA, 0), (5, 0xEA, 0)]] + [[(5, 0xEA, 0), (6, 0xEA, 0)]] * 31
    lanes = lanes_from(streams)
    # min-pc: 0 (lane 0), 5 (32), 6 (31); most: 5 (31), 6 (31), then lane 0's 0 and 5
    assert sm.replay(lanes, "min-pc")[0]["passes"] == 3
    assert sm.replay(lanes, "most")[0]["passes"] == 4


def test_joins_take_lanes_at_other_code_with_the_same_opcode():
    # one LDA # each: lanes 0-9 at 0, lane 10 at 10, lanes 11-31 at 20
    streams = [[(0, 0xA9, 0)]] * 10 + [[(10, 0xA9, 0)]] + [[(20, 0xA9, 0)]] * 21
    lanes = lanes_from(streams)
    passes = {policy: sm.replay(lanes, policy)[0]["passes"]
              for policy in ("min-pc+wait", "min-pc+wait+join", "min-pc+wait+join8", "min-pc+wait+join11",
                             "min-pc+wait+join+alone")}
    # +join8: none join the pass of 10 at 0, all join lane 10's; +join11: all join the first;
    # +alone: lane 10, alone, joins the pass at 0
    assert passes == {"min-pc+wait": 3, "min-pc+wait+join": 1, "min-pc+wait+join8": 2, "min-pc+wait+join11": 1,
                      "min-pc+wait+join+alone": 2}


def test_call_stack_keys_order_lanes_by_their_call_sites():
    # two lanes: one in a subroutine at 100 called from 10, one at 20 in the caller
    key = np.array([10, 100, 20], np.uint32)
    opcode = np.array([0x20, 0xEA, 0xEA], np.uint8)
    words = sm.call_stack_keys(key, opcode, np.array([0, 2]), np.array([2, 1]))
    assert words[1] < words[2] < sm.call_stack_keys(np.array([100], np.uint32), np.array([0xEA], np.uint8),
                                                     np.array([0]), np.array([1]))[0]
    assert words[0] < words[1]   # the JSR itself comes before the code it calls


def test_polling_loops_are_found_in_the_rom():
    rom = np.zeros(64, np.uint8)
    rom[10:15] = [0xAD, 0x84, 0x02, 0xD0, 0xFB]   # LDA INTIM / BNE back
    rom[30:35] = [0xAD, 0x80, 0x00, 0xD0, 0xFB]   # LDA RAM / BNE: no timer
    assert sm.polling_offsets(rom).tolist() == [10, 13]


@pytest.mark.skipif(not TRACE_LIB.exists(), reason="the trace build (make build/trace/_core.so; make test builds it)")
def test_real_traces_replay_and_leave_the_emulation_unchanged(tmp_path):
    """The trace build plays as the plain one (same states after the same steps), its traces hold
    an opcode fetch after every instruction's start, and every policy replays them in order."""
    script = f"""
import sys, numpy as np, torch
sys.path.insert(0, {str(ROOT / 'kernel_models')!r})
import simt_model as sm
import cule
env = cule.CuleEnv("breakout", num_envs=64, device="cpu", **sm.v5_settings())
env.reset(seed=3)
vec = env._backend._vec
vec.split_render = True
g = torch.Generator().manual_seed(3)
for step in range(12):
    if step == 10:
        vec.start_trace(64)
    env.step(torch.randint(0, 4, (64,), generator=g))
events, counts = vec.take_trace()
lanes = sm.decode(events, counts, np.frombuffer(env._spec.rom, np.uint8))
assert lanes.frames.tolist() == [4] * 64 or (lanes.frames % 4 == 0).all(), lanes.frames
for policy in sm.POLICIES:
    result, schedule = sm.replay(lanes, policy)
    assert (schedule.pass_of >= 0).all() and result["lane_instructions"] == lanes.count.sum()
np.save({str(tmp_path / 'trace.npy')!r}, env.get_states().numpy())
"""
    plain = f"""
import numpy as np, torch, cule, sys
sys.path.insert(0, {str(ROOT / 'kernel_models')!r})
import simt_model as sm
env = cule.CuleEnv("breakout", num_envs=64, device="cpu", **sm.v5_settings())
env.reset(seed=3)
env._backend._vec.split_render = True
g = torch.Generator().manual_seed(3)
for step in range(12):
    env.step(torch.randint(0, 4, (64,), generator=g))
np.save({str(tmp_path / 'plain.npy')!r}, env.get_states().numpy())
"""
    environ = {**os.environ, "CULE_CORE_LIB": str(TRACE_LIB)}
    subprocess.run([sys.executable, "-c", script], check=True, env=environ, cwd=ROOT)
    environ.pop("CULE_CORE_LIB")
    subprocess.run([sys.executable, "-c", plain], check=True, env=environ, cwd=ROOT)
    assert np.array_equal(np.load(tmp_path / "trace.npy"), np.load(tmp_path / "plain.npy"))


def test_layouts_give_a_warp_reading_one_address_its_sectors():
    """A warp's 32 lanes reading one address: RAM is a sector per lane in the machines' own structs
    (aos) and one in a warp tile (tiles, as built) or structure-of-arrays (soa); a chip register
    stays a sector per lane in tiles, where only RAM is tiled."""
    lanes = lanes_from([[(0, 0xA5, 0)] for _ in range(sm.WARP)])   # LDA $80
    everyone = np.arange(sm.WARP)

    def sectors(layout):
        return len(set(sm.sector_ids(lanes, everyone, 0, everyone, layout, sm.WARP).tolist()))

    assert [sectors(layout) for layout in sm.LAYOUTS] == [32, 1, 1]
    lanes.access_addr[:] = 0x02   # WSYNC, a TIA register
    assert [sectors(layout) for layout in sm.LAYOUTS] == [32, 32, 1]


def test_local_memory_takes_a_sector_per_group_of_8_lanes_a_pass_has():
    """Local memory (the GPU's Bus) puts a word of a warp's 32 lanes side by side: a request by
    all 32 is 4 sectors a word; lanes 0, 8, 16 and 24 alone, 4 sectors too, and the 28 others
    then 4 more; lanes 0-7 alone, 1 sector."""
    import sass   # kernel_models/sass.py

    costs = {"fetch": sass.Cost(instructions=10, local_memory=2, local_words=3)}
    parts = [("", "", False, False)] * 256

    def local(keys):   # one NOP per lane at its code key: min-pc runs a pass per key
        lanes = lanes_from([[(k, 0xEA, 0)] for k in keys])
        result, schedule = sm.replay(lanes, "min-pc")
        return sm.issue(lanes, schedule, "min-pc", costs, parts)["local_sectors_per_warp_frame"]

    assert local([0] * 32) == 4 * 3
    assert local([0 if lane % 8 == 0 else 1 for lane in range(32)]) == 8 * 3
    assert local([0 if lane < 8 else 1 for lane in range(32)]) == (1 + 3) * 3


def test_slow_paths_run_once_a_pass_for_the_lanes_that_take_them():
    """The Bus's slow paths (sass.py's slow:<path> parts) cost a pass their instructions once, with
    the lanes that take them active, and nothing where no lane does: STA $02 (a TIA register) by
    lanes 0-3 and STA $80 (RAM) by the others, one pass; a branch taken back 5 bytes (BNE to 3
    bytes before it) takes the timer wait's path."""
    import dataclasses

    import sass   # kernel_models/sass.py

    costs = {"slow:chip@write": sass.Cost(instructions=20, local_memory=1, local_words=2),
             "slow:wait@loop": sass.Cost(instructions=7)}
    parts = [("", "", False, False)] * 256

    def stores(targets):   # one STA zp per lane: its fetch from the ROM and its write
        lanes = lanes_from([[(0, 0x85, 0)] for _ in targets])
        n = len(targets)
        return dataclasses.replace(
            lanes, first_access=2 * np.arange(n), access_count=np.full(n, 2),
            access_addr=np.array([a for t in targets for a in (0x1000, t)], np.uint16),
            access_write=np.array([False, True] * n), access_rom=np.array([1, 0] * n, np.uint32))

    def run(lanes):
        result, schedule = sm.replay(lanes, "min-pc")
        return sm.issue(lanes, schedule, "min-pc", costs, parts)

    some, none = run(stores([0x02] * 4 + [0x80] * 28)), run(stores([0x80] * 32))
    assert some["issued_per_warp_frame"] - none["issued_per_warp_frame"] == 20
    assert some["active_threads"] * some["issued_per_warp_frame"] - none["active_threads"] * none["issued_per_warp_frame"] == 20 * 4
    assert some["local_sectors_per_warp_frame"] == 2 and none["local_sectors_per_warp_frame"] == 0
    waits = run(lanes_from([[(10, 0xD0, 0), (7, 0xAD, 0)] for _ in range(32)]))
    loops = run(lanes_from([[(10, 0xD0, 0), (12, 0xAD, 0)] for _ in range(32)]))
    assert waits["issued_per_warp_frame"] - loops["issued_per_warp_frame"] == 7


def test_frame_call_stack_keys_start_at_each_frame():
    """The call sites a kernel knows: a JSR at 10 into 100 and its return in frame 0; frame 1 begins
    inside a subroutine, whose return leaves the depth at 0."""
    key = np.array([10, 100, 101, 13, 200, 14], np.uint32)
    opcode = np.array([0x20, 0xEA, 0x60, 0xEA, 0x60, 0xEA], np.uint8)
    first = np.array([1, 0, 0, 0, 1, 0], bool)
    words = [int(w) for w in sm.frame_call_stack_keys(key, opcode, first)]
    short = lambda k: (k + 1) << 48   # noqa: E731
    assert words == [short(10), short(10) | (101 << 32), short(10) | (102 << 32), short(13), short(200), short(14)]


def test_slots_run_every_lane_where_passes_run_few():
    """+slot1: lanes at 32 places of the code, half of them at one opcode and half at another; a
    pass runs the 16 lanes of one opcode (the lowest key's and those joining it), a slot all 32,
    two cases: 32 x 2 > 16 x (1 + 2), so after the first pass (+slot1a: weighed against the frame's
    passes so far) every lane runs each instruction in a slot."""
    streams = [[(lane * 10 + i, 0xEA if lane % 2 else 0xE8, 0) for i in range(4)] for lane in range(32)]
    lanes = lanes_from(streams)
    iterations = {policy: sm.replay(lanes, policy)[0]["iterations"]
                  for policy in ("fstack+wait+join", "fstack+wait+join+slot1", "fstack+wait+join+slot1a+stick4")}
    # each lane's 4 instructions: passes of 16 lanes take 8 iterations; slots 4, after a pass 5
    assert iterations == {"fstack+wait+join": 8, "fstack+wait+join+slot1": 4, "fstack+wait+join+slot1a+stick4": 5}


def test_ncu_reports_give_issued_instructions_two_ways_that_agree():
    """ncu_metrics reads the committed reports; the issued instructions from the branch
    instructions and from the warps' active cycles agree for every kernel profiled, within 1% and
    what the branches' share, given to two decimals, leaves open."""
    profiled = {"split": {"cule_step_logged", "cule_render"}, "in-passes": {"cule_step_in_passes", "cule_render_by_clock"}}
    for step, path in sm.NCU_FILES.items():
        metrics = sm.ncu_metrics(ROOT / "benchmarks" / "results" / path)
        assert set(metrics) == profiled[step], metrics.keys()
        for kernel, m in metrics.items():
            assert m["# SMs"] == 132 and m["Block Size"] == 64, (kernel, m)
            by_branches, by_cycles = sm.ncu_issued_per_warp_frame(m)
            rounding = 0.005 / m["Branch Instructions Ratio"]
            assert abs(by_branches / by_cycles - 1) < 0.01 + rounding, (kernel, by_branches, by_cycles)


def warp_lanes(lanes: sm.Lanes, w: int) -> sm.Lanes:
    """The instructions of warp `w`'s 32 envs alone."""
    e0, e1 = w * sm.WARP, (w + 1) * sm.WARP
    s, e = lanes.base[e0], lanes.base[e1 - 1] + lanes.count[e1 - 1]
    a0, a1 = lanes.first_access[s], lanes.first_access[e - 1] + lanes.access_count[e - 1]
    return sm.Lanes(lanes.key[s:e], lanes.opcode[s:e], lanes.frame[s:e], lanes.stack_key[s:e], lanes.polling[s:e],
                    lanes.first_access[s:e] - a0, lanes.access_count[s:e], lanes.access_addr[a0:a1],
                    lanes.access_write[a0:a1], lanes.access_rom[a0:a1], lanes.base[e0:e1] - s, lanes.count[e0:e1],
                    lanes.frames[e0:e1], lanes.skipped[e0:e1], lanes.frame_stack_key[s:e])


@pytest.mark.parametrize("policy", ["per-lane", "fstack+wait+join", "fstack+wait+join+slot1+stick4", "lanes"])
def test_issue_gives_each_warp_what_it_issues_alone(policy):
    """issue's issued_by_warp: each warp's instructions replayed alone (warp_lanes) issue what the
    whole replay gives that warp (warps share no pass), the plan's own instructions with them, and
    the warps add up to the whole."""
    import sass   # kernel_models/sass.py

    costs = {"loop": sass.Cost(instructions=9), "fetch": sass.Cost(instructions=5),
             "plan:frame": sass.Cost(instructions=7), "plan:held": sass.Cost(instructions=2),
             "plan:slots": sass.Cost(instructions=4), "plan:meet": sass.Cost(instructions=3),
             "plan:alone": sass.Cost(instructions=1), "plan:iteration": sass.Cost(instructions=6),
             "plan:lanes": sass.Cost(instructions=2)}
    parts = [("", "", False, False)] * 256
    lanes = lanes_from(random_streams(np.random.default_rng(2), envs=96), polling=(30, 31))

    def issued(lanes_):
        _, schedule = sm.replay(lanes_, policy)
        x = sm.issue(lanes_, schedule, policy, costs, parts, 3.0, 11.0)
        return x["issued_per_warp_frame"] * schedule.warp_frames, x["issued_by_warp"]

    whole, by_warp = issued(lanes)
    alone = [issued(warp_lanes(lanes, w))[0] for w in range(3)]
    assert all(a > 0 for a in alone) and by_warp.tolist() == pytest.approx(alone)
    assert sum(alone) == pytest.approx(whole)


def test_lanes_runs_the_per_lane_schedule_with_the_plan_s_own_costs():
    """The lanes way replays as per-lane (every lane its own instruction each iteration) and issues
    per-lane's instructions, the plan's added: a frame's (and two turns of its loop, the second
    alone), and each iteration the test that keeps a lane in cpu_run's loop."""
    import sass   # kernel_models/sass.py

    costs = {"loop": sass.Cost(instructions=9), "fetch": sass.Cost(instructions=5),
             "plan:frame": sass.Cost(instructions=7), "plan:alone": sass.Cost(instructions=1),
             "plan:iteration": sass.Cost(instructions=6), "plan:lanes": sass.Cost(instructions=2)}
    parts = [("", "", False, False)] * 256
    lanes = lanes_from(random_streams(np.random.default_rng(3), envs=64), polling=(30, 31))
    (per_lane, a), (alone, b) = sm.replay(lanes, "per-lane"), sm.replay(lanes, "lanes")
    assert np.array_equal(a.pass_of, b.pass_of) and per_lane["passes"] == alone["passes"]
    x, y = (sm.issue(lanes, s, p, costs, parts, 3.0, 11.0) for s, p in ((a, "per-lane"), (b, "lanes")))
    frames = lanes.frames[:64].reshape(-1, sm.WARP).sum(axis=1) / sm.WARP
    assert y["issued_by_warp"] - x["issued_by_warp"] == pytest.approx((7 + 2 * 6 + 1) * frames + 2 * b.iterations)


def test_a_pass_of_every_lane_at_one_instruction_is_not_chosen():
    """console.h's warp schedule tests first whether every lane still in the frame is at one
    instruction in the cartridge's window (plan:whole), in passes, and chooses only where not: the replay
    counts those iterations and their lanes, and issue charges each choosing iteration the test
    and the others the choice besides. Lanes 0-15 run keys 0, 1, 10, 3; lanes 16-31 0, 1, 20, 3, 4:
    iterations at 0, 1, 3 and 4 (lanes 16-31 alone) are whole, the one at 10 and 20 is chosen (20
    joins, the same opcode); code outside the window is never whole."""
    import sass   # kernel_models/sass.py

    streams = [[(0, 0xEA, 0), (1, 0xEA, 0), (10, 0xEA, 0), (3, 0xEA, 0)]] * 16 + \
              [[(0, 0xEA, 0), (1, 0xEA, 0), (20, 0xEA, 0), (3, 0xEA, 0), (4, 0xEA, 0)]] * 16
    lanes = lanes_from(streams)
    _, schedule = sm.replay(lanes, "fstack+wait+join")
    check_schedule(lanes, schedule)
    assert (schedule.scheduled.tolist(), schedule.whole.tolist()) == ([5], [4])
    assert (schedule.waiting.tolist(), schedule.whole_waiting.tolist()) == ([144], [112])
    parts = [("", "", False, False)] * 256
    plain = sm.issue(lanes, schedule, "fstack+wait+join", {}, parts, 0.0, 11.0)["issued_by_warp"]
    tested = sm.issue(lanes, schedule, "fstack+wait+join", {"plan:whole": sass.Cost(instructions=5)}, parts, 0.0,
                      11.0)["issued_by_warp"]
    # the choice 11 each of 5 iterations, or the test 5 each and the choice in one (the dispatch's
    # own, dispatch_cost, alike in both)
    assert (tested - plain).tolist() == [(11 * 1 + 5 * 5) - 11 * 5]
    outside = lanes_from([[(sm.CODE_OUTSIDE | 7, 0xEA, 0)]] * 32)
    assert sm.replay(outside, "fstack+wait+join")[1].whole.tolist() == [0]
    # in slots the kernel does not test
    assert sm.replay(lanes, "fstack+wait+join+slot1+stick4")[1].whole.tolist() == [0]


def test_the_plan_takes_each_warp_the_way_of_fewest_units():
    """planned: a warp runs the way of fewest cost units (plan_units, console.h's PlanUnit: each
    iteration, each that meets, each opcode run), all but the 6 frames of every PLAN_PERIOD that
    sample each way, where the kernel counts (plan:count an iteration without a choice; lanes as a
    warp that meets every turn), and a far way's (over PLAN_FAR_QUARTERS / 4 of the fewest units)
    2 frames in PLAN_FAR_PERIODS periods. Warp 0 runs 10 passes, or 30 slots of 2 opcodes
    (all chosen), or 40 lanes' iterations of 2: passes, the others far; warp 1 100 passes (far),
    or 20 slots of 2 opcodes (5 chosen), or 40 of 2: slots, lanes near."""
    import sass   # kernel_models/sass.py

    def schedule(iterations, groups, chosen):
        slot = np.concatenate([np.arange(n) * 2 + w for w, n in enumerate(iterations)])
        group = np.repeat(np.arange(groups), len(slot)) if groups > 1 else np.zeros(len(slot), np.int64)
        slot = np.tile(slot, groups)
        return sm.Schedule(slot * 256 + group, slot, 64, 10.0, np.array(chosen), np.array(chosen) * 32)

    u = sm.PLAN_UNITS
    assert set(u) == {"iteration", "meet", "opcode"}
    units = lambda it, groups, meets=True: (u["iteration"] + u["meet"] * meets) * it + u["opcode"] * groups  # noqa: E731
    passes, slots, lanes = schedule([10, 100], 1, [10, 100]), schedule([30, 20], 2, [30, 5]), schedule([40, 40], 2, [0, 0])
    assert sm.plan_units(passes).tolist() == [units(10, 10), units(100, 100)]
    assert sm.plan_units(slots).tolist() == [units(30, 60), units(20, 40)]
    assert sm.plan_units(lanes, meets=False).tolist() == [units(40, 80, False), units(40, 80, False)]
    costs = {"plan:count": sass.Cost(instructions=2), "plan:meet": sass.Cost(instructions=3),
             "plan:held": sass.Cost(instructions=5), "plan:iteration": sass.Cost(instructions=4)}
    r = sm.planned([(passes, dict(issued_by_warp=np.array([100.0, 1000.0]), issued_per_warp_frame=110.0)),
                    (slots, dict(issued_by_warp=np.array([300.0, 200.0]), issued_per_warp_frame=50.0)),
                    (lanes, dict(issued_by_warp=np.array([250.0, 300.0]), issued_per_warp_frame=55.0))], costs)
    counted = [[100, 1000], [300 + 2 * 0, 200 + 2 * 15], [250 + (2 + 3 + 5 + 4) * 40, 300 + (2 + 3 + 5 + 4) * 40]]
    assert r["way_warps"] == dict(passes=1, slots=1, lanes=0)
    assert [r["terms"][w]["counted"] for w in sm.PLAN_WAYS] == counted
    sample, far = 2 / sm.PLAN_PERIOD, 2 / sm.PLAN_PERIOD / sm.PLAN_FAR_PERIODS
    units = [[units(10, 10), units(30, 60), units(40, 80, False)], [units(100, 100), units(20, 40), units(40, 80, False)]]
    assert [[4 * x > sm.PLAN_FAR_QUARTERS * min(warp) for x in warp] for warp in units] == \
        [[False, True, True], [True, False, False]]
    assert r["issued_per_warp"] == pytest.approx(
        [(1 - sample - 2 * far) * 100 + sample * counted[0][0] + far * (counted[1][0] + counted[2][0]),
         (1 - 2 * sample - far) * 200 + far * counted[0][1] + sample * (counted[1][1] + counted[2][1])])
    assert r["issued_per_warp_frame"] == pytest.approx(sum(r["issued_per_warp"]) / 10)
    # replanned: the same from the terms alone, under the kernel's units
    assert sm.replanned(r) == dict(issued_per_warp_frame=pytest.approx(r["issued_per_warp_frame"]),
                                   way_warps=r["way_warps"])


def test_rank_units_weighs_the_ways_picked_against_the_fewest():
    """rank_units: over every warp, the issued instructions of the way its units pick against the
    fewest of its ways. One warp whose lanes way issues least but has the most iterations: units
    that weigh an iteration 10x an opcode pick it; those that weigh it 1x pick passes (1.5x)."""
    def terms(iterations, groups, issued):
        return dict(iterations=[iterations], groups=[groups], issued=[issued])

    plan = dict(game="g", age=1, policy=sm.PLAN, warps=1, terms=dict(
        passes=terms(10, 10, 150.0), slots=terms(10, 60, 120.0), lanes=terms(12, 12, 100.0)))
    lines = sm.rank_units([dict(results=[plan])], top=3).splitlines()
    # units (iteration, meet, opcode): passes 10i + 10m + 10o, slots 10i + 10m + 60o, lanes 12i + 12o
    best = [line for line in lines if line.startswith("  (")]
    assert all(line.endswith(": 1.0000") for line in best), lines   # e.g. (1, 1, 1): 20, 70 against 24
    assert lines[0] == "1 games and ages, 1 warps; the way of fewest units issues, against the fewest:"
    built = sm.PLAN_UNITS
    units = [10 * (built["iteration"] + built["meet"] + built["opcode"]),
             10 * (built["iteration"] + built["meet"]) + 60 * built["opcode"], 12 * (built["iteration"] + built["opcode"])]
    assert lines[1].endswith(f": {[150.0, 120.0, 100.0][int(np.argmin(units))] / 100:.4f}")
    # on the kernel's own code, where the lanes issue most, units that pick lanes pick the worst
    plan["own_code"] = dict(terms=dict(passes=terms(10, 10, 150.0), slots=terms(10, 60, 120.0), lanes=terms(12, 12, 300.0)))
    own = sm.rank_units([dict(results=[plan])], top=3, own_code=True).splitlines()
    assert own[1].endswith(f": {[150.0, 120.0, 300.0][int(np.argmin(units))] / 120:.4f}")
    assert sm.rank_units([dict(results=[dict(plan, own_code={})])], own_code=True) == "no plan results with their terms"


def test_the_plan_table_sets_the_plan_against_per_lane_game_by_game():
    """plan_table: runs' records merged (the halves of a run over every game), each game and age
    its per-lane and plan figures and their ratio, the plan's on its own machine code where the
    run has it, and the games where the plan issues more, each way."""
    def row(game, age, policy, issued, kernel="built", own=None):
        r = dict(game=game, age=age, policy=policy, issued_per_warp_frame=issued, kernel=kernel)
        return dict(r, own_code=dict(issued_per_warp_frame=own)) if own else r

    halves = [dict(results=[row("pong", 100, "per-lane", 6e6), row("pong", 100, "plan", 2e6, own=2.1e6),
                            row("pong", 100, "per-lane", 9e6, kernel="33f16b6"),
                            row("seaquest", 100, "per-lane", 4e6), row("seaquest", 100, "plan", 3.96e6, own=4.04e6)]),
              dict(results=[row("amidar", 100, "per-lane", 3.6e6), row("amidar", 100, "plan", 3.8e6),
                            row("amidar", 100, "fstack+wait+join", 7.7e6)])]
    table = sm.plan_table(halves).splitlines()
    assert table[0] == "| game | 100 steps: per-lane, plan |"
    assert table[2:5] == ["| amidar | 3.60M, 3.80M (1.056x) |", "| pong | 6.00M, 2.00M (0.333x; 0.350x on its own code) |",
                          "| seaquest | 4.00M, 3.96M (0.990x; 1.010x on its own code) |"]
    assert table[-1] == "3 games; the plan above per-lane: amidar at 100; on its own code: seaquest at 100"


def test_own_costs_are_the_warp_schedule_kernels_machine_code():
    """own_costs: every part as the warp schedule's kernel compiles it, one it lacks as the plain
    kernel's; in_passes_costs: the plain kernel's interpreter, the loop and plan parts its own;
    before the plan's parts (no plan:choice), the loop stays the plain kernel's, as schedule_cost
    charges the rest of the warp schedule's loop."""
    import sass   # kernel_models/sass.py

    c = lambda n: sass.Cost(instructions=n)  # noqa: E731
    logged = {"loop": c(18), "fetch": c(46), "mode:ZP": c(26), "slow:cart@read": c(10)}
    in_passes = {"loop": c(13), "fetch": c(40), "mode:ZP": c(29), "plan:choice": c(82), "plan:lanes": c(6)}
    costs = dict(cule_step_logged=logged, cule_step_in_passes=in_passes)
    own = sm.own_costs(costs)
    assert {k: v.instructions for k, v in own.items()} == \
        {"loop": 13, "fetch": 40, "mode:ZP": 29, "slow:cart@read": 10, "plan:choice": 82, "plan:lanes": 6}
    mixed = sm.in_passes_costs(costs)
    assert {k: v.instructions for k, v in mixed.items()} == \
        {"loop": 13, "fetch": 46, "mode:ZP": 26, "slow:cart@read": 10, "plan:choice": 82, "plan:lanes": 6}
    del in_passes["plan:choice"]
    assert sm.own_costs(costs)["loop"].instructions == 18 and sm.own_costs(costs)["fetch"].instructions == 40
    assert sm.schedule_cost(costs) == 13 - 18 + sm.POLL_TEST_COST


def test_log_sectors_share_a_sector_where_a_pass_stores_one_count():
    """log_sectors: the TIA log's events of the logged frames (the last LOG_FRAMES), a store each
    TIA access: each lane's own a sector a store; interleaved across the lanes, one a pass's
    group of 8 lanes at one count. A warp whose lanes run one program in lockstep, each
    instruction a TIA write (address 0x02), 4 frames of 5; then lane 0 reads RAM instead at its
    last frame's first instruction, and its count runs one behind the others' for the rest."""
    frames, per_frame = 4, 5
    lanes = lanes_from([[(pc, 0xEA, f) for f in range(frames) for pc in range(per_frame)] for _ in range(sm.WARP)])
    lanes.access_addr[:] = 0x02
    logged = sm.LOG_FRAMES * per_frame

    def sectors():
        _, schedule = sm.replay(lanes, "min-pc")
        x = sm.log_sectors(lanes, schedule.pass_of, sm.WARP, frames)
        return x["log_sectors_per_warp_frame_own"] * frames, x["log_sectors_per_warp_frame_interleaved"] * frames

    assert sectors() == (sm.WARP * logged, 4 * logged)   # 32 lanes: 4 groups of 8
    lanes.access_addr[lanes.base[0] + (frames - 1) * per_frame] = 0x80
    assert sectors() == (sm.WARP * logged - 1, 4 * logged + per_frame - 1)
