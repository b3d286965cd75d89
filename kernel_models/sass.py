"""The GPU kernels' machine code (SASS) without a GPU: NVRTC compiles the entry points with line
information, nvdisasm (the nvidia-cuda-nvdisasm wheel) disassembles them, and every instruction
is attributed to the source lines it was inlined from. What each part of the 6502 interpreter
costs in instructions: the loop, the fetch and decode every lane runs, each addressing mode's
case, the operand read and result write, each operation's case.

    python kernel_models/sass.py            # Pong's module, sm_90: the interpreter's parts per kernel
    python kernel_models/sass.py --kernels /tmp/old/kernels --json costs.json   # another commit's, saved
"""
from __future__ import annotations

import datetime
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cule import nvrtc  # noqa: E402

CPU_SOURCE = nvrtc.KERNELS / "atari" / "cpu6502.h"
CONSOLE_SOURCE = nvrtc.KERNELS / "atari" / "console.h"
_LINE = re.compile(r'//## File "([^"]+)", line (\d+)')
_INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
_FUNCTION = re.compile(r"^\s+\.type\s+(\S+),@function")


def tool(name: str) -> str:
    """A CUDA binary tool from its wheel (nvidia-cuda-nvdisasm, nvidia-cuda-cuobjdump) or PATH."""
    try:
        import nvidia

        for root in nvidia.__path__:
            found = sorted(glob.glob(os.path.join(root, "*", "bin", name)))
            if found:
                return found[-1]
    except ImportError:
        pass
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if os.access(os.path.join(directory, name), os.X_OK):
            return os.path.join(directory, name)
    raise FileNotFoundError(f"{name} not found: pip install nvidia-cuda-{name} (no GPU needed)")


