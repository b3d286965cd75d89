"""The RIOT (6532) through the console's bus: RAM, the interval timer and the ports, against the
M6532 of ALE's Stella copy (src/ale/emucore/M6532.cxx, Stella 2.4), whose semantics games see:
- the chip answers where A12 = 0 and A7 = 1; A9 = 0 selects the 128 bytes of RAM, so the RAM is
  also at $0180-$01FF, the stack;
- writes to TIM1T, TIM8T, TIM64T, T1024T ((A & $17) = $14 to $17) set the timer to V with an
  interval of 1, 8, 64 or 1024 cycles; a read of INTIM at cycle C, from a timer set at cycle S,
  gives V - 1 - (C - 1 - S) / interval (so V - 1 from the very next cycle on);
- reset sets the timer to 25 + (a random draw) % 75 with the 64-cycle interval;
- past zero, INTIM counts once per cycle, $FF first, and TIMINT reads $80; the first read of
  INTIM from the second cycle past zero on (Stella's "read after interrupt") sends the count back
  to once per interval, from a value that is the per-cycle count less the whole intervals since
  zero, and clears TIMINT to $00 until the timer is written again;
- SWCHA and SWCHB read the joystick and switch pins whatever SWACNT says; SWACNT reads back what
  was written; writes to SWCHA reach no joystick (Joystick::write does nothing), writes to SWCHB
  and SWBCNT are dropped (SWBCNT reads $00), and so are the edge-detect writes (A2 = 1, A4 = 0).
"""
import pytest

from cule import _probes

SWCHA, SWACNT, SWCHB, SWBCNT = 0x280, 0x281, 0x282, 0x283
INTIM, TIMINT = 0x284, 0x285
TIMERS = {0x294: 1, 0x295: 8, 0x296: 64, 0x297: 1024}   # TIM1T, TIM8T, TIM64T, T1024T
TIM8T, TIM64T = 0x295, 0x296


def read(cycle: int, address: int):
    return (cycle, "r", address, 0)


def write(cycle: int, address: int, value: int):
    return (cycle, "w", address, value)


def restart(cycle: int):
    """The cycle count restarts at 0 at `cycle`, as at the start of a frame."""
    return (cycle, "c", 0, 0)


def riot(*accesses, **options) -> list[int]:
    return _probes.riot_probe(list(accesses), **options)


def test_ram_holds_128_bytes_also_seen_at_the_stack_page():
    writes = [write(0, 0x80 + i, (7 * i + 3) & 0xFF) for i in range(128)]
    stored = [(7 * i + 3) & 0xFF for i in range(128)]
    for mirror in (0x0080, 0x0180, 0x0480, 0x0D80):   # A8, A10 and A11 are not decoded
        assert riot(*writes, *[read(1, mirror + i) for i in range(128)]) == stored, hex(mirror)


def test_registers_are_not_ram():
    reads = riot(write(0, 0x81, 0x12), write(1, SWACNT, 0x55), read(2, 0x81), read(3, 0x181))
    assert reads == [0x12, 0x12]


@pytest.mark.parametrize("address, interval", TIMERS.items(), ids=["TIM1T", "TIM8T", "TIM64T", "T1024T"])
def test_timer_counts_down_once_per_interval(address, interval):
    for written_at in (address, address | 0x128):   # A3, A5 and A8 are not decoded
        later = 1001 + 3 * interval
        reads = riot(write(1000, written_at, 10),
                     read(1001, INTIM), read(1000 + interval, INTIM), read(1001 + interval, INTIM),
                     read(later, INTIM), read(later, 0x286), read(1002, TIMINT))
        assert reads == [9, 9, 8, 6, 6, 0], hex(written_at)


@pytest.mark.parametrize("draw, start", [(0, 25), (74, 99), (80, 30)])
def test_power_up_timer_is_25_to_99_at_64_cycles(draw, start):
    reads = riot(read(1, INTIM), read(64, INTIM), read(65, INTIM), random_draw=draw)
    assert reads == [start - 1, start - 1, start - 2]


def test_underflow_counts_per_cycle_until_intim_is_read():
    # TIM8T = 2 at cycle 0: 1 for cycles 1-8, 0 for 9-16, past zero from 17.
    reads = riot(write(0, TIM8T, 2),
                 read(9, INTIM), read(16, INTIM), read(16, TIMINT),
                 read(17, INTIM), read(17, TIMINT),   # $FF: one cycle past zero, no reset yet
                 read(18, TIMINT),
                 read(18, INTIM), read(18, TIMINT),   # the read after the interrupt
                 read(24, INTIM), read(25, INTIM), read(33, INTIM))   # once per interval again
    assert reads == [0, 0, 0x00, 0xFF, 0x80, 0x80, 0xFE, 0x00, 0xFE, 0xFD, 0xFC]


def test_late_first_read_after_underflow_subtracts_the_intervals_since_zero():
    # Past zero from cycle 17: at cycle 40 the per-cycle count is $E8, two whole intervals of 8
    # after zero, and Stella's first read gives $E8 - 2; then it counts on per interval.
    reads = riot(write(0, TIM8T, 2), read(30, TIMINT), read(30, TIMINT),
                 read(40, INTIM), read(40, TIMINT), read(48, INTIM), read(49, INTIM))
    assert reads == [0x80, 0x80, 0xE6, 0x00, 0xE5, 0xE4]


def test_writing_the_timer_rearms_the_interrupt_flag():
    reads = riot(write(0, TIM8T, 2), read(20, INTIM), read(20, TIMINT),
                 write(100, TIM64T, 1), read(101, INTIM), read(101, TIMINT), read(166, TIMINT))
    assert reads == [0xFC, 0x00, 0, 0x00, 0x80]


def test_edge_detect_and_port_b_writes_leave_the_timer_alone():
    reads = riot(write(0, TIM64T, 10), write(1, 0x284, 0), write(2, 0x287, 0xFF),
                 write(3, SWCHB, 0), write(4, SWBCNT, 0xFF), read(65, INTIM), read(66, SWBCNT))
    assert reads == [8, 0x00]


def test_ports_read_the_pins_whatever_the_data_direction():
    reads = riot(read(0, SWCHA), write(1, SWACNT, 0xFF), read(2, SWACNT), write(3, SWCHA, 0x00),
                 read(4, SWCHA), read(5, SWCHB), write(6, SWCHB, 0x00), read(7, SWCHB),
                 swcha=0x5A, swchb=0x0B)
    assert reads == [0x5A, 0xFF, 0x5A, 0x0B, 0x0B]


def test_cycle_count_restart_keeps_the_timer():
    """A frame restarts the cycle count: the timer's stamps move with it, past zero too."""
    def timer_reads(offset: int, *start):
        return riot(*start, read(1105 - offset, INTIM), read(1105 - offset, TIMINT),
                    read(1300 - offset, INTIM), read(1300 - offset, TIMINT))

    for setup in ([write(1000, TIM64T, 10)],                      # running
                  [write(1000, 0x294, 2), read(1050, INTIM)]):     # past zero, read after it
        assert timer_reads(1100, *setup, restart(1100)) == timer_reads(0, *setup)
