"""Every bus access of every one of the 256 opcodes, in order, and the cycles each one costs.

Bank switching reacts to every address the CPU touches, dummy reads included, so the core must
touch what ALE's CPU core touches: Stella's M6502Low (ALE 0.12.1 runs it: its Console.cxx picks
it for the default setting cpu=low). Read from ALE's copy of Stella, src/ale/emucore/M6502Low.m4
(one macro per addressing mode and access kind) and M6502.m4 (the operations, the opcode cases):
- each opcode case names its access kind: *_READ modes read the effective address, *_WRITE
  modes leave it to the operation's one poke, *_READMODIFYWRITE modes read it and the operation
  pokes the result once; JMP abs is filed under ABSOLUTE_WRITE and touches nothing at its target;
- the modes make no dummy access: no read of the zero-page base before X or Y is added, none at
  the address whose high byte is not fixed yet (reads that cross a page only add the cycle),
  none of the byte after a one-byte instruction, none for a taken branch;
- (zp,X) and (zp),Y read the pointer's high byte from pointer + 1 computed as an int: $0100
  after $FF;
- BRK reads its padding byte and pushes three bytes, JSR reads the stack at S between its two
  operand bytes, RTS, RTI, PLA and PLP read the stack at S before pulling, RTS reads the pulled
  address; PHA and PHP only push;
- the 12 JAM opcodes have no case: the opcode fetch, the table's cycles, then a fatal error.

The real NMOS 6502 makes one bus access every cycle (64doc, "6510 Instruction Timing"). The
tables below list those accesses cycle by cycle and mark with "~" the dummy ones Stella leaves
out, so that one table gives both references: the accesses Stella makes, which the recorded
ones must equal, and the number of cycles, one per access of the chip, which Stella's cycle
table and page-crossing penalties must give (but where STELLA_CYCLES says otherwise). Where the
chip wraps the (zp,X) and (zp),Y pointer in zero page, the tables have Stella's pointer + 1 (on
the 2600 both are TIA register 0). The parity tests against ale-py are the final word on what
the games observe.
"""
import random

import numpy as np
import pytest

from cule import _probes