def disassemble(cubin: bytes) -> str:
    """nvdisasm's listing of a CUBIN with each instruction's inlined source lines."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return subprocess.run([tool("nvdisasm"), "-gi", "-c", f.name], check=True, capture_output=True,
                              text=True).stdout


@dataclass
class Instruction:
    text: str
    lines: list[tuple[str, int]]   # innermost first: (file name, line)


@dataclass
class Function:
    name: str
    instructions: list[Instruction] = field(default_factory=list)


def functions(listing: str) -> dict[str, Function]:
    """The listing's functions (kernels and the device functions they call) and their instructions,
    each with the chain of source lines it was inlined through."""
    out: dict[str, Function] = {}
    current: Function | None = None
    chain: list[tuple[str, int]] = []
    pending: list[tuple[str, int]] = []
    for line in listing.splitlines():
        if m := _FUNCTION.match(line):
            current = out.setdefault(m.group(1), Function(m.group(1)))
        elif m := _LINE.search(line):
            # an instruction's chain comes before it, one line a frame, innermost first; an
            # instruction without one keeps the chain of the one before
            pending.append((os.path.basename(m.group(1)), int(m.group(2))))
        elif current is not None and (m := _INSTRUCTION.match(line)):
            if pending:
                chain, pending = pending, []
            current.instructions.append(Instruction(m.group(1), chain))
    return out


@dataclass
class Interpreter:
    """Where execute() and cpu_step() lie in cpu6502.h, and which case each line of execute's two
    switches belongs to."""
    execute: range
    cpu_step: range
    cpu_run: range                  # cpu_step and a timer wait, the loop's body
    loop_lines: frozenset           # console_frame's instruction loop, or run_frame_in_passes (console.h)
    plan_lines: dict                # ... of which its plan's (WarpPlan): line -> its part (frame, alone, ...)
    polls: range                    # polls_timer (console.h), the warp schedule's test of a lane's PC
    mode_switch: int                # `switch (mode) {`
    op_switch: int
    read_line: int                  # `if (access & READ) v = bus.peek(addr);`
    write_line: int                 # `if (access & WRITE) bus.poke(addr, v);`
    mode_cases: dict[int, str]      # line -> the mode case (or cases) it lies in
    op_cases: dict[int, str]
    access_lines: frozenset         # the Bus's own loads and stores of ROM and RAM (console.h)
    slow_lines: dict                # (file, line) -> "cart", "chip" or "wait": the Bus's slow paths

    @classmethod
    def from_sources(cls) -> "Interpreter":
        lines = CPU_SOURCE.read_text().splitlines()
        find = lambda text, start=0: next(i + 1 for i in range(start, len(lines)) if text in lines[i])  # noqa: E731
        start = find("CULE_INLINE u32 execute(")
        end = find("// An entry of m6502::OPCODES unpacked", start)
        step = find("CULE_INLINE u32 cpu_step(")
        step_end = next(i + 1 for i in range(step, len(lines)) if lines[i].startswith("}"))
        mode_switch, read = find("switch (mode)", start), find("if (access & READ)", start)
        op_switch, write = find("switch (op)", start), find("if (access & WRITE)", start)

        def cases(first: int, last: int) -> dict[int, str]:
            out, label = {}, "?"
            for n in range(first + 1, last):
                names = re.findall(r"case (\w+):", lines[n - 1])
                if names:
                    label = "/".join(names)
                out[n] = label
            return out
        console = CONSOLE_SOURCE.read_text().splitlines()
        plain_loop = next(i + 1 for i, t in enumerate(console) if t.strip() == "while (bus.runs()) cpu_run(cpu, bus);")
        passes = next(i + 1 for i, t in enumerate(console) if "void run_frame_in_passes(" in t)
        polls = next(i + 1 for i, t in enumerate(console) if "bool polls_timer(" in t)
        polls_end = next(i + 1 for i in range(polls, len(console)) if console[i].startswith("}"))
        passes_end = next(i + 1 for i in range(passes, len(console)) if console[i].startswith("}"))
        loop = frozenset([plain_loop, *range(passes, passes_end)])

        def branch(n: int) -> range:   # the lines inside the braces the last `{` of line n opens
            depth = 0
            for m in range(n, passes_end + 1):
                text = console[m - 1] if m > n else console[n - 1][console[n - 1].rindex("{"):]
                for ch in text:
                    depth += (ch == "{") - (ch == "}")
                    if depth == 0:
                        return range(n + 1, m)
            raise ValueError(f"no end to line {n} of run_frame_in_passes")

        def line(text: str) -> int:
            return next(n for n in range(passes, passes_end + 1) if text in console[n - 1])
        # run_frame_in_passes's lines: the plan's for a frame (before and after the loop), for a
        # lane on its own (alone), for a warp that meets (meet) and then runs a slot of every lane
        # (held, and count where it counts), a pass of every lane at one instruction (whole), or
        # chooses (choice, and slots in the way of slots);
        # the rest of the loop's turn (iteration: its tests of the way, of the lane's end, of a
        # call), but for the call of cpu_run (the loop's) and the test that keeps a lane alone in
        # it (lanes), which run every instruction
        frame_loop = line("for (;;)")
        body, alone = branch(frame_loop), branch(line("if (mode == LANES) {"))
        held = branch(line("if (held) {"))
        whole = branch(line("code == least && opcode != NONE"))   # one pass of every lane, not chosen
        plan = {n: "frame" for n in range(passes + 1, passes_end) if not frame_loop <= n <= body[-1] + 1}
        plan.update({n: "alone" for n in alone})
        plan.update({n: "meet" for n in branch(alone[-1] + 1)})
        plan.update({n: "held" for n in held})
        plan.update({n: "whole" for n in range(held[-1] + 1, whole[-1] + 1)})
        plan.update({n: "choice" for n in branch(whole[-1] + 1)})
        plan.update({n: "slots" for n in branch(line("if (mode % COUNTING == SLOTS) {"))})
        plan.update({line("if (mode & COUNTING)"): "count", line("cost += UNIT_ITERATION + (mode"): "count",
                     line("if (held) {"): "meet"})
        plan.update({line("calls.enter(code);"): "call", line("calls.leave();"): "call"})   # a JSR's, a return's
        plan.update({n: "iteration" for n in body if n not in plan and "n += cpu_run(" not in console[n - 1]})
        plan[line("while (mode == LANES")] = "lanes"
        run = find("CULE_INLINE u32 cpu_run(")
        run_end = next(i + 1 for i in range(run, len(lines)) if lines[i].startswith("}"))
        access = frozenset(i + 1 for i, t in enumerate(console)
                           if "v = window.bytes[key & window.mask];" in t or "ram[(addr & 0x7F) * ram_step]" in t)
        # The Bus's slow paths: a cartridge access outside the window of plain reads (a bank
        # switch), a chip's register, a timer wait after a branch back.
        slow = {}
        for i, t in enumerate(console):
            if "v = peek_cart(addr);" in t or "cart_poke(c.cart, addr, v);" in t:
                slow[(CONSOLE_SOURCE.name, i + 1)] = "cart"
                if "cart_poke" in t and "open_window(addr);" in console[i + 1]:
                    slow[(CONSOLE_SOURCE.name, i + 2)] = "cart"
            elif "v = peek_chip(addr);" in t or "bus_poke_chip<DRAW>(" in t:
                slow[(CONSOLE_SOURCE.name, i + 1)] = "chip"
        wait = find("if (branched && (i32)bus.left > 0)", run)
        for n in range(wait, run_end):
            if lines[n].strip() == "}":
                break
            slow[(CPU_SOURCE.name, n + 1)] = "wait"
        return cls(range(start, end), range(step, step_end), range(run, run_end), loop, plan, range(polls, polls_end),
                   mode_switch, op_switch, read, write, cases(mode_switch, read), cases(op_switch, write), access, slow)

    def region(self, chain: list[tuple[str, int]]) -> str | None:
        """The interpreter's part an instruction belongs to, from its source chain: loop, polls, fetch,
        dispatch:mode, mode:<case>, read, dispatch:op, op:<case>, write or execute (the rest of
        execute), or slow:<kind>@<part> where it lies on one of the Bus's slow paths inlined into
        that part (which run only when the access takes them: the trace tells); None outside."""
        slow = next((self.slow_lines[f] for f in chain if f in self.slow_lines), None)
        if slow:
            part = self.region([f for f in chain if f not in self.slow_lines])
            return f"slow:{slow}@{part}" if part else None
        cpu = CPU_SOURCE.name
        for file, line in reversed(chain):   # outermost first: the case the code was inlined into
            if file == cpu and line in self.execute:
                if line in self.mode_cases:
                    return "mode:" + self.mode_cases[line]
                if line in self.op_cases:
                    return "op:" + self.op_cases[line]
                if line == self.mode_switch:
                    return "dispatch:mode"
                if line == self.op_switch:
                    return "dispatch:op"
                if line == self.read_line:
                    return "read"
                if line == self.write_line:
                    return "write"
                return "execute"
        if any(file == cpu and line in self.cpu_step for file, line in chain):
            return "fetch"
        if any(file == CONSOLE_SOURCE.name and line in self.polls for file, line in chain):
            return "polls"
        plan = next((self.plan_lines[line] for file, line in reversed(chain)   # a lambda's: where it is called
                     if file == CONSOLE_SOURCE.name and line in self.plan_lines), None)
        if plan:
            return "plan:" + plan
        if any((file == CONSOLE_SOURCE.name and line in self.loop_lines) or (file == cpu and line in self.cpu_run)
               for file, line in chain):
            return "loop"
        return None


# The chips' own code, inlined where an access reaches a chip: the TIA's headers (its parts and
# its log), the RIOT's and the cartridge's.
CHIP_SOURCES = tuple(sorted(p.name for p in (nvrtc.KERNELS / "atari").glob("*.h")
                            if p.name.startswith(("tia", "riot", "cart"))))
_GLOBAL = re.compile(r"^(?:@!?U?P\w+\s+)?(LDG|STG|LD|ST|ATOMG|ATOM|RED)(?:\.|\s)")
_LOCAL = re.compile(r"^(?:@!?U?P\w+\s+)?(LDL|STL)(?:\.|\s)")
_SHARED = re.compile(r"^(?:@!?U?P\w+\s+)?(LDS|STS|ATOMS)(?:\.|\s)")


_WIDE = re.compile(r"\.(64|128)\b")


@dataclass
class Cost:
    """Machine instructions of one part of the interpreter: all of them, and those that load or
    store global memory (the machine state, the ROM), of which those that are the Bus's own ROM
    and RAM accesses (the code has one for each place a byte can be; an access runs one of them),
    or local memory (spills, the GPU's Bus), and the 32-bit words those local ones move per lane
    (a warp's local memory puts word k of its 32 lanes side by side: a request of n words by 8
    or more lanes is up to 4n sectors), or shared memory (the warp schedule's RAM tile)."""
    instructions: int = 0
    global_memory: int = 0
    access_memory: int = 0
    local_memory: int = 0
    local_words: int = 0
    shared_memory: int = 0


def local_words(text: str) -> int:
    """The 32-bit words an instruction loads or stores in local memory per lane (0: none)."""
    if not _LOCAL.match(text):
        return 0
    opcode = text.split()[1] if text.startswith("@") else text.split()[0]
    wide = _WIDE.search(opcode)
    return int(wide.group(1)) // 32 if wide else 1


def interpreter_copies(functions_: list[Function], interpreter: Interpreter) -> list[dict[str, Cost]]:
    """The cost of each part of the interpreter, for each copy of it inlined into a kernel and the
    device functions it calls (one per template instance and call site: drawing or not, a step and
    its redo), largest first. The chips' code inlined into a part (a TIA write's) is left out:
    it runs only when the access reaches a chip, which the trace tells."""
    copies: dict[tuple, dict[str, Cost]] = {}
    access = {(CONSOLE_SOURCE.name, line) for line in interpreter.access_lines}
    for function in functions_:
        for ins in function.instructions:
            region = interpreter.region(ins.lines)
            if region is None or ins.lines[0][0] in CHIP_SOURCES:
                continue
            # the copy: the frames outside console_frame's loop
            outer = next((i for i, (f, n) in enumerate(ins.lines)
                          if f == CONSOLE_SOURCE.name and n in interpreter.loop_lines), None)
            context = (function.name,) + (tuple(ins.lines[outer + 1:]) if outer is not None else ())
            cost = copies.setdefault(context, {}).setdefault(region, Cost())
            cost.instructions += 1
            is_global = bool(_GLOBAL.match(ins.text))
            cost.global_memory += is_global
            cost.access_memory += is_global and ins.lines[0] in access
            words = local_words(ins.text)
            cost.local_memory += words > 0
            cost.local_words += words
            cost.shared_memory += bool(_SHARED.match(ins.text))
    return sorted(copies.values(), key=lambda c: -sum(x.instructions for x in c.values()))


def kernel_family(found: dict[str, Function], kernel: str) -> list[Function]:
    """A kernel and the device functions compiled for it ($kernel$name)."""
    return [f for name, f in found.items() if name == kernel or name.startswith(f"${kernel}$")]


def interpreter_costs(arch: str = "sm_90", defines: dict[str, object] | None = None,
                      kernels: tuple[str, ...] = ("cule_step", "cule_step_logged")) -> dict[str, dict[str, Cost]]:
    """For each kernel, the cost of each part of the interpreter's largest copy."""
    found = functions(disassemble(nvrtc.compile_cubin(arch, defines, line_info=True)))
    interpreter = Interpreter.from_sources()
    out = {}
    for name in kernels:
        copies = interpreter_copies(kernel_family(found, name), interpreter)
        out[name] = dict(sorted(copies[0].items())) if copies else {}
    return out


def opcode_parts() -> list[tuple[str, str, bool, bool]]:
    """For each opcode, the parts of the interpreter it runs besides the loop and the fetch: its mode's
    case, its operation's case, and whether it reads and writes its operand (the read and write
    parts), from the opcode table the CPU backend exports and the cases' labels in cpu6502.h."""
    from cule import _core

    source = CPU_SOURCE.read_text()
    enum = lambda name: re.search(r"enum %s : u8 \{([^}]*)\}" % name, source).group(1)  # noqa: E731
    modes = re.findall(r"\w+", enum("Mode"))
    ops = re.findall(r"\w+", re.sub(r"//[^\n]*", "", enum("Op")))
    interpreter = Interpreter.from_sources()
    label = lambda cases, name: next((c for c in set(cases.values()) if name in c.split("/")), None)  # noqa: E731
    out = []
    for entry in _core.OPCODE_ENTRIES:
        mode, access, op = modes[entry & 0x0F], entry >> 4 & 3, ops[entry >> 6 & 0x7F]
        mode_case, op_case = label(interpreter.mode_cases, mode), label(interpreter.op_cases, op)
        out.append(("mode:" + mode_case if mode_case else "", "op:" + op_case if op_case else "",
                    bool(access & 1), bool(access & 2)))
    return out


def counts_by_function(arch: str = "sm_90", defines: dict[str, object] | None = None) -> dict[str, int]:
    """SASS instructions of every function of the module."""
    found = functions(disassemble(nvrtc.compile_cubin(arch, defines)))
    return {name: len(f.instructions) for name, f in found.items()}


def save_costs(path: Path, games: list[str], kernels: tuple[str, ...], arch: str = "sm_90") -> dict:
    """interpreter_costs of each game's module, written as JSON (load_costs reads it back): the
    machine code of a kernel at one commit, kept to compare later kernels with."""
    from cule.games import get_game

    costs = {game: interpreter_costs(arch, {"CULE_GAME": get_game(game).index}, kernels) for game in games}
    # the last commit that changed the kernels (with the work tree's changes, if any, on top)
    commit = subprocess.run(["git", "-C", str(nvrtc.KERNELS), "log", "-1", "--format=%h", "--", "."],
                            capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", str(nvrtc.KERNELS), "status", "--porcelain", "--", "."],
                             capture_output=True, text=True).stdout.strip()
    record = dict(arch=arch, commit=commit + (" and changes" if changed else ""),
                  date=datetime.date.today().isoformat(),
                  costs={game: {kernel: {part: vars(c) for part, c in parts.items()} for kernel, parts in by_kernel.items()}
                         for game, by_kernel in costs.items()})
    path.write_text(json.dumps(record, indent=1) + "\n")
    return costs


def load_costs(path: Path) -> dict[str, dict[str, dict[str, Cost]]]:
    """save_costs's file: game -> kernel -> part -> Cost."""
    record = json.loads(Path(path).read_text())
    return {game: {kernel: {part: Cost(**c) for part, c in parts.items()} for kernel, parts in by_kernel.items()}
            for game, by_kernel in record["costs"].items()}


def use_kernels(directory: Path) -> None:
    """Compile and read the kernel sources of `directory` (another commit's kernels/) instead: its
    entry point and the headers it includes."""
    global CPU_SOURCE, CONSOLE_SOURCE
    nvrtc.KERNELS = Path(directory).resolve()
    CPU_SOURCE = nvrtc.KERNELS / "atari" / "cpu6502.h"
    CONSOLE_SOURCE = nvrtc.KERNELS / "atari" / "console.h"


if __name__ == "__main__":
    import argparse

    from cule.games import get_game

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=Path, help="another kernels/ directory (e.g. a git worktree's at an older commit)")
    parser.add_argument("--json", type=Path, help="write the costs of --games' modules there (save_costs)")
    parser.add_argument("--games", nargs="+", default=["pong", "breakout", "ms_pacman", "space_invaders", "seaquest"])
    args = parser.parse_args()
    if args.kernels:
        use_kernels(args.kernels)
    if args.json:
        save_costs(args.json, args.games, ("cule_step", "cule_step_logged", "cule_step_in_passes"))
        print(f"wrote {args.json}")
        sys.exit(0)
    costs = interpreter_costs("sm_90", {"CULE_GAME": get_game("pong").index})
    for kernel, parts in costs.items():
        print(kernel)
        for name, cost in parts.items():
            if ":" not in name or name in ("mode:ABS/ABX/ABY", "op:LDA", "op:STA", "op:BPL/BMI/BVC/BVS/BCC/BCS/BNE/BEQ"):
                print(f"  {name:40s} {cost.instructions:5d} instructions, {cost.global_memory:3d} global "
                      f"and {cost.local_memory:3d} local memory ({cost.local_words} words)")
