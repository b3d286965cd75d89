"""The TIA's deferred drawing (kernels/atari/tia_registers.h, tia_poke).

Stella draws the picture up to the clock of every TIA write. cule leaves that to the next drawing
when the write cannot change the picture (WSYNC, RSYNC, audio, motion values, HMCLR, unused
addresses). These tests write random register sequences into a frame twice: as they are, and with
a draw forced at each deferred write (a COLUBK write of the colour it already holds, which draws
up to its clock and changes nothing), and compare pixels and collision latches. A last test
compares the collisions of a drawn frame with those of a frame not drawn.
"""
import numpy as np
import pytest

from cule import _probes

DEFERRED = [0x02, 0x03, *range(0x15, 0x1B), *range(0x20, 0x25), 0x2B, *range(0x2D, 0x40)]
# Everything else but VSYNC, which could end the frame.
DRAWING = [a for a in range(0x01, 0x2D) if a not in DEFERRED]
VSYNC, VBLANK, COLUBK, CXCLR = 0x00, 0x01, 0x09, 0x2C
ENABLES = [0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x0D, 0x0E, 0x0F]   # GRP0/1, ENAM0/1, ENABL, PF0-2
FIRST_CYCLE, LAST_CYCLE = 34 * 76, (34 + 210) * 76   # the lines shown (ystart 34)


def random_writes(seed: int, tail_deferred: int) -> list[tuple[int, int, int]]:
    """About 800 writes over the shown lines, a third of them deferred, then `tail_deferred`
    deferred writes after the last drawing one."""
    rng = np.random.default_rng(seed)
    writes, cycle = [], FIRST_CYCLE
    while cycle < LAST_CYCLE - 200:
        cycle += int(rng.integers(1, 40))
        pool = DEFERRED if rng.random() < 0.35 else DRAWING
        writes.append((cycle, int(rng.choice(pool)), int(rng.integers(0, 256))))
    # The last drawing writes turn the picture on in a colour, so that the tail shows.
    writes += [(cycle + 3, VBLANK, 0), (cycle + 6, COLUBK, 0x46)]
    cycle += 6
    for _ in range(tail_deferred):
        cycle += int(rng.integers(1, 30))
        writes.append((cycle, int(rng.choice(DEFERRED)), int(rng.integers(0, 256))))
    return writes


def forcing_draws(writes):
    """The same writes with a draw forced at each deferred one, as Stella draws."""
    out, colubk = [], 0
    for cycle, addr, value in writes:
        out.append((cycle, addr, value))
        if addr == COLUBK:
            colubk = value
        if addr in DEFERRED:
            out.append((cycle, COLUBK, colubk))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_deferred_writes_draw_the_same_frame(seed):
    writes = random_writes(seed, tail_deferred=12)
    writes.append((LAST_CYCLE + 76, VSYNC, 0))   # the write that ends the frame draws
    frame, _, collisions = _probes.tia_probe(writes, cut=False)
    forced, _, forced_collisions = _probes.tia_probe(forcing_draws(writes), cut=False)
    pixels = np.frombuffer(frame, np.uint8)
    assert len(np.unique(pixels)) > 8, "the random writes should draw a varied picture"
    np.testing.assert_array_equal(pixels, np.frombuffer(forced, np.uint8))
    assert collisions == forced_collisions


@pytest.mark.parametrize("seed", range(10))
def test_a_frame_cut_short_catches_up_with_deferred_writes(seed):
    """A frame the instruction cap cuts ends where Stella's last write drew, deferred or not."""
    writes = random_writes(seed, tail_deferred=12)
    forced, _, _ = _probes.tia_probe(forcing_draws(writes), cut=True)
    caught_up, _, _ = _probes.tia_probe(writes, cut=True)
    assert caught_up == forced
    behind, _, _ = _probes.tia_probe(writes, cut=False)   # without the catch-up the last line lags
    assert behind != forced


@pytest.mark.parametrize("seed", range(40))
def test_a_frame_not_drawn_latches_the_collisions_of_one_drawn(seed):
    """Undrawn frames latch collisions by 64-pixel windows (latch_span_collisions), drawn ones by
    the 32-pixel words they draw: after every write, the latches agree. Objects are cleared often
    (CXCLR, zero graphics) so that the latches keep changing."""
    rng = np.random.default_rng(1000 + seed)
    writes = []
    for cycle, addr, value in random_writes(seed, tail_deferred=0):
        writes.append((cycle, addr, value))
        if rng.random() < 0.3:
            writes.append((cycle, CXCLR, 0))
        if rng.random() < 0.2:
            writes.append((cycle, int(rng.choice(ENABLES)), 0))
    writes.append((LAST_CYCLE + 76, VSYNC, 0))
    _, drawn, _ = _probes.tia_probe(writes, cut=False, draw=True)
    _, undrawn, _ = _probes.tia_probe(writes, cut=False, draw=False)
    new_latches = sum(1 for before, after in zip(drawn, drawn[1:]) if after & ~before)
    assert new_latches >= 10, "the writes should set latches again and again"
    assert undrawn == drawn
