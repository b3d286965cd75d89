"""The SIMT model: how the GPU's warps would run cule's emulator, measured on a CPU from real
instruction traces.

A build of the CPU backend that records traces (`make simt-model` builds it; kernels/testing/trace.h)
plays random v5 games; at each env age it records one step of the split step's state pass: every
6502 instruction of every env (its PC as a ROM offset, so banks are told apart, its opcode), every
bus access (address, ROM offset or CPU cycle) and the frames. The model groups the envs into warps
of 32 consecutive envs, as the kernels do, and replays each warp under a scheduling policy:

  per-lane    today's kernel: every lane runs its own next instruction; the warp runs one pass per
              distinct opcode among its lanes in each instruction slot (a lower bound of the
              hardware's sharing: the fetch and decode are common, see `ncu` below)
  min-pc      a pass runs the lanes at the warp's lowest code key (ROM offset of the PC)
  most        a pass runs the lanes at the code key most lanes share (the lowest of a tie)
  stack       as min-pc, lanes ordered by their JSR call sites first, outermost first, then the PC
              (the sites of calls made earlier in the traced step, which a kernel cannot know)
  fstack      as stack, with the call sites a kernel knows: those of calls made since the frame began
  +wait       lanes at a timer-polling loop (found by a scan of the ROM) run only when no lane of
              the warp has other work
  +join       lanes whose next opcode is the chosen lanes' join their pass; +joinN only a pass of
              fewer than N lanes; +alone only lanes alone at their code key
  +slotN      a slot (every candidate lane its own instruction, as per-lane) instead of the pass
              where that runs more lanes an instruction issued (slot_instead); +slotNa weighs it
              against the frame's passes so far, not this one; +stickM then M - 1 slots of every
              lane without choosing
  lanes       as per-lane, in the warp schedule's kernel (its LANES way)
  plan        as built (console.h, WarpPlan): each warp the way of fstack+wait+join,
              fstack+wait+join+slot1+stick4 and lanes its cost units make cheapest (plan_units),
              but for the frames that sample each; its own_code: the same on the warp schedule's
              kernel's own machine code (own_costs), where the ways are on the plain kernel's
              interpreter (in_passes_costs), told apart from per-lane by their schedule alone

Every policy runs a warp frame by frame (lanes whose frame has ended wait for the others, as the
kernels' loops reconverge), and every lane runs its own instructions in its own order: a policy
only chooses which lanes share a pass, so it cannot change a result. Reported per game, age and
policy: active lanes per pass, passes per warp-frame, and for each layout of the state the 32-byte
sectors per warp memory request and per warp-frame:

  aos         one struct per env (RAM, chips' registers); every lane its own sectors
  tiles       each warp's RAM in a tile of its own in global memory, byte k of its 32 lanes side by
              side (console.h, ram_to_warp_tile), so that the lanes of a pass reading one address
              read one sector; the rest as aos (the warp schedule's kernel keeps the tile in shared
              memory: none of its sectors are global)
  soa         RAM as tiles, and each chip register and the machine state's own fields side by side
              across lanes too (not built)

ROM reads are shared by every env in both layouts. Sectors count the bus's accesses (opcode and
operand fetches, RAM, chip registers), the machine state's own global loads and stores, and the
local memory the interpreter loads and stores (the GPU's Bus: word k of a warp's lanes side by
side, a sector per group of 8 lanes), from the machine code of each part of the interpreter
(kernel_models/sass.py; the Bus's slow paths, a chip's register or a bank switch, only when the
trace takes them); what a TIA access does inside the chip and the frame buffers are not
counted (kernel_models/memory_model.py counts them). The TIA log's event stores are counted
apart (log_sectors), as built and interleaved across a warp's lanes, where a pass's lanes at one
count of events share a sector (memory_model.py's log-interleaved assumes they always do). Each
policy runs on the kernel as built (kernel "built"); the per-lane policy also on today's kernel,
the machine code of the commit TODAY_COSTS names (kernel: that commit), and per-lane and the plan
on the kernels the lean core began from (LEAN_BASE_COSTS: a per-lane row with that commit as its
kernel, the plan's base_code).
A run of Pong at ncu's age (NCU_AGE) checks the model against ncu's profiles (calibrate_logged).
With --per-warp each warp's issued instructions are kept too.

    make simt-model                                   # the five games, 1,024 envs, ages 7 to 3,000
    python kernel_models/simt_model.py --games pong --envs 256 --ages 7 100
    python kernel_models/simt_model.py --games all --envs 256 --ages 100 3000 --policies per-lane \
        plan --states <dir> --out <file> --resume --compact   # every game: hours, resumable
    python kernel_models/simt_model.py --table <file> ...      # the plan against per-lane, game by game
                                                               # (--replan: under the kernel's units now)
    python kernel_models/simt_model.py --units <file> ...      # how well PLAN_UNITS rank the plan's ways
                                                               # (--own-code: on the kernel's own code)

writes benchmarks/results/simt_model-<date>.json; benchmarks/plot_simt_model.py draws its lanes per
pass against env age.
"""
from __future__ import annotations

import argparse
import functools
import datetime
import json
import os
import platform
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TRACE_LIB = ROOT / "build" / "trace" / "_core.so"
os.environ.setdefault("CULE_CORE_LIB", str(TRACE_LIB))
sys.path.insert(0, str(ROOT))
from benchmarks._results import new_result_path  # noqa: E402
from cule import _core  # noqa: E402

WARP = 32
GAMES = ["pong", "breakout", "ms_pacman", "space_invaders", "seaquest"]
AGES = [7, 100, 500, 1000, 3000]
POLICIES = ["per-lane", "min-pc", "min-pc+wait", "stack", "stack+wait", "stack+wait+join", "fstack+wait",
            "fstack+wait+join"]
# Tried and worse alone (docs/results.md has their numbers; the plan's second way is one); --policies
# runs them.
TRIED = ["most", "most+wait", "min-pc+wait+join", "min-pc+wait+join8", "min-pc+wait+join+alone",
         "fstack+wait+join+slot1+stick4", "fstack+wait+join+slot1a+stick8"]

# kernels/testing/trace.h
TRACE_EVENT = np.dtype([("kind", "u1"), ("value", "u1"), ("addr", "<u2"), ("extra", "<u4")])
INSN, READ, WRITE, WAIT, FRAME, STEP = range(6)
CODE_OUTSIDE = 0x80000000


# The 6507's address space as the Bus decodes it (console.h's peek and poke): A12 set the
# cartridge; else A7 set and A9 clear the RAM; else the chips, A7 clear the TIA, set the RIOT.
def is_cart(addr: np.ndarray) -> np.ndarray:
    return (addr & 0x1000) != 0


def is_ram(addr: np.ndarray) -> np.ndarray:
    return (addr & 0x1280) == 0x80


def is_chip(addr: np.ndarray) -> np.ndarray:
    return ~is_cart(addr) & ~is_ram(addr)


def is_tia(addr: np.ndarray) -> np.ndarray:
    return (addr & 0x1080) == 0


POLL_READS = (0xAD, 0xAE, 0xAC, 0x2C)   # LDA, LDX, LDY, BIT absolute (m6502::is_poll_read)
BRANCHES = (0x10, 0x30, 0x50, 0x70, 0x90, 0xB0, 0xD0, 0xF0)
JSR, RTS, RTI = 0x20, 0x60, 0x40
NO_KEY = np.uint64(2 ** 64 - 1)


def polling_offsets(rom: np.ndarray) -> np.ndarray:
    """ROM offsets of the two instructions of every loop that waits for the RIOT timer: a read of
    INTIM or TIMINT and a branch back to it (5 bytes), as Bus::wait_on_timer recognises them."""
    o = np.arange(len(rom) - 4)
    addr = rom[o + 1].astype(np.int64) | rom[o + 2].astype(np.int64) << 8
    timer = ((addr & 0x1280) == 0x0280) & ((addr & 0x04) != 0)   # riot_is_timer
    loop = np.isin(rom[o], POLL_READS) & timer & np.isin(rom[o + 3], BRANCHES) & (rom[o + 4] == 0xFB)
    starts = o[loop]
    return np.union1d(starts, starts + 3)


@dataclass
class Lanes:
    """One traced step of every env: instructions and their bus accesses, env after env."""
    key: np.ndarray          # the code key of each instruction (trace.h)
    opcode: np.ndarray
    frame: np.ndarray        # the frame of the step it runs in
    stack_key: np.ndarray    # its JSR call sites (outermost first) and key, for `stack`
    polling: np.ndarray      # it is one of a timer-polling loop's
    first_access: np.ndarray
    access_count: np.ndarray
    access_addr: np.ndarray
    access_write: np.ndarray
    access_rom: np.ndarray   # ROM offset + 1 of a cartridge read in the window, else 0
    base: np.ndarray         # per env: its first instruction
    count: np.ndarray        # per env: its instructions
    frames: np.ndarray       # per env: frames emulated
    skipped: np.ndarray      # per env: instructions of timer waits run at once
    frame_stack_key: np.ndarray | None = None   # for `fstack`: frame_call_stack_keys

    def __post_init__(self):
        if self.frame_stack_key is None:
            env = np.repeat(np.arange(len(self.base)), self.count)
            first = np.ones(len(self.key), bool)
            first[1:] = (self.frame[1:] != self.frame[:-1]) | (env[1:] != env[:-1])
            # a kernel reads the opcode ahead through the cartridge's window: calls from code
            # outside it are not followed
            known = np.where(self.key & CODE_OUTSIDE, 0, self.opcode)
            self.frame_stack_key = frame_call_stack_keys(self.key, known, first)

    @property
    def num_envs(self) -> int:
        return len(self.base)