# Mnemonic and addressing mode of every opcode, eight to a line from $00; an entry without a mode
# is a one-byte instruction (implied or accumulator). As Stella's addressing mode and mnemonic
# tables (M6502.cxx) have them.
OPCODE_MATRIX = """
BRK,      ORA izx,  JAM,      SLO izx,  NOP zp,   ORA zp,   ASL zp,   SLO zp,
PHP,      ORA imm,  ASL,      ANC imm,  NOP abs,  ORA abs,  ASL abs,  SLO abs,
BPL rel,  ORA izy,  JAM,      SLO izy,  NOP zpx,  ORA zpx,  ASL zpx,  SLO zpx,
CLC,      ORA aby,  NOP,      SLO aby,  NOP abx,  ORA abx,  ASL abx,  SLO abx,
JSR abs,  AND izx,  JAM,      RLA izx,  BIT zp,   AND zp,   ROL zp,   RLA zp,
PLP,      AND imm,  ROL,      ANC imm,  BIT abs,  AND abs,  ROL abs,  RLA abs,
BMI rel,  AND izy,  JAM,      RLA izy,  NOP zpx,  AND zpx,  ROL zpx,  RLA zpx,
SEC,      AND aby,  NOP,      RLA aby,  NOP abx,  AND abx,  ROL abx,  RLA abx,
RTI,      EOR izx,  JAM,      SRE izx,  NOP zp,   EOR zp,   LSR zp,   SRE zp,
PHA,      EOR imm,  LSR,      ASR imm,  JMP abs,  EOR abs,  LSR abs,  SRE abs,
BVC rel,  EOR izy,  JAM,      SRE izy,  NOP zpx,  EOR zpx,  LSR zpx,  SRE zpx,
CLI,      EOR aby,  NOP,      SRE aby,  NOP abx,  EOR abx,  LSR abx,  SRE abx,
RTS,      ADC izx,  JAM,      RRA izx,  NOP zp,   ADC zp,   ROR zp,   RRA zp,
PLA,      ADC imm,  ROR,      ARR imm,  JMP ind,  ADC abs,  ROR abs,  RRA abs,
BVS rel,  ADC izy,  JAM,      RRA izy,  NOP zpx,  ADC zpx,  ROR zpx,  RRA zpx,
SEI,      ADC aby,  NOP,      RRA aby,  NOP abx,  ADC abx,  ROR abx,  RRA abx,
NOP imm,  STA izx,  NOP imm,  SAX izx,  STY zp,   STA zp,   STX zp,   SAX zp,
DEY,      NOP imm,  TXA,      ANE imm,  STY abs,  STA abs,  STX abs,  SAX abs,
BCC rel,  STA izy,  JAM,      SHA izy,  STY zpx,  STA zpx,  STX zpy,  SAX zpy,
TYA,      STA aby,  TXS,      SHS aby,  SHY abx,  STA abx,  SHX aby,  SHA aby,
LDY imm,  LDA izx,  LDX imm,  LAX izx,  LDY zp,   LDA zp,   LDX zp,   LAX zp,
TAY,      LDA imm,  TAX,      LXA imm,  LDY abs,  LDA abs,  LDX abs,  LAX abs,
BCS rel,  LDA izy,  JAM,      LAX izy,  LDY zpx,  LDA zpx,  LDX zpy,  LAX zpy,
CLV,      LDA aby,  TSX,      LAS aby,  LDY abx,  LDA abx,  LDX aby,  LAX aby,
CPY imm,  CMP izx,  NOP imm,  DCP izx,  CPY zp,   CMP zp,   DEC zp,   DCP zp,
INY,      CMP imm,  DEX,      SBX imm,  CPY abs,  CMP abs,  DEC abs,  DCP abs,
BNE rel,  CMP izy,  JAM,      DCP izy,  NOP zpx,  CMP zpx,  DEC zpx,  DCP zpx,
CLD,      CMP aby,  NOP,      DCP aby,  NOP abx,  CMP abx,  DEC abx,  DCP abx,
CPX imm,  SBC izx,  NOP imm,  ISB izx,  CPX zp,   SBC zp,   INC zp,   ISB zp,
INX,      SBC imm,  NOP,      SBC imm,  CPX abs,  SBC abs,  INC abs,  ISB abs,
BEQ rel,  SBC izy,  JAM,      ISB izy,  NOP zpx,  SBC zpx,  INC zpx,  ISB zpx,
SED,      SBC aby,  NOP,      ISB aby,  NOP abx,  SBC abx,  INC abx,  ISB abx,
"""
OPCODES = [tuple(entry.split()) if " " in entry else (entry, "imp")
           for entry in (e.strip() for e in OPCODE_MATRIX.split(",")) if entry]
assert len(OPCODES) == 256

WRITES = {"STA", "STX", "STY", "SAX", "SHA", "SHS", "SHX", "SHY"}
READ_MODIFY_WRITES = {"ASL", "LSR", "ROL", "ROR", "INC", "DEC", "SLO", "RLA", "SRE", "RRA", "DCP", "ISB"}

