"""kernel_models/sass.py: the interpreter's machine code attributed to its parts, from NVRTC's CUBIN
through nvdisasm (no GPU needed)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kernel_models"))
import sass  # noqa: E402

from cule.games import get_game  # noqa: E402

LISTING = """
        .type           k,@function
k:
	//## File "/x/kernels/atari/console.h", line 118 inlined at "/x/kernels/atari/cpu6502.h", line 467
	//## File "/x/kernels/atari/cpu6502.h", line 467 inlined at "/x/cuda/kernels.cu", line 9
	//## File "/x/cuda/kernels.cu", line 9
        /*0000*/                   LD.E.U8 R0, desc[UR6][R20.64] ;
        /*0010*/                   IADD3 R1, R0, 0x1, RZ ;
	//## File "/x/cuda/kernels.cu", line 10
        /*0020*/                   EXIT ;
"""


def test_each_instruction_carries_its_chain_of_inlined_lines():
    found = sass.functions(LISTING)
    ins = found["k"].instructions
    assert [i.text for i in ins] == ["LD.E.U8 R0, desc[UR6][R20.64]", "IADD3 R1, R0, 0x1, RZ", "EXIT"]
    assert ins[0].lines == [("console.h", 118), ("cpu6502.h", 467), ("kernels.cu", 9)]
    assert ins[1].lines == ins[0].lines   # no lines of its own: the last chain holds
    assert ins[2].lines == [("kernels.cu", 10)]
    interpreter = sass.Interpreter.from_sources()
    step_line = interpreter.cpu_step.start + 3   # the opcode fetch
    assert interpreter.region([("console.h", 118), ("cpu6502.h", step_line)]) == "fetch"
    assert interpreter.region([("kernels.cu", 10)]) is None


def test_the_state_kernels_interpreter_has_its_parts():
    costs = sass.interpreter_costs("sm_90", {"CULE_GAME": get_game("pong").index}, kernels=("cule_step_logged",))
    parts = costs["cule_step_logged"]
    for name in ("loop", "fetch", "dispatch:mode", "dispatch:op", "read", "write"):
        assert parts[name].instructions > 0, name
    assert parts["fetch"].global_memory > 0   # the opcode's byte
    labels = {p for entry in sass.opcode_parts() for p in entry[:2] if p}
    found = labels & set(parts)
    # a case whose code folds into another's (NOP, JMP's c.pc = addr) has none of its own
    assert len(found) >= 0.9 * len(labels), sorted(labels - found)
    assert parts["op:ADC"].instructions > parts["op:CLC"].instructions


def test_the_gpu_bus_stays_in_registers():
    """The state kernels' Bus holds the cycle counter, the data bus and the frame's end while it
    runs (console.h, Bus), and its work out of line takes what it needs by value, so that it
    lives in registers: an instruction's fetch and its operand's read touch memory only for the
    byte itself (the Bus's load from the window's ROM or from RAM, one of the two run: the RAM in
    global memory, or in the warp schedule's kernel its tile in shared memory), a branch not at
    all, and no part of the interpreter touches local memory."""
    costs = sass.interpreter_costs("sm_90", {"CULE_GAME": get_game("pong").index},
                                   kernels=("cule_step_logged", "cule_step_in_passes"))
    for kernel, parts in costs.items():
        in_tile = kernel == "cule_step_in_passes"
        for part in ("fetch", "read"):
            assert parts[part].global_memory == parts[part].access_memory == 2 - in_tile, (kernel, part)
            assert parts[part].shared_memory == in_tile, (kernel, part)
        assert parts["op:BPL/BMI/BVC/BVS/BCC/BCS/BNE/BEQ"].global_memory == 0, kernel
        local = {name: cost.local_memory for name, cost in parts.items() if cost.local_memory}
        assert not local, (kernel, local)
        # the slow paths are parts of their own: a chip's register, the cartridge outside the window
        assert parts["slow:chip@write"].instructions > 0 and parts["slow:cart@fetch"].instructions > 0, kernel


def test_the_bus_reads_share_no_line_number_with_the_cartridge_window():
    """NVRTC gives code it merges from two lines of one number, the Bus's read of the ROM's window
    and cart_window's case, the cartridge's location: the parts would lose their reads (console.h,
    warp_ram_tile)."""
    interpreter = sass.Interpreter.from_sources()
    cart = (sass.nvrtc.KERNELS / "atari" / "cart.h").read_text().splitlines()
    start = next(i + 1 for i, t in enumerate(cart) if "CartWindow cart_window(" in t)
    end = next(i + 1 for i in range(start, len(cart)) if cart[i].startswith("}"))
    assert not set(interpreter.access_lines) & set(range(start, end + 1)), (sorted(interpreter.access_lines), start, end)


def test_the_bus_slow_paths_are_told_apart():
    interpreter = sass.Interpreter.from_sources()
    step_line = interpreter.cpu_step.start + 3   # the opcode fetch
    chip = next(line for (file, line), kind in interpreter.slow_lines.items() if kind == "chip" and file == "console.h")
    assert interpreter.region([("console.h", chip), ("cpu6502.h", step_line)]) == "slow:chip@fetch"
    assert interpreter.region([("console.h", chip - 1), ("cpu6502.h", step_line)]) == "fetch"
    wait = next(line for (file, line), kind in interpreter.slow_lines.items() if kind == "wait")
    assert interpreter.region([("cpu6502.h", wait), ("console.h", min(interpreter.loop_lines))]) == "slow:wait@loop"


def test_local_memory_words_count_wide_loads():
    assert sass.local_words("LDL.64 R4, [R1+0x8]") == 2
    assert sass.local_words("@P0 STL [R1+0x10], R4") == 1
    assert sass.local_words("@!P1 STL.128 [R1], R4") == 4
    assert sass.local_words("LD.E.64 R4, desc[UR6][R2.64]") == 0   # global


def test_another_kernels_directory_is_compiled_whole(tmp_path, monkeypatch):
    """use_kernels (`--kernels`, another commit's kernels/): NVRTC compiles that directory's entry
    point and the headers it includes, not this tree's."""
    import shutil

    from cule import nvrtc
    monkeypatch.setattr(nvrtc, "KERNELS", nvrtc.KERNELS)
    for name in ("CPU_SOURCE", "CONSOLE_SOURCE"):
        monkeypatch.setattr(sass, name, getattr(sass, name))
    shutil.copytree(nvrtc.KERNELS, tmp_path / "kernels")
    console = tmp_path / "kernels" / "atari" / "console.h"
    console.write_text("#error the other directory's console.h\n" + console.read_text())
    sass.use_kernels(tmp_path / "kernels")
    assert sass.CONSOLE_SOURCE == console
    with pytest.raises(nvrtc.NvrtcError, match="the other directory's console.h"):
        nvrtc.compile_cubin("sm_90", {"CULE_GAME": get_game("pong").index})