def decode(events: np.ndarray, counts: np.ndarray, rom: np.ndarray) -> Lanes:
    ev = events.view(TRACE_EVENT).ravel()
    kind = ev["kind"]
    env_of = np.repeat(np.arange(len(counts)), counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])

    is_insn = kind == INSN
    insn_at = np.flatnonzero(is_insn)
    owner = np.cumsum(is_insn) - 1   # the instruction an event belongs to
    fetch = insn_at + 1
    assert np.all(kind[fetch] == READ) and np.all(ev["addr"][fetch] == ev["addr"][insn_at]), "fetch follows INSN"
    opcode = ev["value"][fetch]
    key = ev["extra"][insn_at]

    begins = (kind == FRAME) & (ev["value"] == 0)
    frame_count = np.cumsum(begins)
    frame_of_event = frame_count - 1 - np.concatenate([[0], frame_count])[starts][env_of]
    frame = frame_of_event[insn_at].astype(np.int16)
    frames = np.bincount(env_of[begins], minlength=len(counts))

    insn_env = env_of[insn_at]
    count = np.bincount(insn_env, minlength=len(counts))
    base = np.concatenate([[0], np.cumsum(count)[:-1]])

    acc = np.flatnonzero((kind == READ) | (kind == WRITE))
    acc_owner = owner[acc]
    first_access = np.searchsorted(acc_owner, np.arange(len(insn_at)))
    access_count = np.bincount(acc_owner, minlength=len(insn_at))
    addr = ev["addr"][acc]
    access_rom = np.where(is_cart(addr), ev["extra"][acc], 0).astype(np.uint32)
    access_rom[(access_rom & CODE_OUTSIDE) != 0] = 0

    waits = kind == WAIT
    skipped = np.bincount(env_of[waits], weights=ev["extra"][waits], minlength=len(counts)).astype(np.int64)

    polling = np.isin(key, polling_offsets(rom)) & (key & CODE_OUTSIDE == 0)
    stack_key = call_stack_keys(key, opcode, base, count)
    return Lanes(key, opcode, frame, stack_key, polling, first_access, access_count, addr,
                 kind[acc] == WRITE, access_rom, base, count, frames, skipped)