# The accesses after the opcode fetch, as "kind address" pairs; {access} is the access kind's at
# the effective address `ea`. "~" marks a dummy access of the 6502 that Stella does not make:
# always, or only in the case named after it (taken: the branch is taken; crossed: the index
# carried into the high byte, or a taken branch lands on another page; fixup: crossed, or the
# access is not a read, which always takes the fix-up cycle).
MODES = {
    "imp": "r pc+1~",                                   # the next byte, read and dropped
    "imm": "{access}",                                  # ea = pc+1
    "rel": "{access} r pc+2~taken r unfixed~crossed",   # ea = pc+1; then the next opcode
    "zp": "r pc+1 {access}",
    "zpx": "r pc+1 r zp~ {access}",                     # the base is read while X is added
    "zpy": "r pc+1 r zp~ {access}",
    "abs": "r pc+1 r pc+2 {access}",
    "abx": "r pc+1 r pc+2 r unfixed~fixup {access}",    # low byte indexed, high byte not yet
    "aby": "r pc+1 r pc+2 r unfixed~fixup {access}",
    "izx": "r pc+1 r zp~ r ptr r ptr+1 {access}",
    "izy": "r pc+1 r ptr r ptr+1 r unfixed~fixup {access}",
    "ind": "r pc+1 r pc+2 r ptr r ptr+1",               # JMP (a): ptr+1 stays in ptr's page
}
ACCESSES = {
    "read": "r ea",
    "write": "w ea",
    "rmw": "r ea w ea~ w ea",   # the 6502 writes the value back unchanged, then the result
    "none": "",                 # JMP abs: the address is the target
}
# Instructions with their own pattern (s = $0100 + SP).
OWN = {
    "BRK": "r pc+1 w s w s-1 w s-2 r $FFFE r $FFFF",
    "JSR": "r pc+1 r s w s w s-1 r pc+2",
    "RTS": "r pc+1~ r s r s+1 r s+2 r return",   # `return`: the pulled address, then PC + 1
    "RTI": "r pc+1~ r s r s+1 r s+2 r s+3",
    "PHA": "r pc+1~ w s",
    "PHP": "r pc+1~ w s",
    "PLA": "r pc+1~ r s r s+1",
    "PLP": "r pc+1~ r s r s+1",
    "JAM": "",
}
# Where Stella's cycle table is not the chip's count, cule keeps Stella's (games see the clock
# through the TIA and the RIOT timer): LAX zp takes 3 cycles on the 6502 and 4 in the table; the
# JAM opcodes, which lock the chip up, are charged 2 before Stella stops.
STELLA_CYCLES = {0xA7: 4, **{op: 2 for op, (mnemonic, _) in enumerate(OPCODES) if mnemonic == "JAM"}}
BRANCH_FLAGS = {"BPL": (0x80, 0), "BMI": (0x80, 1), "BVC": (0x40, 0), "BVS": (0x40, 1),
                "BCC": (0x01, 0), "BCS": (0x01, 1), "BNE": (0x02, 0), "BEQ": (0x02, 1)}


def access_kind(mnemonic: str, mode: str) -> str:
    if mnemonic == "JMP":
        return "none"
    if mode != "imp" and mnemonic in WRITES:
        return "write"
    if mode != "imp" and mnemonic in READ_MODIFY_WRITES:
        return "rmw"
    return "read"


def pattern(opcode: int) -> list[tuple[str, str, str | None]]:
    """(kind, address name, case) per access: case None for an access Stella makes, "" for a
    dummy access the 6502 always makes, otherwise the case in which it makes it."""
    mnemonic, mode = OPCODES[opcode]
    text = OWN.get(mnemonic) or MODES[mode].format(access=ACCESSES[access_kind(mnemonic, mode)])
    words = ("r pc " + text).split()
    out = []
    for kind, target in zip(words[::2], words[1::2]):
        name, dummy, case = target.partition("~")
        out.append((kind, name, case if dummy else None))
    return out


def word(memory, low: int, high: int) -> int:
    return int(memory[low]) | int(memory[high]) << 8


