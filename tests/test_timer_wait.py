"""A loop that polls the RIOT timer (`LDA INTIM / BNE` back to itself) runs its iterations at once
(console.h, Bus::wait_on_timer): it must leave the CPU, clock, bus and timer exactly as running
it one instruction at a time does, at every instruction count, the frame's cap included."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cule import _core, _probes
from cule.games import list_games

SCHEMES = {name: i for i, name in enumerate(_core.CART_SCHEME_NAMES)}
TIM1T, TIM8T, TIM64T, T1024T = 0x0294, 0x0295, 0x0296, 0x0297
INTIM, TIMINT = 0x0284, 0x0285


def lo_hi(address: int) -> list[int]:
    return [address & 0xFF, address >> 8]


def set_timer(register: int, value: int) -> list[int]:
    return [0xA9, value, 0x8D, *lo_hi(register)]   # LDA #value; STA register


def poll(opcode: int, address: int, branch: int) -> list[int]:
    return [opcode, *lo_hi(address), branch, 0xFB]   # read; branch back 5 bytes to the read


def cartridge(pieces: dict[int, list[int]], banks: int = 1, start: int = 0xF000) -> bytes:
    """A 4 KiB program, the same in each bank: code at each address (each piece ends in a `JMP`),
    NOPs elsewhere, the reset vector `start`."""
    window = bytearray([0xEA] * 4096)
    for address, code in pieces.items():
        window[address - 0xF000:address - 0xF000 + len(code)] = bytes(code)
    window[0xFFC:0xFFE] = bytes(lo_hi(start))
    return bytes(window) * banks


def jmp_self(address: int) -> list[int]:
    return [0x4C, *lo_hi(address)]


def straight(setup: list[int], loop: list[int]) -> dict[int, list[int]]:
    after = 0xF000 + len(setup) + len(loop)
    return {0xF000: setup + loop + jmp_self(after)}


# (the program, whether its loop runs at once)
PROGRAMS = {
    "LDA INTIM / BNE": (straight(set_timer(TIM64T, 40), poll(0xAD, INTIM, 0xD0)), True),
    "BIT TIMINT / BPL": (straight(set_timer(TIM64T, 16), poll(0x2C, TIMINT, 0x10)), True),
    # BPL on INTIM leaves the loop only after the underflow, whose reads are not quiet
    "LDA INTIM / BPL": (straight(set_timer(TIM64T, 8), poll(0xAD, INTIM, 0x10)), True),
    "LDX INTIM mirror / BNE": (straight(set_timer(TIM8T, 200), poll(0xAE, 0x0294, 0xD0)), True),
    "LDY INTIM / BNE, 1024 cycles": (straight(set_timer(T1024T, 3), poll(0xAC, INTIM, 0xD0)), True),
    "TIM1T: a new value every cycle": (straight(set_timer(TIM1T, 250), poll(0xAD, INTIM, 0xD0)), True),
    "BIT INTIM / BNE tests A AND INTIM": (straight(set_timer(TIM64T, 30) + [0xA9, 0x01], poll(0x2C, INTIM, 0xD0)),
                                          True),
    # The branch crosses a page: 8 cycles per iteration.
    "across a page": ({0xF000: set_timer(TIM64T, 20) + jmp_self(0xF0FC),
                       0xF0FC: poll(0xAD, INTIM, 0xD0) + jmp_self(0xF101)}, True),
    # A ROM byte, not the timer: a loop for ever, one instruction at a time.
    "not the timer": (straight(set_timer(TIM64T, 20), poll(0xAD, 0xF800, 0xD0)), False),
    # The same loop in RIOT RAM: only loops in the cartridge's plain reads run at once.
    "in RAM": ({0xF000: set_timer(TIM64T, 20)
                + sum(([0xA9, b, 0x85, 0x80 + i] for i, b in enumerate(poll(0xAD, INTIM, 0xD0) + jmp_self(0xF100))), [])
                + jmp_self(0x0080),
                0xF100: jmp_self(0xF100)}, False),
}

COUNTS = [1, 2, 3, 4, 5, 10, 57, 500, 1001, 4000, 25000]


@pytest.mark.parametrize("name", PROGRAMS)
def test_timer_loop_at_once_equals_one_instruction_at_a_time(name):
    pieces, runs_at_once = PROGRAMS[name]
    rom = cartridge(pieces)
    for n in COUNTS:
        at_once, steps = _probes.timer_wait_probe(SCHEMES["4K"], rom, n, True)
        one_by_one, all_steps = _probes.timer_wait_probe(SCHEMES["4K"], rom, n, False)
        assert at_once == one_by_one, (name, n)
        assert at_once["instructions"] == n
        assert all_steps == n
    # With a long run the loop's iterations did run at once, or did not where they must not.
    assert (steps < all_steps) == runs_at_once, (name, steps, all_steps)


def superchip_program(loop_address: int) -> bytes:
    """F8SC: the timer set, then the loop at `loop_address`; one in the Superchip's RAM is first
    written there through the write port, 128 bytes below where it is read."""
    loop = poll(0xAD, INTIM, 0xD0) + jmp_self(0xF1F0)
    setup = set_timer(TIM64T, 20)
    if loop_address < 0xF100:
        setup += sum(([0xA9, b, 0x8D, *lo_hi(loop_address - 0x80 + i)] for i, b in enumerate(loop)), [])
    pieces = {0xF100: setup + jmp_self(loop_address), 0xF1F0: jmp_self(0xF1F0)}
    if loop_address >= 0xF100:
        pieces[loop_address] = loop
    return cartridge(pieces, banks=2, start=0xF100)


@pytest.mark.parametrize("loop_address, runs_at_once", [(0xF180, True), (0xF0C0, False)])
def test_superchip_loop_runs_at_once_past_the_ports_only(loop_address, runs_at_once):
    """F8SC: the program's reads from $100 are plain ROM; the Superchip's RAM, read at
    $080-$0FF, is not, and code run from there is run one instruction at a time."""
    rom = superchip_program(loop_address)
    for n in COUNTS:
        at_once, steps = _probes.timer_wait_probe(SCHEMES["F8SC"], rom, n, True)
        one_by_one, all_steps = _probes.timer_wait_probe(SCHEMES["F8SC"], rom, n, False)
        assert at_once == one_by_one, n
    assert (steps < all_steps) == runs_at_once
    assert at_once["pc"] == 0xF1F0   # the loop ended in both


# The build that records traces for the SIMT model runs timer waits at once too (Makefile, TRACE_LIB)
WAIT_LIB = Path(__file__).resolve().parent.parent / "build" / "trace" / "_core.so"
STATE_DIGESTS = """
import hashlib, json, torch, cule
from cule.games import list_games
digests = {}
for game in list_games():
    env = cule.CuleEnv(game, num_envs=4, device="cpu", frameskip=4, repeat_action_probability=0.25)
    env.reset(seed=0)
    actions = torch.Generator().manual_seed(0)
    for _ in range(50):
        env.step(torch.randint(0, env.single_action_space.n, (4,), generator=actions))
    digests[game] = hashlib.sha256(env.get_states().numpy().tobytes()).hexdigest()
    env.close()
print(json.dumps(digests))
"""


@pytest.mark.skipif(not WAIT_LIB.exists(), reason="the trace build, with timer waits (make test builds it)")
def test_every_game_plays_the_same_with_timer_waits_run_at_once():
    """Whole states (machines and frame buffers) after 50 v5 steps of 4 envs of every game, by the
    CPU backend, which runs every loop one instruction at a time, and by a build that runs timer
    waits at once as the GPU's kernels do."""
    def digests(lib: str | None) -> dict:
        environ = {k: v for k, v in os.environ.items() if k != "CULE_CORE_LIB"}
        if lib:
            environ["CULE_CORE_LIB"] = lib
        run = subprocess.run([sys.executable, "-c", STATE_DIGESTS], capture_output=True, text=True, env=environ,
                             check=True)
        return json.loads(run.stdout.splitlines()[-1])

    plain, waits = digests(None), digests(str(WAIT_LIB))
    assert sorted(plain) == sorted(list_games())
    assert plain == waits, sorted(g for g in plain if plain[g] != waits[g])
