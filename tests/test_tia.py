"""The TIA's deferred drawing (kernels/atari/tia_registers.h, tia_poke).

Stella draws the picture up to the clock of every TIA write (and its poke delay). cule leaves that
to the next drawing when the write cannot change the picture: WSYNC, RSYNC, audio, motion values,
HMCLR, unused addresses, and any write that leaves the registers as they were (tia_write_keeps_state:
the same playfield, graphics, enables, colours). These tests write random register sequences, a
third of them repeating a register's last value, into a frame twice: as cule runs them, and with a
draw at each write as Stella's TIA does (the probe's `stella_draws`), and compare pixels and
collision latches. A last test compares the collisions of a drawn frame with those of a frame not
drawn.
"""
import numpy as np
import pytest

from cule import _probes

DEFERRED = [0x02, 0x03, *range(0x15, 0x1B), *range(0x20, 0x25), 0x2B, *range(0x2D, 0x40)]
# Everything else but VSYNC, which could end the frame.
DRAWING = [a for a in range(0x01, 0x2D) if a not in DEFERRED]
VSYNC, VBLANK, COLUBK, CXCLR = 0x00, 0x01, 0x09, 0x2C
COLOURS = range(0x06, 0x0A)   # COLUP0, COLUP1, COLUPF, COLUBK
ENABLES = [0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x0D, 0x0E, 0x0F]   # GRP0/1, ENAM0/1, ENABL, PF0-2
# Registers that a write of the value they hold leaves as they are (GRP0/1 also move a delay register).
KEPT_ON_REPEAT = [VBLANK, *COLOURS, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x1D, 0x1E, 0x1F, 0x25, 0x26, 0x27]
FIRST_CYCLE, LAST_CYCLE = 34 * 76, (34 + 210) * 76   # the lines shown (ystart 34)


def random_writes(seed: int, tail_deferred: int, repeats: float = 0.33) -> list[tuple[int, int, int]]:
    """About 800 writes over the shown lines: a third deferred as writes of their registers, a share
    `repeats` of the rest repeating the register's last value. Then `tail_deferred` writes after the
    last one that changes the picture, deferred or repeating a value."""
    rng = np.random.default_rng(seed)
    writes, cycle, last = [], FIRST_CYCLE, {}

    def repeat(registers):
        addr = int(rng.choice([a for a in sorted(last) if a in registers]))
        return addr, last[addr]

    while cycle < LAST_CYCLE - 200:
        cycle += int(rng.integers(1, 40))
        if rng.random() < 0.35:
            addr, value = int(rng.choice(DEFERRED)), int(rng.integers(0, 256))
        elif last and rng.random() < repeats:
            addr, value = repeat(last)
        else:
            addr, value = int(rng.choice(DRAWING)), int(rng.integers(0, 256))
        writes.append((cycle, addr, value))
        last[addr] = value
    # The last drawing writes turn the picture on in a colour, so that the tail shows.
    writes += [(cycle + 3, VBLANK, 0), (cycle + 6, COLUBK, 0x46)]
    last.update({VBLANK: 0, COLUBK: 0x46})
    cycle += 6
    for _ in range(tail_deferred):
        cycle += int(rng.integers(1, 30))
        if rng.random() < 0.5:
            writes.append((cycle, int(rng.choice(DEFERRED)), int(rng.integers(0, 256))))
        else:
            writes.append((cycle, *repeat(KEPT_ON_REPEAT)))
    return writes


@pytest.mark.parametrize("seed", range(20))
def test_deferred_writes_draw_the_same_frame(seed):
    writes = random_writes(seed, tail_deferred=12)
    writes.append((LAST_CYCLE + 76, VSYNC, 0))   # the write that ends the frame draws
    frame, _, collisions = _probes.tia_probe(writes, cut=False)
    stella, _, stella_collisions = _probes.tia_probe(writes, cut=False, stella_draws=True)
    pixels = np.frombuffer(frame, np.uint8)
    assert len(np.unique(pixels)) > 8, "the random writes should draw a varied picture"
    np.testing.assert_array_equal(pixels, np.frombuffer(stella, np.uint8))
    assert collisions == stella_collisions


@pytest.mark.parametrize("seed", range(10))
def test_a_frame_cut_short_catches_up_with_deferred_writes(seed):
    """A frame the instruction cap cuts ends where Stella's last write drew, deferred or not."""
    writes = random_writes(seed, tail_deferred=12)
    stella, _, _ = _probes.tia_probe(writes, cut=True, stella_draws=True)
    caught_up, _, _ = _probes.tia_probe(writes, cut=True)
    assert caught_up == stella
    behind, _, _ = _probes.tia_probe(writes, cut=False)   # without the catch-up the last line lags
    assert behind != stella