def addresses(opcode: int, regs: dict, memory) -> tuple[dict, set]:
    """The named addresses of one instruction, from the machine before it runs (every pointer is
    read before anything is written), and the cases that hold."""
    mnemonic, mode = OPCODES[opcode]
    pc, x, y, sp = regs["pc"], regs["x"], regs["y"], regs["sp"]
    a = {"pc": pc, "pc+1": pc + 1, "pc+2": pc + 2, "$FFFE": 0xFFFE, "$FFFF": 0xFFFF}
    for k in range(-2, 4):
        a["s" + (f"{k:+d}" if k else "")] = 0x100 | (sp + k) & 0xFF
    a["return"] = word(memory, a["s+1"], a["s+2"])
    zp = a["zp"] = int(memory[pc + 1])
    index = {"zpx": x, "abx": x, "zpy": y, "aby": y, "izy": y}.get(mode, 0)
    kind, cases = access_kind(mnemonic, mode), set()
    if mode in ("imm", "rel"):
        a["ea"] = pc + 1
    elif mode.startswith("zp"):
        a["ea"] = (zp + index) & 0xFF
    elif mode in ("abs", "abx", "aby", "izy"):
        if mode == "izy":
            a["ptr"], a["ptr+1"] = zp, zp + 1
            base = word(memory, zp, zp + 1)
        else:
            base = word(memory, pc + 1, pc + 2)
        a["ea"] = (base + index) & 0xFFFF
        a["unfixed"] = base & 0xFF00 | a["ea"] & 0xFF
        if a["unfixed"] != a["ea"]:
            cases.add("crossed")
        if kind != "read" or "crossed" in cases:
            cases.add("fixup")
    elif mode == "izx":
        a["ptr"] = (zp + x) & 0xFF
        a["ptr+1"] = a["ptr"] + 1
        a["ea"] = word(memory, a["ptr"], a["ptr+1"])
    elif mode == "ind":
        a["ptr"] = word(memory, pc + 1, pc + 2)
        a["ptr+1"] = a["ptr"] & 0xFF00 | (a["ptr"] + 1) & 0xFF
    if mode == "rel":
        flag, value = BRANCH_FLAGS[mnemonic]
        target = (pc + 2 + (zp ^ 0x80) - 0x80) & 0xFFFF
        a["unfixed"] = (pc + 2) & 0xFF00 | target & 0xFF
        if bool(regs["p"] & flag) == value:
            cases.add("taken")
            if a["unfixed"] != target:
                cases.add("crossed")
    return a, cases


def machine(rng: random.Random, opcode: int, trial: int):
    """Random registers and memory; the first trials force the corner cases: the (zp,X) or
    (zp),Y pointer at $FF, JMP ($xxFF), the stack pointer at either end of its page."""
    memory = np.frombuffer(rng.randbytes(65536), dtype=np.uint8).copy()
    pc = rng.randrange(0x0200, 0xFF00)
    memory[pc] = opcode
    regs = dict(pc=pc, a=rng.getrandbits(8), x=rng.getrandbits(8), y=rng.getrandbits(8),
                sp=(0x00, 0xFF)[trial] if trial < 2 else rng.getrandbits(8), p=rng.getrandbits(8) | 0x30)
    mode = OPCODES[opcode][1]
    if trial == 0 and mode in ("izx", "izy", "ind"):
        memory[pc + 1] = (0xFF - regs["x"]) & 0xFF if mode == "izx" else 0xFF
    return regs, memory


TRIALS = 12


@pytest.mark.parametrize("opcode", range(256), ids=lambda op: f"{op:02x}")
def test_accesses_and_cycles_follow_stella_and_the_6502(opcode):
    mnemonic, mode = OPCODES[opcode]
    can_cross = mode in ("abx", "aby", "izy", "rel")
    rng = random.Random(opcode)
    crossings = set()
    for trial in range(TRIALS):
        # Where the mode can cross a page, odd trials do and even ones do not; branches are
        # taken but in every fourth trial.
        for _ in range(1000):
            regs, memory = machine(rng, opcode, trial)
            if mode == "rel":
                flag, value = BRANCH_FLAGS[mnemonic]
                regs["p"] = regs["p"] & ~flag | (flag if value == (trial % 4 != 0) else 0)
            a, cases = addresses(opcode, regs, memory)
            if not can_cross or ("crossed" in cases) == (trial % 2 == 1):
                break
        crossings.add("crossed" in cases)
        steps = pattern(opcode)
        want = [(kind, a[name]) for kind, name, case in steps if case is None]
        chip_cycles = sum(1 for _, _, case in steps if case in (None, "") or case in cases)
        want_cycles = STELLA_CYCLES.get(opcode, chip_cycles)

        out, cycles, accesses = _probes.cpu_probe_step(regs, memory)
        where = f"opcode {opcode:#04x} ({mnemonic} {mode}) from {regs}, cases {sorted(cases)}"
        assert [(kind, address) for kind, address, _ in accesses] == want, where
        assert cycles == want_cycles, where
        assert out["halted"] == (mnemonic == "JAM"), where
    if can_cross:
        assert crossings == {False, True}, "the trials cross a page and stay on one"