def call_stack_keys(key: np.ndarray, opcode: np.ndarray, base: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Each instruction's place in program order: the code keys of the JSRs it runs under (outermost
    first) and its own, 16 bits each, left-aligned in 64 bits, so that comparing the words compares
    the sequences (a prefix first). Depths count from the shallowest the env's trace reaches (a
    call made before the trace began has no known site, 0); past three calls the innermost sites
    are dropped."""
    n = len(key)
    env = np.repeat(np.arange(len(base)), count)
    delta = (opcode == JSR).astype(np.int64) - np.isin(opcode, (RTS, RTI))
    after = np.cumsum(delta)
    after -= np.concatenate([[0], after])[base][env]   # from each env's start
    depth = after - delta
    depth -= np.minimum.reduceat(depth, base)[env] if n else 0
    return call_site_words(key, opcode, depth, base[env])


def call_site_words(key: np.ndarray, opcode: np.ndarray, depth: np.ndarray, begin: np.ndarray) -> np.ndarray:
    """The 64-bit words of call_stack_keys from each instruction's call depth and the first
    instruction of its stretch (`begin`: calls made before it have no known site)."""
    short = (key & 0xFFFF).astype(np.uint64) + np.uint64(1)   # 0 ends a sequence
    index = np.arange(len(key))
    word = np.zeros(len(key), np.uint64)
    for d in range(3):
        # the call site of level d + 1: the last JSR made at depth d before the instruction
        site = np.where((opcode == JSR) & (depth == d), index, -1)
        site = np.maximum.accumulate(site)
        site = np.concatenate([[-1], site[:-1]])
        known = (depth > d) & (site >= begin)
        word |= np.where(known, short[np.maximum(site, 0)], 0) << np.uint64(48 - 16 * d)
    return word | short << (np.uint64(48) - np.uint64(16) * np.minimum(depth, 3).astype(np.uint64))


def frame_call_stack_keys(key: np.ndarray, opcode: np.ndarray, first: np.ndarray) -> np.ndarray:
    """call_stack_keys as a kernel can know them: from the start of each frame (`first` marks the
    first instruction of each env's frames), at depth 0, a return at depth 0 staying there."""
    n = len(key)
    if not n:
        return np.zeros(0, np.uint64)
    segment = np.cumsum(first) - 1
    delta = (opcode == JSR).astype(np.int64) - np.isin(opcode, (RTS, RTI))
    total = np.cumsum(delta)
    start = np.flatnonzero(first)
    walk = total - (total - delta)[start][segment]   # the depth after each instruction, unclamped
    # clamped at 0: the walk less its lowest point so far below 0 (a running minimum per segment)
    big = np.int64(4 * n + 4)
    lowest = np.minimum.accumulate(walk - segment * big) + segment * big
    after = walk - np.minimum(lowest, 0)
    depth = np.concatenate([[0], after[:-1]])
    depth[start] = 0
    return call_site_words(key, opcode, depth, start[segment])


def sector_ids(lanes: Lanes, g: np.ndarray, k: int, env: np.ndarray, layout: str, num_envs: int) -> np.ndarray:
    """The 32-byte sector of access k of instructions g (made by envs `env`) under a layout; a ROM
    read's sector is the same for every env."""
    a = lanes.first_access[g] + k
    addr = lanes.access_addr[a].astype(np.int64)
    rom = lanes.access_rom[a].astype(np.int64)
    env = env.astype(np.int64)
    ram = is_ram(addr)
    # each env's own struct: a sector of its RAM, or of its chips' registers
    per_env = env << 16 | np.where(ram, (addr & 0x7F) >> 5, 0x100 | (addr & 0x3FF))
    # byte k of a warp's RAM (or register k of its chips) side by side: a sector per warp
    per_warp = (1 << 61) | np.where(ram, addr & 0x7F, 0x100 | (addr & 0x3FF)) * (num_envs // WARP) + env // WARP
    own = {"aos": per_env, "tiles": np.where(ram, per_warp, per_env), "soa": per_warp}[layout]
    return np.where(rom > 0, (1 << 62) | (rom - 1) >> 5, own)


LAYOUTS = ("aos", "tiles", "soa")
# The tiles' copies, each frame of a warp: every lane's 128 bytes of RAM read and written back in
# its machine (5 sectors each way: they start 24 bytes into it, state_layout), and the tile's 128
# rows written and read (a sector each).
TILE_COPY_SECTORS = WARP * 5 * 2 + 128 * 2


def replay(lanes: Lanes, policy: str, sectors: bool = True) -> dict:
    """Runs every warp under `policy`: which lanes share each pass. Gives the passes and the lanes
    they ran, and with `sectors` for each layout the memory requests and sectors of the bus
    accesses (a plan reads only its ways' schedules: without, their replays take 0.45x the time,
    Battle Zone, 128 envs)."""
    n = lanes.num_envs - lanes.num_envs % WARP
    warps = n // WARP
    base = lanes.base[:n].reshape(warps, WARP)
    count = lanes.count[:n].reshape(warps, WARP)
    last = max(len(lanes.key) - 1, 0)
    ptr = np.zeros((warps, WARP), np.int64)
    wait = "wait" in policy
    join = "join" in policy
    order = (lanes.stack_key if policy.startswith("stack") else lanes.frame_stack_key if policy.startswith("fstack")
             else lanes.key.astype(np.uint64))
    opcode = lanes.opcode.astype(np.int64)
    # the opcodes a kernel reads ahead, through the cartridge's window (code outside it never joins)
    known_opcode = np.where(lanes.key & CODE_OUTSIDE, -1, opcode)
    warp_ids = np.arange(warps)[:, None]
    # Each instruction run: its pass (iteration, warp, and for per-lane its opcode), and the
    # iteration's request for the opcode fetch, which every lane of a slot shares.
    pass_of = np.full(len(lanes.key), -1, np.int64)
    slot_of = np.full(len(lanes.key), -1, np.int64)
    iteration = 0
    # each warp's iterations that chose lanes, and the lanes then active; of them, without +slot,
    # those whose active lanes were all at one instruction in the window (console.h: in passes the
    # pass is every lane's without a choice), and their lanes
    scheduled, waiting = np.zeros(warps, np.int64), np.zeros(warps, np.int64)
    whole, whole_waiting = np.zeros(warps, np.int64), np.zeros(warps, np.int64)
    stick = int(policy.split("stick")[1]) if "stick" in policy else 0
    # for +slot: each warp's frame, slots left to run on (+stickM), lanes and passes in the frame
    seen_frame, held_for = np.full(warps, -1, np.int64), np.zeros(warps, np.int64)
    pass_lanes, pass_count = np.zeros(warps, np.int64), np.zeros(warps, np.int64)
    while True:
        unfinished = ptr < count
        if not unfinished.any():
            break
        g = np.minimum(base + ptr, last)
        frame = np.where(unfinished, lanes.frame[g], np.iinfo(np.int16).max)
        active = unfinished & (frame == frame.min(axis=1, keepdims=True))   # the warp's current frame
        if policy in ("per-lane", "lanes"):
            chosen = active
            group = opcode[g]                                 # a pass per distinct opcode
        else:
            candidates = active
            if wait:   # polling lanes wait while a lane of the frame has other work
                busy = active & ~lanes.polling[g]
                candidates = np.where(busy.any(axis=1, keepdims=True), busy, active)
            k = np.where(candidates, order[g], NO_KEY)
            if policy.startswith("most"):   # the lanes of the most shared key, the lowest of a tie
                shared = np.where(candidates, (k[:, :, None] == k[:, None, :]).sum(axis=2), 0)
                k = np.where(shared == shared.max(axis=1, keepdims=True), k, NO_KEY)
            chosen = candidates & (k == k.min(axis=1, keepdims=True))
            if join:   # lanes about to run the same opcode elsewhere join the pass
                leader = g[warp_ids[:, 0], np.argmax(chosen, axis=1)]
                joins = active & (known_opcode[g] == known_opcode[leader][:, None]) & (known_opcode[leader] >= 0)[:, None]
                limit = policy.split("join")[1].split("+")[0]
                if limit:   # +joinN: only into a pass of fewer than N lanes
                    joins &= chosen.sum(axis=1, keepdims=True) < int(limit)
                if "alone" in policy:   # only lanes alone at their key
                    shared = (k[:, :, None] == k[:, None, :]).sum(axis=2)
                    joins &= shared == 1
                chosen |= joins
            group = 0
            choosing = np.ones(warps, bool)
            if "slot" in policy:   # +slotN: every candidate runs its own instruction instead, if that pays
                units = policy.split("slot")[1].split("+")[0]
                current = frame.min(axis=1)
                new_frame = current != seen_frame
                seen_frame = current
                pass_lanes[new_frame], pass_count[new_frame], held_for[new_frame] = 0, 0, 0
                # +slotNa: weighed against the frame's passes so far, lanes per pass, else this one's
                passing = (pass_lanes, pass_count) if units.endswith("a") else (chosen.sum(axis=1), 1)
                slots = slot_instead(candidates, known_opcode[g], passing, int(units.rstrip("a")))
                held = held_for > 0   # +stickM: a slot, then M - 1 of every lane of the frame without choosing
                ran_pass = ~held & ~slots & chosen.any(axis=1)
                chosen = np.where(held[:, None], active, np.where(slots[:, None], candidates, chosen))
                group = np.where((held | slots)[:, None], opcode[g], 0)
                held_for = np.where(held, held_for - 1, np.where(slots, max(stick, 1) - 1, 0))
                pass_lanes += np.where(ran_pass, chosen.sum(axis=1), 0)
                pass_count += ran_pass
                choosing = ~held
            scheduled += chosen.any(axis=1) & choosing
            waiting += np.where(choosing, active.sum(axis=1), 0)
            at = lanes.key[g].astype(np.int64)
            first_key = at[warp_ids[:, 0], np.argmax(active, axis=1)]
            one = choosing & active.any(axis=1) & ~(active & ((at != first_key[:, None]) | (known_opcode[g] < 0))).any(axis=1)
            one &= tests_whole(policy)
            whole += one
            whole_waiting += np.where(one, active.sum(axis=1), 0)
        slot = iteration * warps + warp_ids
        run = g[chosen]
        slot_of[run] = np.broadcast_to(slot, g.shape)[chosen]
        pass_of[run] = (np.broadcast_to(slot, g.shape) * 256 + group)[chosen]
        ptr += chosen
        iteration += 1
    ran = lanes.base[n - 1] + lanes.count[n - 1] if n else 0
    pass_of, slot_of = pass_of[:ran], slot_of[:ran]
    passes = len(np.unique(pass_of))
    warp_frames = int(lanes.frames[:n].sum()) / WARP
    out = dict(policy=policy, warps=warps, lane_instructions=int(ran), passes=passes,
               lanes_per_pass=ran / max(passes, 1), passes_per_warp_frame=passes / max(warp_frames, 1),
               iterations=iteration)
    if sectors:
        out.update(memory(lanes, pass_of, slot_of, n, warp_frames))
    return out, Schedule(pass_of, slot_of, n, warp_frames, scheduled, waiting, whole, whole_waiting)


def tests_whole(policy: str) -> bool:
    """Whether the kernel's way a policy replays tests for a pass of every lane at one instruction
    (console.h): in passes, not in slots (nor in the frames that sample passes, which the model
    does not tell apart)."""
    return "slot" not in policy


def slot_instead(candidates: np.ndarray, known: np.ndarray, passing: tuple, n: int) -> np.ndarray:
    """+slotN: the warps that run every candidate lane its own instruction (a slot, as per-lane)
    instead of a pass, where that runs more lanes an instruction issued: where candidates x (N + 1)
    > lanes a pass x (N + distinct opcodes), a pass costing N units of the loop and the choice and
    one of an opcode's cases, a slot one of its cases per distinct opcode (those read ahead; code
    outside the cartridge's window counts as one). `passing`: lanes and passes, per warp."""
    a = candidates.sum(axis=1)
    values = np.sort(np.where(candidates, known, 1 << 20), axis=1)
    distinct = ((np.diff(values, axis=1) != 0) & (values[:, 1:] < 1 << 20)).sum(axis=1) + (a > 0)
    lanes, passes = passing
    return (passes > 0) & (a * (n + 1) * passes > lanes * (n + distinct))


# The warp schedule as built (console.h, run_frame_in_passes and WarpPlan): each warp in passes,
# in slots or in lanes, whichever its cost units (plan_units) make cheapest, but for the 6 frames
# of every PLAN_PERIOD that sample each way, 2 each; a far way's (over PLAN_FAR_QUARTERS / 4 of the
# cheapest's units) one period in PLAN_FAR_PERIODS.
PLAN = "plan"
# the kernel's ways (console.h, Way) and the policies that replay them
PLAN_WAYS = dict(passes="fstack+wait+join", slots="fstack+wait+join+slot1+stick4", lanes="lanes")
PLAN_PERIOD, PLAN_FAR_QUARTERS, PLAN_FAR_PERIODS = _core.PLAN_PERIOD, _core.PLAN_FAR_QUARTERS, _core.PLAN_FAR_PERIODS
PLAN_UNITS = _core.PLAN_UNITS   # console.h's PlanUnit


def unit_terms(iterations, groups, meets: bool) -> np.ndarray:
    """What run_frame_in_passes counts a unit of (PLAN_UNITS' order), warp by warp, the last axis:
    each iteration, each that meets as a warp (`meets`: all but in lanes), each opcode the
    iterations' lanes run (a pass runs one)."""
    iterations = np.asarray(iterations)
    return np.stack([iterations, iterations * meets, np.asarray(groups)], axis=-1)


def plan_units(schedule: "Schedule", meets: bool = True) -> np.ndarray:
    """Each warp's cost units as run_frame_in_passes counts them (PLAN_UNITS, unit_terms)."""
    weights = [PLAN_UNITS[unit] for unit in ("iteration", "meet", "opcode")]
    return unit_terms(schedule.iterations, schedule.groups, meets) @ weights


def planned(ways: list[tuple["Schedule", dict]], costs: dict) -> dict:
    """The plan's issued instructions from a replay of each way (PLAN_WAYS' order: the schedule and
    its issue()): each warp the way of fewest units, the sampled frames each way (a far way's one
    period in PLAN_FAR_PERIODS), where the kernel counts units (`costs`' plan:count an iteration
    of every lane, in lanes as a warp that meets: plan:meet, plan:held, plan:iteration). All
    ways are measured on the same step here; the kernel compares the frames it sampled, up to
    PLAN_PERIOD frames before (PLAN_FAR_PERIODS periods, a far way's)."""
    cost = lambda name: costs[name].instructions if name in costs else 0  # noqa: E731
    schedules = [w[0] for w in ways]
    units = np.stack([plan_units(x, way != "lanes") for way, x in zip(PLAN_WAYS, schedules)])
    by_way = np.stack([x["issued_by_warp"] for _, x in ways])
    counted = by_way.copy()
    for k, (way, x) in enumerate(zip(PLAN_WAYS, schedules)):
        plain = x.iterations - x.scheduled   # iterations without a choice: each lane its own instruction
        counted[k] += cost("plan:count") * plain
        if way == "lanes":
            counted[k] += (cost("plan:meet") + cost("plan:held") + cost("plan:iteration")) * plain
    by_warp, take = plan_issued(units, by_way, counted)
    # each way's iterations, opcode groups and issued instructions, in sampled frames too, warp by
    # warp, for rank_units
    terms = {w: dict(iterations=x.iterations.tolist(), groups=x.groups.tolist(), issued=by_way[k].tolist(),
                     counted=counted[k].tolist())
             for k, (w, x) in enumerate(zip(PLAN_WAYS, schedules))}
    return dict(policy=PLAN, warps=len(by_warp), way_warps={w: int((take == k).sum()) for k, w in enumerate(PLAN_WAYS)},
                issued_per_warp_frame=float(by_warp.sum()) / max(schedules[0].warp_frames, 1),
                issued_per_warp=by_warp.tolist(),
                ways={w: x["issued_per_warp_frame"] for w, (_, x) in zip(PLAN_WAYS, ways)}, terms=terms)


def plan_issued(units: np.ndarray, issued: np.ndarray, counted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each warp's issued instructions under the plan, and the way it takes, from each way's units,
    issued instructions, and those where the kernel counts (ways by warps): the way of fewest
    units, but for the frames that sample each way (a far way's, over PLAN_FAR_QUARTERS / 4 of the
    fewest units, one period in PLAN_FAR_PERIODS)."""
    take = np.argmin(units, axis=0)
    far = 4 * units > PLAN_FAR_QUARTERS * units.min(axis=0)
    sample = np.where(far, 1 / PLAN_FAR_PERIODS, 1) * 2 / PLAN_PERIOD   # each way's share of frames, warp by warp
    return (1 - sample.sum(axis=0)) * issued[take, np.arange(len(take))] + (sample * counted).sum(axis=0), take


def replanned(result: dict, own_code: bool = False) -> dict:
    """A plan result (planned's, or its own_code) again under the kernel's units now (PLAN_UNITS),
    from its ways' terms: the issued instructions per warp-frame and the warps each way takes."""
    r = result["own_code"] if own_code else result
    ways = [r["terms"][w] for w in PLAN_WAYS]
    weights = [PLAN_UNITS[unit] for unit in ("iteration", "meet", "opcode")]
    units = np.stack([unit_terms(x["iterations"], x["groups"], w != "lanes") @ weights for w, x in zip(PLAN_WAYS, ways)])
    by_warp, take = plan_issued(units, np.array([x["issued"] for x in ways]), np.array([x["counted"] for x in ways]))
    warp_frames = sum(ways[-1]["issued"]) / r["ways"][list(PLAN_WAYS)[-1]]
    return dict(issued_per_warp_frame=float(by_warp.sum()) / warp_frames,
                way_warps={w: int((take == k).sum()) for k, w in enumerate(PLAN_WAYS)})


@dataclass
class Schedule:
    """How a replay ran the instructions: each one's pass and slot (the fetch's request), and for
    the policies that choose lanes, each warp's iterations that chose and the lanes active in them,
    and of those the iterations whose active lanes were all at one instruction in the window
    (`whole`) and their lanes."""
    pass_of: np.ndarray
    slot_of: np.ndarray
    num_envs: int
    warp_frames: float
    scheduled: np.ndarray
    waiting: np.ndarray
    whole: np.ndarray | None = None           # (zeros: none)
    whole_waiting: np.ndarray | None = None

    def __post_init__(self):
        if self.whole is None:
            self.whole, self.whole_waiting = np.zeros_like(self.scheduled), np.zeros_like(self.waiting)

    @functools.cached_property
    def iterations(self) -> np.ndarray:
        """Each warp's iterations of its loop."""
        warps = self.num_envs // WARP
        return np.bincount(np.unique(self.slot_of) % warps, minlength=warps)

    @functools.cached_property
    def groups(self) -> np.ndarray:
        """Each warp's groups of lanes that ran an instruction together (passes, or in a slot the
        lanes of an opcode)."""
        warps = self.num_envs // WARP
        return np.bincount(np.unique(self.pass_of) // 256 % warps, minlength=warps)


# The common path of the warp schedule's test for a polling lane (polls_timer: the PC in the
# window, its opcode's byte, neither a timer read nor a branch), in machine instructions; the
# whole test compiles to 99 on sm_90 (kernel_models/sass.py's "polls").
POLL_TEST_COST = 12


def schedule_cost(costs: dict) -> int:
    """What choosing the lanes of a pass costs, in machine instructions, every lane of the frame
    taking part: the choice's lines of the state kernel with the warp schedule (cule_step_in_passes,
    sass.py's plan:choice: the call sites' key, __reduce_min_sync, the comparisons) and the polling
    test's common path. A kernel whose choice sass.py did not tell apart (before the plan's ways,
    as PROFILED_COSTS): its loop less the plain state kernel's."""
    in_passes = costs["cule_step_in_passes"]
    if "plan:choice" in in_passes:
        return in_passes["plan:choice"].instructions + POLL_TEST_COST
    return in_passes["loop"].instructions - costs["cule_step_logged"]["loop"].instructions + POLL_TEST_COST


def in_passes_costs(costs: dict) -> dict:
    """The costs the warp schedule's policies run on: the interpreter's parts as the plain state
    kernel compiles them, the loop and the plan's parts as the warp schedule's kernel does, so that
    the policies differ from per-lane by their schedule alone."""
    return {**costs["cule_step_logged"], "loop": costs["cule_step_in_passes"]["loop"],
            **{part: c for part, c in costs["cule_step_in_passes"].items() if part.startswith("plan:")}}


def own_costs(costs: dict) -> dict:
    """The warp schedule's kernel's own machine code, every part (one it lacks: the plain state
    kernel's): what it issues. Its Bus reaches the RAM tile and the TIA slot in shared memory, and
    NVRTC compiles the interpreter's parts otherwise under its register bound (console.h's
    warp_ram_tile gives the figures). At the machine code ncu profiled (PROFILED_COSTS,
    calibrate_logged) these gave the warp schedule's kernel 1.06x ncu's issued instructions, the
    plain kernel's parts 1.08x."""
    own = costs["cule_step_in_passes"]
    out = {**costs["cule_step_logged"], **own}
    if "plan:choice" not in own:   # before the plan's parts the choice lay in the loop: schedule_cost's
        out["loop"] = costs["cule_step_logged"]["loop"]
    return out

# The Bus's slow paths (kernel_models/sass.py's parts slow:<path>): a cartridge access outside the
# window of plain reads (the opcode's fetch, an operand's read, any write to the cartridge: a bank
# switch), a chip register's read or write, a timer wait after a branch back 5 bytes.
SLOW_PATHS = ("cart@fetch", "cart@read", "cart@write", "chip@read", "chip@write", "wait@loop")


def slow_paths(lanes: Lanes, ran: int) -> tuple[np.ndarray, np.ndarray]:
    """Each time one of the first `ran` instructions takes a slow path of the Bus: the instruction
    and the path (its index in SLOW_PATHS). An operand's read is charged as the read part's copy
    of the path, whichever part of the instruction made it."""
    found = []
    for k in range(int(lanes.access_count[:ran].max(initial=0))):
        g = np.flatnonzero(lanes.access_count[:ran] > k)
        a = lanes.first_access[g] + k
        addr = lanes.access_addr[a].astype(np.int64)
        write = lanes.access_write[a]
        cart, chip = is_cart(addr), is_chip(addr)
        if k == 0:
            found.append((g[cart & (lanes.access_rom[a] == 0)], SLOW_PATHS.index("cart@fetch")))
            continue
        found.append((g[cart & write], SLOW_PATHS.index("cart@write")))
        found.append((g[cart & ~write & (lanes.access_rom[a] == 0)], SLOW_PATHS.index("cart@read")))
        found.append((g[chip & write], SLOW_PATHS.index("chip@write")))
        found.append((g[chip & ~write], SLOW_PATHS.index("chip@read")))
    # a branch taken back 5 bytes: the lane's next instruction is 3 bytes before it
    g = np.arange(max(ran - 1, 0))
    back = np.isin(lanes.opcode[g], BRANCHES) & (lanes.key[g + 1].astype(np.int64) == lanes.key[g].astype(np.int64) - 3)
    last = np.zeros(ran, bool)
    last[(lanes.base + lanes.count - 1)[lanes.base + lanes.count - 1 < ran]] = True
    found.append((g[back & ~last[g]], SLOW_PATHS.index("wait@loop")))
    index = np.concatenate([f[0] for f in found]) if found else np.zeros(0, np.int64)
    path = np.concatenate([np.full(len(f[0]), f[1]) for f in found]) if found else np.zeros(0, np.int64)
    return index.astype(np.int64), path.astype(np.int64)


# A switch compiled as a tree of comparisons (the op switch's 80 cases) costs a pass a compare and
# a branch a level, and the leaf's.
def dispatch_cost(cases: int) -> int:
    return 2 * int(np.ceil(np.log2(max(cases, 2)))) + 2


def issue(lanes: Lanes, schedule: Schedule, policy: str, costs: dict, parts: list, chip_cost: float = 0.0,
          choosing_cost: float = 0.0) -> dict:
    """The machine instructions a warp issues and the lanes active in them, from the interpreter's
    costs per part (kernel_models/sass.py: the loop, fetch and rest of execute once a slot, a mode's
    and an operation's case and the dispatch to them once a pass, the operand read and result
    write once a pass that makes them, each of the Bus's slow paths once a pass some lane takes
    it: slow_paths), `chip_cost` per TIA or RIOT access, grouped by kind and
    pass, and for the policies that choose lanes `choosing_cost` a pass with the frame's lanes.
    Gives the issued instructions per warp-frame and the active threads per issued instruction
    (what ncu calls Avg. Active Threads Per Warp), each warp's issued instructions, and the global
    memory requests the machine state takes besides the bus's accesses."""
    ran = len(schedule.pass_of)
    warp_of = np.repeat(np.arange(schedule.num_envs), lanes.count[:schedule.num_envs])[:ran] // WARP
    per_warp = np.zeros(schedule.num_envs // WARP)
    op = lanes.opcode[:ran]
    cost = lambda name: costs[name].instructions if name in costs else 0  # noqa: E731
    # the machine state's own global loads and stores: all but the Bus's ROM and RAM accesses
    glob = lambda name: costs[name].global_memory - costs[name].access_memory if name in costs else 0  # noqa: E731
    words = lambda name: costs[name].local_words if name in costs else 0  # noqa: E731
    mode_cases = len({p[0] for p in parts if p[0]})
    op_cases = len({p[1] for p in parts if p[1]})
    table = np.array([[cost(m) + dispatch_cost(mode_cases), cost(o) + dispatch_cost(op_cases),
                       cost("read") * r, cost("write") * w, glob(m) + glob(o) + glob("read") * r + glob("write") * w,
                       words(m), words(o), words("read") * r, words("write") * w]
                      for m, o, r, w in parts], dtype=np.float64)
    shared = cost("loop") + cost("fetch") + cost("execute")
    shared_global = glob("loop") + glob("fetch") + glob("execute")
    shared_words = words("loop") + words("fetch") + words("execute")
    labels = {name: k for k, name in enumerate(sorted({p[0] for p in parts} | {p[1] for p in parts}))}
    mode_id = np.array([labels[p[0]] for p in parts], np.int64)[op]
    op_id = np.array([labels[p[1]] for p in parts], np.int64)[op]

    def grouped(key_cols: list[np.ndarray], weight: np.ndarray, warp: np.ndarray | None = None) -> tuple:
        """Sum over the distinct groups of a weight (once a group) and of weight x lanes; with
        `warp`, each instruction's warp, the weights are issued (per_warp)."""
        key = key_cols[0].astype(np.int64)
        for column in key_cols[1:]:   # each further column below 2^12
            key = key << 12 | column.astype(np.int64)
        _, first, size = np.unique(key, return_index=True, return_counts=True)
        if warp is not None:
            per_warp[:] += np.bincount(warp[first], weight[first], minlength=len(per_warp))
        return float(weight[first].sum()), float((weight[first] * size).sum()), size

    # Local memory (the GPU's Bus, spills) puts word k of a warp's 32 lanes side by side: a
    # request of n words is n sectors for each group of 8 lanes (a 32-byte sector) it has lanes in.
    lane_group = (np.repeat(np.arange(schedule.num_envs), lanes.count[:schedule.num_envs])[:ran] % WARP) // 8

    def local_sectors(key_cols: list[np.ndarray], words_: np.ndarray, groups: np.ndarray = lane_group) -> float:
        """Sum over the distinct groups of their words x their lanes' groups of 8."""
        key = key_cols[0].astype(np.int64)
        for column in key_cols[1:]:
            key = key << 12 | column.astype(np.int64)
        _, first = np.unique(key << 2 | groups, return_index=True)
        return float(words_[first].sum())

    per_lane = policy == "per-lane"
    slot, group = schedule.slot_of, schedule.pass_of
    issued = lanes_run = local = 0.0
    # once a slot: the loop, fetch and rest of execute (a pass, for the choosing policies)
    i, l, slot_sizes = grouped([slot], np.full(ran, shared, np.float64), warp_of)
    issued, lanes_run = issued + i, lanes_run + l
    local += local_sectors([slot], np.full(ran, shared_words, np.float64))
    for key, weight, w in [((slot, mode_id), table[op, 0], table[op, 5]), ((slot, op_id), table[op, 1], table[op, 6]),
                           ((slot, table[op, 2] > 0), table[op, 2], table[op, 7]),
                           ((slot, table[op, 3] > 0), table[op, 3], table[op, 8])]:
        i, l, _ = grouped(list(key), weight, warp_of)
        issued, lanes_run = issued + i, lanes_run + l
        local += local_sectors(list(key), w)
    # TIA and RIOT accesses, out of line: a call per kind of access and group
    chip = np.zeros(ran, np.int64)
    for k in range(int(lanes.access_count[:ran].max(initial=0))):
        a = lanes.first_access[:ran] + k
        has = lanes.access_count[:ran] > k
        addr = lanes.access_addr[np.where(has, a, 0)].astype(np.int64)
        called = has & is_chip(addr)   # a kind: the TIA or the RIOT, read or write
        chip[called] |= 1 << (2 * ~is_tia(addr[called]) + lanes.access_write[a[called]])
    if chip_cost and chip.any():
        calls = chip > 0
        i, l, _ = grouped([group[calls], chip[calls]], np.full(int(calls.sum()), chip_cost), warp_of[calls])
        issued, lanes_run = issued + i, lanes_run + l
    if not per_lane:   # choosing the lanes, with every lane of the frame taking part
        # a kernel that tests for a pass of every lane first (plan:whole; in passes, not in slots)
        # chooses only where it is not
        whole = cost("plan:whole") if tests_whole(policy) else 0
        chose = schedule.scheduled - (schedule.whole if whole else 0)
        chose_waiting = schedule.waiting - (schedule.whole_waiting if whole else 0)
        issued += choosing_cost * chose.sum() + whole * schedule.scheduled.sum()
        lanes_run += choosing_cost * chose_waiting.sum() + whole * schedule.waiting.sum()
        per_warp += choosing_cost * chose + whole * schedule.scheduled
        # the plan's own (console.h, WarpPlan; sass.py's plan:<part>), as in frames it does not
        # sample (planned adds the counting): a frame's; in lanes the test that keeps a lane in
        # cpu_run's loop an iteration, and two turns of the outer loop a frame (the second alone);
        # else every turn, one that meets, and one without a choice, and in slots a choice's
        # (their active lanes not counted)
        iterations = schedule.iterations
        frames_by_warp = lanes.frames[:schedule.num_envs].reshape(-1, WARP).sum(axis=1) / WARP
        if policy == "lanes":
            plan = ((cost("plan:frame") + 2 * cost("plan:iteration") + cost("plan:alone")) * frames_by_warp
                    + cost("plan:lanes") * iterations)
        else:
            plan = (cost("plan:frame") * frames_by_warp
                    + (cost("plan:iteration") + cost("plan:lanes") + cost("plan:meet")) * iterations
                    + cost("plan:held") * (iterations - schedule.scheduled)
                    + (cost("plan:slots") * schedule.scheduled if "slot" in policy else 0))
            # a call's site kept or dropped (CallSites), once an iteration some lane runs a JSR or a return
            calls = np.isin(op, (0x20, 0x40, 0x60))
            i, l, _ = grouped([slot[calls]], np.full(int(calls.sum()), float(cost("plan:call"))), warp_of[calls])
            issued, lanes_run = issued + i, lanes_run + l
        issued += float(plan.sum())
        per_warp += plan
    # The Bus's slow paths, once a pass for the lanes that take them.
    slow_requests = []
    taken, path = slow_paths(lanes, ran)
    for p, name in enumerate(SLOW_PATHS):
        c = costs.get("slow:" + name)
        runs = taken[path == p]
        if c is None or not len(runs):
            continue
        i, l, sizes = grouped([group[runs]], np.full(len(runs), float(c.instructions)), warp_of[runs])
        issued, lanes_run = issued + i, lanes_run + l
        local += local_sectors([group[runs]], np.full(len(runs), float(c.local_words)), lane_group[runs])
        slow_requests.append((float(c.global_memory - c.access_memory), sizes))
    # The machine state's own global loads and stores (the bus's accesses are the trace's): a
    # request per memory instruction and group.
    _, _, group_sizes = grouped([group], np.zeros(ran))
    order = np.unique(group, return_index=True)[1]
    requests = [(shared_global, slot_sizes), (table[op[order], 4], group_sizes)] + slow_requests
    state = {"aos": 0.0, "tiles": 0.0, "soa": 0.0}
    for per_group, sizes in requests:
        state["aos"] += float((per_group * sizes).sum())   # each lane its own struct
        state["tiles"] += float((per_group * sizes).sum())   # the tiles hold RAM alone
        state["soa"] += float((per_group * np.ones_like(sizes)).sum())
    frames = max(schedule.warp_frames, 1)
    state["tiles"] += TILE_COPY_SECTORS * frames
    return dict(issued_per_warp_frame=issued / frames, active_threads=lanes_run / max(issued, 1),
                issued_by_warp=per_warp,
                **{f"state_sectors_per_warp_frame_{k}": v / frames for k, v in state.items()},
                local_sectors_per_warp_frame=local / frames,
                chip_calls_per_warp_frame=float(grouped([group[chip > 0], chip[chip > 0]],
                                                        np.ones(int((chip > 0).sum())))[0]) / frames)


def memory(lanes: Lanes, pass_of: np.ndarray, slot_of: np.ndarray, n: int, warp_frames: float) -> dict:
    """Warp memory requests and 32-byte sectors of the bus accesses, per layout: a request is one
    access (the k-th of its instruction) of a pass, the opcode fetch one of the whole slot."""
    ran = len(pass_of)
    env = np.repeat(np.arange(n), lanes.count[:n])
    out = {}
    for layout in LAYOUTS:
        requests = sectors = 0
        for k in range(int(lanes.access_count[:ran].max(initial=0))):
            g = np.flatnonzero(lanes.access_count[:ran] > k)
            request = (slot_of[g] if k == 0 else pass_of[g]).astype(np.int64)
            s = sector_ids(lanes, g, k, env[g], layout, n)
            order = np.lexsort((s, request))
            request, s = request[order], s[order]
            new_request = np.concatenate([[True], request[1:] != request[:-1]]) if len(g) else request
            requests += int(new_request.sum())
            sectors += int((new_request | np.concatenate([[True], s[1:] != s[:-1]])[:len(g)]).sum()) if len(g) else 0
        out[f"sectors_per_request_{layout}"] = sectors / max(requests, 1)
        out[f"sectors_per_warp_frame_{layout}"] = sectors / max(warp_frames, 1)
    out.update(log_sectors(lanes, pass_of, n, warp_frames))
    return out


LOG_FRAMES = _core.TIA_LOG_FRAMES   # a step logs its last frames for its render (tia_log.h)


def log_sectors(lanes: Lanes, pass_of: np.ndarray, n: int, warp_frames: float) -> dict:
    """The TIA log's event stores (tia_log.h: each TIA access of the frames a step logs, a 32-bit
    event at the lane's count) in 32-byte sectors per warp-frame: as built, each lane's log its own
    (a sector a lane's store), and interleaved across a warp's lanes (event k of lane l at word
    k x 32 + l: a pass's lanes at one count share a sector per group of 8)."""
    ran = len(pass_of)
    env = np.repeat(np.arange(n), lanes.count[:n])[:ran]
    stores = []
    for k in range(int(lanes.access_count[:ran].max(initial=0))):
        g = np.flatnonzero(lanes.access_count[:ran] > k)
        stores.append(g[is_tia(lanes.access_addr[lanes.first_access[g] + k].astype(np.int64))])
    g = np.sort(np.concatenate(stores)) if stores else np.zeros(0, np.int64)   # an instruction a store, env by env
    g = g[lanes.frame[g] >= lanes.frames[env[g]] - LOG_FRAMES]
    count = np.arange(len(g)) - np.searchsorted(env[g], env[g])   # the lane's count at the store
    lane = env[g] % WARP
    interleaved = np.unique(np.stack([pass_of[g], count, lane // 8]), axis=1).shape[1] if len(g) else 0
    frames = max(warp_frames, 1)
    return dict(log_sectors_per_warp_frame_own=len(g) / frames, log_sectors_per_warp_frame_interleaved=interleaved / frames)


ARCH = "sm_90"
# Today's kernel, against which the built one is measured: the split step's state kernel as the
# commit named in the file compiled it (kernel_models/sass.py --kernels <that commit's kernels/> --json),
# before the Bus kept the machine state's per-instruction fields (console.h's Bus, then HotFields); the -2
# file parts the Bus's slow paths out (sass.py's slow:<path>, interpreter_costs-33f16b6.json lumps them in).
TODAY_COSTS = ROOT / "benchmarks" / "results" / "interpreter_costs-33f16b6-2.json"
# The kernels the lean core began from (as at 10c0a98, last changed by the commit the file names;
# all three state kernels, the same five games, by that commit's own sass.py): per-lane and the
# plan, each on that machine code, are measured against them too.
LEAN_BASE_COSTS = ROOT / "benchmarks" / "results" / "interpreter_costs-5a7b0e5.json"
NCU_WARP_FRAMES = 4096 // WARP * 4   # the profiled launches': 4,096 envs, 4 frames a step
NCU_ACTIVE_THREADS = 6.92   # benchmarks/results/ncu-cule_step-pong-4096envs-2026-11-23.txt
NCU_SECTORS = 1_422_669_965 / NCU_WARP_FRAMES   # the same launch's sectors per warp-frame
# The TIA's or RIOT's work for one access in the one-kernel step (tia_peek and tia_poke drawing up
# to the access's clock; out of line, a call per kind of access and pass), in machine
# instructions: fitted so that that step on Pong at age 7 gives ncu's active threads (calibrate).
DRAWING_CHIP_COST = 280

# ncu on one step of each two-pass step, 4,096 Pong envs 6 steps after reset(0), on an H100, of the
# kernels of commit 96b62e5; PROFILED_COSTS is their machine code (kernel_models/sass.py --kernels
# <that commit's kernels/> --json).
NCU_FILES = {"split": "ncu-split-pong-4096envs-2026-11-26-h100.txt",
             "in-passes": "ncu-in-passes-pong-4096envs-2026-11-26-h100.txt"}
NCU_AGE = 6
PROFILED_COSTS = ROOT / "benchmarks" / "results" / "interpreter_costs-96b62e5.json"
# A TIA or RIOT access's work in the state kernels that log it (tia_peek and tia_poke bringing the
# TIA's clocks up to the access and logging it, not drawing), in machine instructions: fitted so
# that the split step's state kernel gives ncu's issued instructions (calibrate_logged).
CHIP_COST = 100


def ncu_metrics(path: Path) -> dict[str, dict[str, float]]:
    """Each kernel's metrics in an ncu report (`ncu --section ...` as text): name -> value."""
    out, kernel = {}, None
    for line in Path(path).read_text().split("\n"):
        if line.startswith("  cule_"):
            kernel = out.setdefault(line.split()[0], {})
        m = re.match(r"    (\S.*?)\s{2,}(?:\S+\s+)?([\d,]+(?:\.\d+)?)$", line)
        if m and kernel is not None:
            kernel.setdefault(m.group(1), float(m.group(2).replace(",", "")))
    return out


def ncu_issued_per_warp_frame(metrics: dict[str, float]) -> tuple[float, float]:
    """A kernel's issued instructions per warp-frame from its ncu metrics, two ways: the branch
    instructions over their share of all instructions (given to two decimals: ncu's unit says %,
    its value is the fraction), and the warps' active cycles (the SMs' active cycles x the SMs x the
    warps active in them) over the cycles per issued instruction."""
    by_branches = metrics["Branch Instructions"] / metrics["Branch Instructions Ratio"]
    by_cycles = (metrics["SM Active Cycles"] * metrics["# SMs"] * metrics["Achieved Active Warps Per SM"]
                 / metrics["Warp Cycles Per Issued Instruction"])
    return by_branches / NCU_WARP_FRAMES, by_cycles / NCU_WARP_FRAMES


def calibrate(lanes: Lanes, schedule: Schedule, costs: dict, parts: list) -> dict:
    """Today's one-kernel step (cule_step) under the per-lane policy against ncu's measurement of
    it: the active threads per issued instruction from the SASS costs alone, with DRAWING_CHIP_COST,
    and the chip cost that would give ncu's 6.92 exactly; the sectors the model counts per
    warp-frame (the bus's accesses and the machine state's loads and stores) against ncu's."""
    bare = issue(lanes, schedule, "per-lane", costs["cule_step"], parts, 0.0)
    full = issue(lanes, schedule, "per-lane", costs["cule_step"], parts, DRAWING_CHIP_COST)
    unit = issue(lanes, schedule, "per-lane", costs["cule_step"], parts, 1.0)
    # active = (L + w Lc) / (I + w Ic): solve for w from the runs with w = 0 and 1
    frames = 1.0   # the per-warp-frame figures share their divisor
    i0, l0 = bare["issued_per_warp_frame"] * frames, bare["active_threads"] * bare["issued_per_warp_frame"]
    i1, l1 = unit["issued_per_warp_frame"], unit["active_threads"] * unit["issued_per_warp_frame"]
    ic, lc = i1 - i0, l1 - l0
    fit = (l0 - NCU_ACTIVE_THREADS * i0) / (NCU_ACTIVE_THREADS * ic - lc) if NCU_ACTIVE_THREADS * ic != lc else None
    sectors = bare["state_sectors_per_warp_frame_aos"]
    return dict(kernel="cule_step", ncu_active_threads=NCU_ACTIVE_THREADS,
                active_threads_sass_only=bare["active_threads"], active_threads=full["active_threads"],
                chip_cost_fit=fit,
                state_sectors_per_warp_frame_aos=sectors, ncu_sectors_per_warp_frame=NCU_SECTORS)


def calibrate_logged(lanes: Lanes, parts: list) -> dict:
    """The two-pass steps' state kernels as ncu profiled them (PROFILED_COSTS; `lanes`: Pong at
    NCU_AGE): the chip cost that gives the split step's state kernel (per-lane) ncu's issued
    instructions per warp-frame (the mean of its two figures), and with CHIP_COST each kernel's
    issued instructions and active threads against ncu's; the warp schedule's kernel is not fitted,
    so it checks the model: on the plain kernel's parts and on its own (own_costs)."""
    costs = load_profiled_costs()
    out = dict(profiled_costs=PROFILED_COSTS.name, chip_cost=CHIP_COST, kernels={})
    for step, kernel, policy in (("split", "cule_step_logged", "per-lane"),
                                 ("in-passes", "cule_step_in_passes", "fstack+wait+join")):
        ncu = ncu_metrics(ROOT / "benchmarks" / "results" / NCU_FILES[step])[kernel]
        measured = ncu_issued_per_warp_frame(ncu)
        _, schedule = replay(lanes, policy, sectors=False)
        choosing = schedule_cost(costs) if policy != "per-lane" else 0.0
        model = {c: issue(lanes, schedule, policy, costs["cule_step_logged"], parts, c, choosing)
                 for c in (0.0, 1.0, CHIP_COST)}
        entry = dict(policy=policy, ncu_issued_per_warp_frame=measured,
                     issued_per_warp_frame=model[CHIP_COST]["issued_per_warp_frame"],
                     model_over_ncu=model[CHIP_COST]["issued_per_warp_frame"] / np.mean(measured),
                     ncu_active_threads=ncu["Avg. Active Threads Per Warp"],
                     active_threads=model[CHIP_COST]["active_threads"])
        if step == "split":
            per_call = model[1.0]["issued_per_warp_frame"] - model[0.0]["issued_per_warp_frame"]
            entry["chip_cost_fit"] = (np.mean(measured) - model[0.0]["issued_per_warp_frame"]) / per_call
        else:   # and on its own machine code (own_costs)
            own = issue(lanes, schedule, policy, own_costs(costs), parts, CHIP_COST, choosing)["issued_per_warp_frame"]
            entry.update(own_code_issued_per_warp_frame=own, own_code_over_ncu=own / np.mean(measured))
        out["kernels"][kernel] = entry
    return out


def load_profiled_costs() -> dict:
    """PROFILED_COSTS for Pong: kernel -> part -> Cost."""
    import sass   # kernel_models/sass.py
    return sass.load_costs(PROFILED_COSTS)["pong"]


def v5_settings() -> dict:
    from cule.registration import ATARI_VECTOR_ENV_DEFAULTS, V5_SETTINGS
    return {**ATARI_VECTOR_ENV_DEFAULTS, **V5_SETTINGS}


def traced_vecs(game: str, num_envs: int, traced: int, ages: list[int], seed: int, states: Path | None = None):
    """Random v5 play of `num_envs` envs from reset(seed); at each age (steps since the reset) one
    step of the first `traced` envs recorded: yields (age, the VecEnv holding the step's traces to
    take, the ROM). With `states`, a directory, the envs' states at each age are kept there, and a
    later run with the same game, envs and seed starts from them instead of playing again (with
    other random actions from there: another sample of the same ages)."""
    import torch

    import cule
    from cule import _core

    if not hasattr(_core.VecEnv, "start_trace"):
        raise SystemExit(f"{os.environ['CULE_CORE_LIB']} records no traces: make build/trace/_core.so")
    env = cule.CuleEnv(game, num_envs=num_envs, device="cpu", **v5_settings())
    # The steps between ages are played by a second env that observes the RAM only: the same
    # states with no frames to resize and stack (Pong, 256 envs: 13% less time). A state and the
    # random stream (sticky actions, no-op starts) pass between the two envs at each traced step.
    player = cule.CuleEnv(game, num_envs=num_envs, device="cpu", **{**v5_settings(), "obs_type": "ram"})
    every = np.arange(num_envs)

    def hand_over(src, dst):
        dst.set_states(src.get_states())
        dst._backend.set_rngs(src._backend.rngs(), every)

    try:
        env.reset(seed=seed)
        player.reset(seed=seed)
        vec = env._backend._vec
        vec.split_render = True   # the GPU's passes, traced apart
        rom = np.frombuffer(env._spec.rom, np.uint8)
        actions = torch.Generator().manual_seed(seed)
        step = 0
        random_actions = lambda: torch.randint(0, env.single_action_space.n, (num_envs,), generator=actions)  # noqa: E731
        for age in sorted(ages):
            kept = states / f"{game}-{num_envs}envs-seed{seed}-age{age}.npy" if states else None
            if kept and kept.exists():
                player.set_states(np.load(kept))
                step = age
            while step < age:
                player.step(random_actions())
                step += 1
            if kept and not kept.exists():
                states.mkdir(parents=True, exist_ok=True)
                np.save(kept, player.get_states().numpy())
            hand_over(player, env)
            vec.start_trace(traced)
            env.step(random_actions())
            step += 1
            hand_over(env, player)
            yield age, vec, rom
    finally:
        env.close()
        player.close()


def traced_steps(game: str, num_envs: int, traced: int, ages: list[int], seed: int, states: Path | None = None):
    """traced_vecs' steps, the state pass's trace of each decoded: yields (age, Lanes)."""
    for age, vec, rom in traced_vecs(game, num_envs, traced, ages, seed, states):
        events, counts = vec.take_trace()
        yield age, decode(events, counts, rom)


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    return dict(cpu=cpu, cores=os.cpu_count(), python=platform.python_version(), numpy=np.__version__)


def rank_units(records: list[dict], top: int = 5, own_code: bool = False) -> str:
    """How well units rank the plan's ways (PLAN_UNITS' terms, the plan results' `terms`, or with
    `own_code` those on the warp schedule's kernel's own machine code): for each warp of each game
    and age, the issued instructions of the way of fewest units against the fewest, summed; for the
    kernel's units and the best of small whole weights (an iteration 1-10, a meeting 0-4, an opcode
    1-4), and the best chosen without each game in turn, on that game."""
    features, issued, game_of = [], [], []
    for record in records:
        for r in record["results"]:
            if own_code and r["policy"] == PLAN:
                r = dict(r, terms=r.get("own_code", {}).get("terms"))
            if r["policy"] != PLAN or not r.get("terms"):
                continue
            t = [r["terms"][w] for w in PLAN_WAYS]
            # warp by warp: each way's unit terms, and its issued instructions
            features += np.stack([unit_terms(x["iterations"], x["groups"], w != "lanes") for w, x in zip(PLAN_WAYS, t)],
                                 axis=1).tolist()
            issued += np.array([x["issued"] for x in t]).T.tolist()
            game_of += [(r["game"], r["age"])] * r["warps"]
    if not features:
        return "no plan results with their terms"
    features, issued = np.array(features, np.float64), np.array(issued)
    games = sorted(set(game_of))
    game_id = np.array([games.index(g) for g in game_of])
    fewest = issued.min(axis=1)

    def picked(weights, rows) -> float:
        units = features[rows] @ np.asarray(weights, np.float64)
        return float(issued[rows][np.arange(rows.sum()), units.argmin(axis=1)].sum() / fewest[rows].sum())

    everything = np.ones(len(issued), bool)
    grid = [(i, m, o) for i in range(1, 11) for m in range(5) for o in range(1, 5)]
    scores = np.array([picked(w, everything) for w in grid])
    built = (PLAN_UNITS["iteration"], PLAN_UNITS["meet"], PLAN_UNITS["opcode"])
    lines = [f"{len(games)} games and ages, {len(issued)} warps; the way of fewest units issues, against the fewest:",
             f"  built {built}: {picked(built, everything):.4f}"]
    lines += [f"  {grid[i]}: {scores[i]:.4f}" for i in np.argsort(scores)[:top]]
    if len(games) < 2:
        return "\n".join(lines)
    left_out = picked_sum = 0.0
    for g in range(len(games)):
        others, alone = game_id != g, game_id == g
        best = grid[int(np.argmin([picked(w, others) for w in grid]))]
        picked_sum += picked(best, alone) * fewest[alone].sum()
        left_out += fewest[alone].sum()
    lines.append(f"  the best without each game, on it: {picked_sum / left_out:.4f}")
    return "\n".join(lines)


def plan_table(records: list[dict], replan: bool = False) -> str:
    """The plan against per-lane, game by game and age by age, from runs' records (several: the
    halves of a run over every game): a markdown table of issued instructions per warp-frame and
    their ratio, and the games where the plan issues more. With `replan`, the plan's figures under
    the kernel's units now, from its ways' terms (replanned)."""
    by = {}
    for record in records:
        for r in record["results"]:
            if r.get("kernel") == "built" and r["policy"] in ("per-lane", PLAN):
                x = by.setdefault(r["game"], {}).setdefault(r["age"], {})
                figure = lambda own=False: (replanned(r, own)["issued_per_warp_frame"] if replan  # noqa: E731
                                            else (r["own_code"] if own else r)["issued_per_warp_frame"])
                x[r["policy"]] = figure() if r["policy"] == PLAN else r["issued_per_warp_frame"]
                if "own_code" in r:
                    x["own"] = figure(True)
    ages = sorted({age for ages_ in by.values() for age in ages_})
    lines = ["| game | " + " | ".join(f"{age} steps: per-lane, plan" for age in ages) + " |",
             "|---|" + "---|" * len(ages)]
    above, own_above = [], []
    for game in sorted(by):
        cells = []
        for age in ages:
            x = by[game].get(age, {})
            if "per-lane" in x and PLAN in x:
                ratio = x[PLAN] / x["per-lane"]
                own = f"; {x['own'] / x['per-lane']:.3f}x on its own code" if "own" in x else ""
                cells.append(f"{x['per-lane'] / 1e6:.2f}M, {x[PLAN] / 1e6:.2f}M ({ratio:.3f}x{own})")
                if ratio > 1:
                    above.append(f"{game} at {age}")
                if x.get("own", 0) > x["per-lane"]:
                    own_above.append(f"{game} at {age}")
            else:
                cells.append("")
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"{len(by)} games; the plan above per-lane: {', '.join(above) or 'none'}; on its own code: "
                 f"{', '.join(own_above) or 'none'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=GAMES, help="games, or all (every game cule runs)")
    parser.add_argument("--envs", type=int, default=1024, help="envs played (a multiple of 32)")
    parser.add_argument("--traced", type=int, default=None, help="envs traced, the first ones (default: all)")
    parser.add_argument("--ages", type=int, nargs="+", default=AGES, help="steps since the reset")
    parser.add_argument("--policies", nargs="+", default=POLICIES + [PLAN], choices=POLICIES + TRIED + ["lanes", PLAN])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--states", type=Path, default=None, help="a directory to keep the envs' states at each age in")
    parser.add_argument("--out", type=Path, default=None, help="the JSON (default: a new file in benchmarks/results)")
    parser.add_argument("--resume", action="store_true",
                        help="--out is written after each game, and the games it holds already are not run again")
    parser.add_argument("--per-warp", action="store_true", help="each warp's issued instructions under each policy too")
    parser.add_argument("--compact", action="store_true",
                        help="without each game's interpreter costs (keeps a file of every game small)")
    parser.add_argument("--table", type=Path, nargs="+", default=None,
                        help="runs' JSON files: print the plan against per-lane game by game (plan_table), run nothing")
    parser.add_argument("--units", type=Path, nargs="+", default=None,
                        help="runs' JSON files: how well units rank the plan's ways (rank_units), run nothing")
    parser.add_argument("--replan", action="store_true",
                        help="with --table: the plan's figures under the kernel's units now (PLAN_UNITS), from the "
                             "runs' terms")
    parser.add_argument("--own-code", action="store_true",
                        help="with --units: the ways' instructions on the warp schedule's kernel's own machine code")
    args = parser.parse_args(argv)
    if args.table:
        print(plan_table([json.loads(path.read_text()) for path in args.table], replan=args.replan))
        return
    if args.units:
        print(rank_units([json.loads(path.read_text()) for path in args.units], own_code=args.own_code))
        return
    if args.envs <= 0 or args.envs % WARP:
        parser.error(f"--envs must be a positive multiple of {WARP}, got {args.envs}")
    traced = args.traced or args.envs
    if not 0 < traced <= args.envs or traced % WARP:
        parser.error(f"--traced must be a multiple of {WARP} from {WARP} to --envs, got {traced}")

    if args.resume and not args.out:
        parser.error("--resume needs --out")

    import cule
    import sass   # kernel_models/sass.py
    from cule.backends.cuda import source_digest
    from cule.games import get_game, list_games

    games = list_games() if args.games == ["all"] else args.games
    parts = sass.opcode_parts()
    record = dict(benchmark="simt_model", date=datetime.date.today().isoformat(), cule=cule.__version__,
                  machine=machine(), settings="v5 (AtariVectorEnv's defaults), random actions",
                  num_envs=args.envs, traced_envs=traced, warp=WARP, seed=args.seed, arch=ARCH,
                  chip_cost=CHIP_COST, drawing_chip_cost=DRAWING_CHIP_COST, sources=source_digest(),
                  results=[], calibration=[], schedule_cost={}, interpreter_costs={})
    if args.resume and args.out.exists():
        record = json.loads(args.out.read_text())
        if record["sources"] != source_digest():
            raise SystemExit(f"{args.out} was begun with other kernel sources: run it again without it")
    today_costs = sass.load_costs(TODAY_COSTS)
    record["today_kernel"] = json.loads(TODAY_COSTS.read_text())["commit"]
    base_costs = sass.load_costs(LEAN_BASE_COSTS)
    record["base_kernel"] = json.loads(LEAN_BASE_COSTS.read_text())["commit"]
    kernels = ("cule_step", "cule_step_logged", "cule_step_in_passes")

    def machine_code(game: str) -> dict:
        """The game's module's costs, from the sources the run began with."""
        if source_digest() != record["sources"]:
            raise SystemExit("the kernel sources changed during the run")
        return sass.interpreter_costs(ARCH, {"CULE_GAME": get_game(game).index}, kernels)

    # the machine code first, from the sources as they are when the run starts (a long run, one game at a time)
    all_costs = {} if args.resume else {game: machine_code(game) for game in games}
    for game in games:
        if game in record["schedule_cost"]:
            continue
        costs = all_costs.get(game) or machine_code(game)
        record["schedule_cost"][game] = schedule_cost(costs)
        if not args.compact:
            record["interpreter_costs"][game] = {kernel: {part: vars(c) for part, c in parts_.items()}
                                                 for kernel, parts_ in costs.items()}
        for age, lanes in traced_steps(game, args.envs, traced, args.ages, args.seed, args.states):
            facts = dict(game=game, age=age, frames=int(lanes.frames.sum()),
                         instructions_per_frame=len(lanes.key) / max(int(lanes.frames.sum()), 1),
                         skipped_per_frame=int(lanes.skipped.sum()) / max(int(lanes.frames.sum()), 1),
                         polling_share=float(lanes.polling.mean()))
            if game == "pong" and age == NCU_AGE:   # the model against ncu's profiles of the two-pass steps
                record["calibration_logged"] = calibrate_logged(lanes, parts)
                for kernel, c in record["calibration_logged"]["kernels"].items():
                    fit = f"; chip cost fit {c['chip_cost_fit']:.1f}" if "chip_cost_fit" in c else ""
                    if "own_code_over_ncu" in c:
                        fit = f"; on its own code {c['own_code_issued_per_warp_frame']:9.0f} ({c['own_code_over_ncu']:.2f})"
                    print(f"{kernel:20s} issued/warp-frame {c['issued_per_warp_frame']:9.0f}, ncu "
                          f"{' and '.join(f'{x:9.0f}' for x in c['ncu_issued_per_warp_frame'])} "
                          f"(model/ncu {c['model_over_ncu']:.2f}); active threads {c['active_threads']:5.2f}, ncu "
                          f"{c['ncu_active_threads']:5.2f}{fit}")
            choosing = record["schedule_cost"][game]
            in_passes, own = in_passes_costs(costs), own_costs(costs)
            replays = {}

            def replayed(policy: str) -> tuple[dict, Schedule, dict]:
                if policy not in replays:
                    r, schedule = replay(lanes, policy, sectors=policy in args.policies)
                    x = issue(lanes, schedule, policy, costs["cule_step_logged"] if policy == "per-lane" else in_passes,
                              parts, CHIP_COST, 0.0 if policy == "per-lane" else choosing)
                    r.update(x)
                    r["issued_per_warp"] = r.pop("issued_by_warp").tolist()
                    replays[policy] = r, schedule, x
                return replays[policy]

            for policy in args.policies:
                t = time.time()
                if policy == PLAN:
                    r = planned([replayed(way)[1:] for way in PLAN_WAYS.values()], in_passes)
                    ways = [(replayed(way)[1], issue(lanes, replayed(way)[1], way, own, parts, CHIP_COST, choosing))
                            for way in PLAN_WAYS.values()]
                    on_own = planned(ways, own)
                    r["own_code"] = {k: on_own[k] for k in ("issued_per_warp_frame", "way_warps", "ways", "terms")}
                    if game in base_costs:   # the lean core's first kernel, its own machine code
                        base = own_costs(base_costs[game])
                        on_base = planned([(replayed(way)[1], issue(lanes, replayed(way)[1], way, base, parts, CHIP_COST,
                                                                    schedule_cost(base_costs[game])))
                                           for way in PLAN_WAYS.values()], base)
                        r["base_code"] = {k: on_base[k] for k in ("issued_per_warp_frame", "way_warps", "ways")}
                    r.update(facts, seconds=round(time.time() - t, 1), kernel="built")
                    record["results"].append(r)
                    taken = ", ".join(f"{n} {w}" for w, n in r["way_warps"].items())
                    base = f"; {record['base_kernel']}'s {r['base_code']['issued_per_warp_frame']:9.0f}" \
                        if "base_code" in r else ""
                    print(f"{game:15s} age {age:5d} {policy:16s} issued/warp-frame {r['issued_per_warp_frame']:9.0f}  "
                          f"warps: {taken}; on its own code {on_own['issued_per_warp_frame']:9.0f}{base}  "
                          f"({r['seconds']} s)", flush=True)
                    continue
                r, schedule, _ = replayed(policy)
                r = dict(r)
                if not args.per_warp:
                    del r["issued_per_warp"]
                r.update(facts, seconds=round(time.time() - t, 1))
                if policy == "per-lane":   # today's one-kernel step, as ncu measured it (its machine code)
                    measured = today_costs.get(game, costs)
                    record["calibration"].append(dict(game=game, age=age, **calibrate(lanes, schedule, measured, parts)))
                if policy == "per-lane" and game in today_costs:   # today's kernel, its own machine code
                    today = dict(r, **issue(lanes, schedule, policy, today_costs[game]["cule_step_logged"], parts,
                                            CHIP_COST, 0.0), kernel=record["today_kernel"])
                    by_warp = today.pop("issued_by_warp").tolist()
                    if args.per_warp:
                        today["issued_per_warp"] = by_warp
                    record["results"].append(today)
                if policy == "per-lane" and game in base_costs:   # the lean core's first kernel
                    record["results"].append(dict(r, **{k: v for k, v in issue(
                        lanes, schedule, policy, base_costs[game]["cule_step_logged"], parts, CHIP_COST, 0.0).items()
                        if k != "issued_by_warp"}, kernel=record["base_kernel"]))
                record["results"].append(dict(r, kernel="built"))
                print(f"{game:15s} age {age:5d} {policy:16s} lanes/pass {r['lanes_per_pass']:5.1f}  "
                      f"active {r['active_threads']:5.1f}  issued/warp-frame {r['issued_per_warp_frame']:9.0f}  "
                      f"passes/warp-frame {r['passes_per_warp_frame']:8.0f}  sectors/request aos "
                      f"{r['sectors_per_request_aos']:5.1f} tiles {r['sectors_per_request_tiles']:5.1f} soa "
                      f"{r['sectors_per_request_soa']:5.1f}  sectors/warp-frame aos "
                      f"{r['sectors_per_warp_frame_aos']:8.0f} tiles {r['sectors_per_warp_frame_tiles']:8.0f} soa "
                      f"{r['sectors_per_warp_frame_soa']:8.0f}  log's sectors/warp-frame own "
                      f"{r['log_sectors_per_warp_frame_own']:6.0f} interleaved {r['log_sectors_per_warp_frame_interleaved']:6.0f}"
                      f"  ({r['seconds']} s)", flush=True)
        if args.resume:   # the game's results kept: its schedule cost marks it done
            args.out.write_text(json.dumps(record, indent=1) + "\n")
    path = args.out or new_result_path(f"simt_model-{record['date']}")
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