@pytest.mark.parametrize("seed", range(20))
def test_writes_of_the_values_held_draw_the_same_frame(seed):
    """Writes of few values to the registers whose repeats defer (and to GRP0/1, which move delay
    registers), so that half of them write what is there: a repeat that changes a delay register
    or an enable must draw."""
    rng = np.random.default_rng(2000 + seed)
    setup = [(FIRST_CYCLE, 0x04, 0x07), (FIRST_CYCLE + 3, 0x05, 0x05), (FIRST_CYCLE + 6, COLUBK, 0x12)]
    setup += [(FIRST_CYCLE + 9 + 3 * i, 0x06 + i, 0x40 + 0x20 * i) for i in range(3)]   # COLUP0/1, COLUPF
    registers = [*KEPT_ON_REPEAT, 0x1B, 0x1C, 0x10, 0x11, 0x12, 0x13, 0x14]   # GRP0/1, RESP0..RESBL
    writes, cycle = list(setup), FIRST_CYCLE + 30
    while cycle < LAST_CYCLE - 200:
        cycle += int(rng.integers(1, 24))
        writes.append((cycle, int(rng.choice(registers)), int(rng.choice([0x00, 0x03, 0x0A, 0xF1]))))
    writes.append((LAST_CYCLE + 76, VSYNC, 0))
    frame, _, latches = _probes.tia_probe(writes, cut=False)
    stella, _, stella_latches = _probes.tia_probe(writes, cut=False, stella_draws=True)
    pixels = np.frombuffer(frame, np.uint8)
    assert len(np.unique(pixels)) >= 5, "the writes should show every object's colour"
    np.testing.assert_array_equal(pixels, np.frombuffer(stella, np.uint8))
    assert latches == stella_latches


@pytest.mark.parametrize("offset", range(4))
def test_a_frame_cut_after_a_delayed_repeat_draws_to_its_delay(offset):
    """A playfield write draws 2-5 clocks past it: one of the value held, then a deferred write a CPU
    cycle later (a JSR's or BRK's pushes), then the cut, ends where the playfield write drew."""
    cycle = FIRST_CYCLE + 76 * 20 + 30 + offset
    # The background alone, whose spans end where they are told (no four-pixel steps past them).
    writes = [(FIRST_CYCLE, VBLANK, 0), (FIRST_CYCLE + 3, COLUBK, 0x46), (FIRST_CYCLE + 6, 0x0E, 0),
              (cycle, 0x0E, 0), (cycle + 1, 0x2B, 0)]   # PF1 again, HMCLR
    stella, _, _ = _probes.tia_probe(writes, cut=True, stella_draws=True)
    assert _probes.tia_probe(writes, cut=True)[0] == stella


@pytest.mark.parametrize("seed", range(40))
def test_a_frame_not_drawn_latches_the_collisions_of_one_drawn(seed):
    """Undrawn frames latch collisions by 64-pixel windows (latch_span_collisions), drawn ones by
    the 32-pixel words they draw: after every write, the latches agree. Objects are cleared often
    (CXCLR, zero graphics) so that the latches keep changing. Colour writes leave an undrawn
    frame's drawing owed (NOT_DRAWN_IN), so with them the latches agree where the frame ends."""
    rng = np.random.default_rng(1000 + seed)
    writes = []
    for cycle, addr, value in random_writes(seed, tail_deferred=0, repeats=0):
        writes.append((cycle, addr, value))
        if rng.random() < 0.3:
            writes.append((cycle, CXCLR, 0))
        if rng.random() < 0.2:
            writes.append((cycle, int(rng.choice(ENABLES)), 0))
    writes.append((LAST_CYCLE + 76, VSYNC, 0))
    colourless = [w for w in writes if w[1] not in COLOURS]
    _, drawn, _ = _probes.tia_probe(colourless, cut=False, draw=True)
    _, undrawn, _ = _probes.tia_probe(colourless, cut=False, draw=False)
    new_latches = sum(1 for before, after in zip(drawn, drawn[1:]) if after & ~before)
    assert new_latches >= 10, "the writes should set latches again and again"
    assert undrawn == drawn
    assert len(colourless) < len(writes) - 10
    assert _probes.tia_probe(writes, cut=False, draw=False)[1][-1] == \
        _probes.tia_probe(writes, cut=False, draw=True)[1][-1] == drawn[-1]
