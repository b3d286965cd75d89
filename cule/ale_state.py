"""States saved by ale-py 0.12.1 (`ALEInterface.cloneState()`), read so that cule environments
can start from them, as the CuLE paper seeds its environments from another engine.

An ALE state is Stella's serialisation: every value a 4-byte little-endian int (bytes widened,
bools as two magic patterns), strings with a length in front, blocks tagged with their device's
name. In order: six ints (paddles, frame numbers, mode, difficulty), then a string holding the
emulator (the ROM's md5, the System with its cycle count and RNG text, the CPU, the RIOT, the
TIA and its sound block, the cartridge), the game's own fields, and the environment RNG where
it was included; then the paddle range.
"""
from __future__ import annotations

import hashlib
import struct

from . import _core
from .games import Game

_TRUE, _FALSE = 0xFAB1FAB2, 0xBAD1BAD2

_CPU = "A X Y SP IR PC N? V? B? D? I? notZ? C? myExecutionStatus"
_RIOT = "myTimer myIntervalShift myCyclesWhenTimerSet myCyclesWhenInterruptReset myTimerReadAfterInterrupt? myDDRA myDDRB"
_TIA = ("myClockWhenFrameStarted myClockStartDisplay myClockStopDisplay myClockAtLastUpdate myClocksToEndOfScanLine "
        "myScanlineCountForLastFrame myCurrentScanline myVSYNCFinishClock myEnabledObjects myVSYNC myVBLANK myNUSIZ0 "
        "myNUSIZ1 myCOLUP0 myCOLUP1 myCOLUPF myCOLUBK myCTRLPF myPlayfieldPriorityAndScore myREFP0? myREFP1? myPF "
        "myGRP0 myGRP1 myDGRP0 myDGRP1 myENAM0? myENAM1? myENABL? myDENABL? myHMP0 myHMP1 myHMM0 myHMM1 myHMBL "
        "myVDELP0? myVDELP1? myVDELBL? myRESMP0? myRESMP1? myCollision myPOSP0 myPOSP1 myPOSM0 myPOSM1 myPOSBL "
        "myCurrentGRP0 myCurrentGRP1 myLastHMOVEClock myHMOVEBlankEnabled? myM0CosmicArkMotionEnabled? "
        "myM0CosmicArkCounter myDumpEnabled? myDumpDisabledCycle")
_SOUND = "reg1 reg2 reg3 reg4 reg5 reg6 myLastRegisterSetCycle"
# The cartridge block after its tag, per scheme of cule's games.
_CART = {"2K": ("Cartridge2K", ""), "4K": ("Cartridge4K", ""), "FE": ("CartridgeFE", ""),
         "F8": ("CartridgeF8", "myCurrentBank"), "F6": ("CartridgeF6", "myCurrentBank"),
         "E0": ("CartridgeE0", "slices[4]"),
         "F8SC": ("CartridgeF8SC", "myCurrentBank superchipRAM[128]"),
         "F6SC": ("CartridgeF6SC", "myCurrentBank superchipRAM[128]"),
         "DPC": ("CartridgeDPC", "myCurrentBank myTops[8] myBottoms[8] myCounters[8] myFlags[8] myMusicMode?[3] "
                 "myRandomNumber mySystemCycles myFractionalClocks")}


class AleStateError(ValueError):
    pass


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def int(self, signed: bool = True) -> int:
        if self.pos + 4 > len(self.data):
            raise AleStateError(f"the state ends early (at byte {self.pos})")
        (v,) = struct.unpack_from("<i" if signed else "<I", self.data, self.pos)
        self.pos += 4
        return v

    def bool(self) -> bool:
        v = self.int(signed=False)
        if v not in (_TRUE, _FALSE):
            raise AleStateError(f"byte {self.pos - 4}: {v:#010x} is not one of Stella's bools")
        return v == _TRUE

    def string(self) -> bytes:
        n = self.int()
        if not 0 <= n <= len(self.data) - self.pos:
            raise AleStateError(f"byte {self.pos - 4}: a string of {n} bytes, where {len(self.data) - self.pos} are "
                                "left: the state is cut short or not an ALE state")
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def tag(self, name: str) -> None:
        got = self.string()
        if got != name.encode():
            raise AleStateError(f"expected the {name} block, found {got[:32]!r}")

    def fields(self, names: str, out: dict) -> None:
        for name in names.split():
            if name.endswith("?"):
                out[name[:-1]] = self.bool()
            elif name.endswith("]"):   # "name[n]": n ints, "name?[n]": n bools, after their count
                name, n = name[:-1].split("[")
                if self.int() != int(n):
                    raise AleStateError(f"{name.rstrip('?')} must hold {n} values")
                read = self.bool if name.endswith("?") else self.int
                out[name.rstrip("?")] = [int(read()) for _ in range(int(n))]
            else:
                out[name] = self.int()


def parse_ale_state(raw: bytes, game: Game, rom: bytes) -> dict:
    """The fields of an ale-py 0.12.1 state of `game`, by Stella's and ALE's names ("myRAM" as
    128 bytes). Refuses a state of another ROM or one it cannot read whole."""
    raw = bytes(raw)
    outer = _Reader(raw)
    f: dict = {}
    outer.fields("m_left_paddle m_right_paddle m_frame_number m_episode_frame_number m_mode m_difficulty", f)
    inner = _Reader(outer.string())
    outer.fields("m_paddle_min m_paddle_max", f)
    if outer.pos != len(raw):
        raise AleStateError(f"{len(raw) - outer.pos} bytes left after the state")

    md5 = inner.string().decode("latin-1")
    if md5 != hashlib.md5(rom).hexdigest():
        raise AleStateError(f"the state is of the ROM with md5 {md5}, not {game.id}'s ({game.md5})")
    inner.tag("System")
    f["myCycles"] = inner.int(signed=False)
    inner.string()   # Stella's system RNG: used only at power-on and reset
    cpu_tag = inner.string()
    if cpu_tag != b"M6502Low":
        raise AleStateError(f"the CPU block is {cpu_tag[:16]!r}; cule reads the default 'M6502Low'")
    inner.fields(_CPU, f)
    inner.tag("M6532")
    if inner.int() != _core.RAM_BYTES:
        raise AleStateError(f"the RIOT's RAM must hold {_core.RAM_BYTES} bytes")
    f["myRAM"] = bytes(inner.int() & 0xFF for _ in range(_core.RAM_BYTES))
    inner.fields(_RIOT, f)
    inner.tag("TIA")
    inner.fields(_TIA, f)
    inner.tag("TIASound")
    inner.fields(_SOUND, {})   # not kept: ALE saves none of its sound generator (SoundRaw is never initialised)
    tag, fields = _CART[game.scheme]
    inner.tag(tag)
    inner.fields(fields, f)
    # What the game's ALE settings object saves after the cartridge ("?": a bool).
    inner.fields(" ".join("m_" + n for n in game.ale_saved.split()), f)
    # What cule keeps of the game beyond score and reward (GameState.flags[0], memory[0], ...).
    for kept in game.ale_kept.split():
        ours, theirs = kept.split("=")
        f[ours] = int(f["m_" + theirs])
    if inner.bool():
        inner.string()   # the sticky-action RNG: cule draws from its own
    if inner.pos != len(inner.data):
        raise AleStateError(f"{len(inner.data) - inner.pos} bytes left in the emulator's state")
    return f
