"""Bank switching of each cartridge scheme, on synthetic images whose every byte tells which
bank (or slice) it came from."""
import numpy as np
import pytest

from cule import _core, _probes
from cule.games import GAMES, SCHEMES


def tagged_image(size: int, unit: int) -> bytes:
    """Byte at offset o holds o // unit: the bank (or slice) number."""
    return bytes(o // unit for o in range(size))


def run(scheme: str, image: bytes, accesses, first_draw: int = 0) -> tuple[list[int], dict]:
    """Accesses from power-up and a reset: (kind, address[, value[, system cycle]]). Returns the
    bytes read and the cartridge's state."""
    padded = [(a + (0, 0))[:4] for a in accesses]
    return _probes.cart_probe(SCHEMES[scheme], image, padded, first_draw)


def reads(scheme: str, image: bytes, accesses) -> list[int]:
    return run(scheme, image, accesses)[0]


def test_2k_is_mirrored():
    image = bytes(o & 0xFF for o in range(2048))
    assert reads("2K", image, [("r", 0x1003), ("r", 0x1803), ("r", 0xF7FF)]) == [3, 3, 0xFF]


def test_f8_powers_up_in_bank_1_and_switches_on_reads_and_writes():
    image = tagged_image(8192, 4096)
    assert reads("F8", image, [("r", 0x1000)]) == [1]
    # A read of the hotspot returns the byte of the bank it selects.
    assert reads("F8", image, [("r", 0x1FF8), ("r", 0x1000), ("r", 0xFFF9), ("r", 0x1234)]) == [0, 0, 1, 1]
    assert reads("F8", image, [("w", 0x1FF8), ("r", 0x1ABC), ("w", 0x3FF9), ("r", 0x1ABC)]) == [0, 1]
    assert reads("F8", image, [("r", 0x1FF6), ("r", 0x1FFA), ("r", 0x1000)]) == [1, 1, 1]   # not hotspots


def test_f6_powers_up_in_bank_0_with_four_hotspots():
    image = tagged_image(16384, 4096)
    accesses = [("r", 0x1000)] + [a for bank in (3, 1, 2, 0) for a in (("r", 0x1FF6 + bank), ("r", 0x1800))]
    assert reads("F6", image, accesses) == [0, 3, 3, 1, 1, 2, 2, 0, 0]
    assert reads("F6", image, [("w", 0x1FF9), ("r", 0x1000), ("r", 0x1FF5)]) == [3, 3]


def test_e0_slices_per_segment_and_fixed_last_segment():
    image = tagged_image(8192, 1024)
    # Power-up: segments 0..3 show slices 4, 5, 6, 7.
    assert reads("E0", image, [("r", 0x1000), ("r", 0x1400), ("r", 0x1800), ("r", 0x1C00)]) == [4, 5, 6, 7]
    accesses = [("r", 0x1FE2), ("w", 0x1FEB), ("r", 0x1FF7),
                ("r", 0x1000), ("r", 0x1400), ("r", 0x1800), ("r", 0x1C00)]
    assert reads("E0", image, accesses)[1:] == [7, 2, 3, 7, 7]
    assert reads("E0", image, [("r", 0x1FF8), ("r", 0x1800)]) == [7, 6]   # $FF8 is no hotspot


def test_fe_bank_follows_address_line_13():
    image = tagged_image(8192, 4096)
    assert reads("FE", image, [("r", 0xD000), ("r", 0xF000), ("r", 0x1000), ("r", 0x3000)]) == [1, 0, 1, 0]
    # Runs of reads in one bank, as a program's, come from the bus's window (console.h).
    accesses = [("r", 0xD000), ("r", 0xD123), ("r", 0xFFFF), ("r", 0xF123), ("r", 0xF124), ("r", 0xD124)]
    assert reads("FE", image, accesses) == [1, 1, 0, 0, 0, 1]


@pytest.mark.parametrize("scheme, size", [("F8", 4096), ("F6", 8192), ("E0", 16384), ("F8SC", 8192 + 2048),
                                          ("DPC", 10496)])
def test_wrong_image_size_is_refused(scheme, size):
    game = next(g for g in GAMES.values() if g.scheme == scheme)
    with pytest.raises(ValueError, match=f"ROM of scheme {scheme} must hold {game.rom_bytes} bytes, got {size}"):
        _core.GameSpec(rom=bytes(size), game=game.index)


def test_unknown_game_index_is_refused():
    n = len(GAMES)
    with pytest.raises(ValueError, match=rf"game index out of range: {n} \(there are {n} games\)"):
        _core.GameSpec(rom=bytes(2048), game=n)


# Superchip (F8SC, F6SC): 128 bytes of RAM, written at $000-$07F and read at $080-$0FF.

@pytest.mark.parametrize("scheme", ["F8SC", "F6SC"])
def test_superchip_ram_is_written_at_one_port_and_read_at_the_other(scheme):
    image = tagged_image(8192 if scheme == "F8SC" else 16384, 4096)
    bank = 1 if scheme == "F8SC" else 0   # the start-up banks of F8 and F6
    got, cart = run(scheme, image, [
        ("w", 0x1000, 0x42), ("r", 0x1080),
        ("r", 0x1000),                        # the write port reads as the ROM beneath it
        ("w", 0x1080, 0x99), ("r", 0x1080),   # a write to the read port is lost
        ("w", 0x307F, 0x17), ("r", 0xF0FF),   # the last byte, through mirrors of the cartridge
        ("r", 0x1100),                        # ROM again
    ])
    assert got == [0x42, bank, 0x42, 0x17, bank]
    assert cart["ram"][0] == 0x42 and cart["ram"][0x7F] == 0x17 and cart["bank"] == bank


@pytest.mark.parametrize("scheme, hotspots", [("F8SC", (0x1FF8, 0x1FF9)), ("F6SC", (0x1FF6, 0x1FF7, 0x1FF8, 0x1FF9))])
def test_superchip_banks_switch_as_plain_f8_and_f6_and_keep_the_ram(scheme, hotspots):
    image = tagged_image(4096 * len(hotspots), 4096)
    for bank, hotspot in reversed(list(enumerate(hotspots))):
        got, cart = run(scheme, image, [("w", 0x1010, 0x5A), ("r", hotspot), ("r", 0x1800), ("r", 0x1090)])
        assert got == [bank, bank, 0x5A]
        got, cart = run(scheme, image, [("w", hotspot), ("r", 0x1800), ("r", 0x1000)])
        assert got == [bank, bank] and cart["bank"] == bank


def test_superchip_ram_takes_128_draws_at_every_reset():
    image = tagged_image(8192, 4096)
    # Power-up then a reset: draws 1000..1127; each later reset takes the next 128.
    _, cart = run("F8SC", image, [("w", 0x1000, 0x42)], first_draw=1000)
    assert cart["ram"] == bytes([0x42]) + bytes((1000 + i) & 0xFF for i in range(1, 128))
    _, cart = run("F8SC", image, [("w", 0x1000, 0x42), ("x", 0), ("x", 0)], first_draw=1000)
    assert cart["ram"] == bytes((1256 + i) & 0xFF for i in range(128))


@pytest.mark.parametrize("scheme, draws", [("F8", 1), ("F8SC", 129), ("F6SC", 129), ("DPC", 1)])
def test_a_system_reset_draws_for_the_riot_then_the_superchip(scheme, draws):
    game_bytes = {"F8": 8192, "F8SC": 8192, "F6SC": 16384, "DPC": 10495}[scheme]
    timer, cart, n = _probes.reset_probe(SCHEMES[scheme], tagged_image(game_bytes, 4096), 1000)
    assert (timer, n) == (25 + 1000 % 75, draws)   # the RIOT's timer takes the first draw
    if draws > 1:
        assert cart["ram"] == bytes((1001 + i) & 0xFF for i in range(128))


def test_superchip_ram_after_power_on_is_the_system_generators():
    """ALE's power-on: 128 draws for the RIOT's RAM, one for its timer, then two system resets
    of one RIOT draw and 128 Superchip draws each: the RAM holds draws 259..386."""
    game = GAMES["elevator_action"]
    console = _core.Console(_core.GameSpec(rom=bytes(tagged_image(8192, 4096)), game=game.index))
    console.power_on()
    draws = np.random.RandomState(4753849).randint(0, 2**32, size=387, dtype=np.uint64)
    assert console.cart()["ram"] == bytes(int(d) & 0xFF for d in draws[259:387])


# DPC (Pitfall II): program in two F8 banks, then the 2 KiB display ROM the fetchers read.

def dpc_image() -> bytes:
    """Program bytes tell their bank; display byte k is k & 0xFF; then 255 bytes never read."""
    return tagged_image(8192, 4096) + bytes(k & 0xFF for k in range(2048)) + bytes(range(255))


def fetcher(i: int, top: int, bottom: int, counter: int) -> list:
    """The register writes that set fetcher i: top (which clears the flag), bottom, counter."""
    return [("w", 0x1040 + i, top), ("w", 0x1048 + i, bottom), ("w", 0x1050 + i, counter & 0xFF),
            ("w", 0x1058 + i, counter >> 8)]


def test_dpc_fetcher_counts_down_through_the_display_rom_with_its_flag():
    # Counter 7, top 5, bottom 2: each read gives display[2047 - counter], then counts down; the
    # flag rises when the counter's low byte meets top and falls when it meets bottom.
    counters = [7, 6, 5, 4, 3, 2, 1]
    display = [(2047 - c) & 0xFF for c in counters]   # F8 F9 FA FB FC FD FE
    flags = [0, 0, 0xFF, 0xFF, 0xFF, 0, 0]
    got, cart = run("DPC", dpc_image(), fetcher(1, 5, 2, 7) + [("r", 0x1009)] * 7)
    assert got == display and cart["counter"][1] == 0 and cart["flag"][1] == 0
    got, _ = run("DPC", dpc_image(), fetcher(1, 5, 2, 7) + [("r", 0x1011)] * 7)   # masked by the flag
    assert got == [d & f for d, f in zip(display, flags)] == [0, 0, 0xFA, 0xFB, 0xFC, 0, 0]
    got, _ = run("DPC", dpc_image(), fetcher(1, 5, 2, 7) + [("r", 0x1039)] * 7)   # the flag itself
    assert got == flags


def test_dpc_counter_wraps_at_11_bits_and_other_functions_read_0():
    got, cart = run("DPC", dpc_image(), fetcher(3, 0x80, 0x90, 0x001) + [("r", 0x101B)] * 3)
    assert got == [0, 0, 0] and cart["counter"][3] == 0x7FE   # function 3 reads 0, still counts
    got, cart = run("DPC", dpc_image(), fetcher(2, 0x80, 0x90, 0x000) + [("r", 0x100A), ("r", 0x100A)])
    assert got == [2047 & 0xFF, (2047 - 0x7FF) & 0xFF] and cart["counter"][2] == 0x7FE


def test_dpc_writes_to_the_read_registers_change_nothing_and_the_rest_reads_program():
    _, before = run("DPC", dpc_image(), fetcher(0, 9, 3, 0x123))
    got, after = run("DPC", dpc_image(), fetcher(0, 9, 3, 0x123) + [("w", 0x1000 + o, 0xFF) for o in range(0x40)] +
                     [("r", 0x1040), ("r", 0x107F), ("r", 0x1FF8), ("r", 0x1080), ("r", 0x1FF9), ("r", 0x1FBF)])
    assert got == [1, 1, 0, 0, 1, 1]   # $040-$07F read as program; $FF8/$FF9 switch banks
    assert {k: v for k, v in after.items() if k not in ("random", "bank")} == \
        {k: v for k, v in before.items() if k not in ("random", "bank")}


# The random register from 1: shift left, bringing in NOT(bit 7 ^ bit 5 ^ bit 4 ^ bit 3).
DPC_RANDOM = [0x03, 0x07, 0x0F, 0x1E, 0x3D, 0x7A, 0xF4, 0xE8]


def test_dpc_random_register_sequence_and_reset():
    got, _ = run("DPC", dpc_image(), [("r", 0x1000 + i % 4) for i in range(8)])
    assert got == DPC_RANDOM
    got, _ = run("DPC", dpc_image(), [("r", 0x1000), ("r", 0x1000), ("w", 0x1073, 0x55), ("r", 0x1000)])
    assert got == [0x03, 0x07, 0x03]   # any write to $070-$077 sets it to 1


def test_dpc_random_register_clocks_at_each_access_the_chip_sees():
    accesses = [("r", 0x1000),
                ("r", 0x1080), ("r", 0x1500), ("r", 0x1FBF),   # program, read directly: no clock
                ("r", 0x1FC0), ("r", 0x1FFC),                   # the hotspot page: one each
                ("w", 0x1500, 0), ("w", 0x1000, 0),              # every write: one each
                ("r", 0x1044),                                  # $040-$07F reads: one
                ("x", 0),                                       # a reset leaves it as it is
                ("r", 0x1001)]
    got, cart = run("DPC", dpc_image(), accesses)
    assert got[0] == DPC_RANDOM[0] and got[-1] == DPC_RANDOM[6] and cart["random"] == DPC_RANDOM[6]


def test_dpc_console_reset_reads_the_vector_through_the_chip():
    # The two reads of the reset vector at $FFFC-$FFFD are in the hotspot page.
    _, cart, _ = _probes.reset_probe(SCHEMES["DPC"], dpc_image(), 0)
    assert cart["random"] == DPC_RANDOM[1] and cart["bank"] == 1


def music_fetchers(music: tuple[bool, bool, bool]) -> list:
    """Fetchers 5-7 at top 9, bottom 4, in music mode or not; the counter's low byte is loaded
    after music mode is on, so that it comes from top."""
    out = []
    for k, on in enumerate(music):
        i = 5 + k
        out += [("w", 0x1040 + i, 9), ("w", 0x1048 + i, 4), ("w", 0x1058 + i, 0x10 if on else 0),
                ("w", 0x1050 + i, 9 if not on else 0x33)]
    return out


def test_dpc_music_amplitude_weighs_the_three_voices():
    # At cycle 0 no oscillator clock has passed: each read only raises its own fetcher's flag
    # (counter low byte == top). The voices weigh 4, 5 and 6.
    amplitude_reads = [("r", 0x1005), ("r", 0x1006), ("r", 0x1007)]
    assert reads("DPC", dpc_image(), music_fetchers((True, True, True)) + amplitude_reads) == [4, 9, 15]
    assert reads("DPC", dpc_image(), music_fetchers((True, False, True)) + amplitude_reads) == [4, 4, 10]
    got, cart = run("DPC", dpc_image(), music_fetchers((False, True, False)) + amplitude_reads)
    assert got == [0, 5, 5] and cart["counter"][5] == 8 and cart["counter"][6] == 9   # music does not count reads


def test_dpc_music_clock_from_system_cycles():
    """The oscillator runs 15750 / 1193191.66666667 clocks per CPU cycle, in doubles, keeping
    the fraction. Fetcher 5 (top 9, bottom 4) at counter 9:
    - read at cycle 1000: 13.19989... clocks, 13 whole: 9 - 13 % 10 = 6, above bottom: flag up,
      amplitude 4; 0.19989... carried;
    - read at cycle 1500: 500 cycles, 6.59994... + 0.19989... = 6.79983..., 6 whole: 6 - 6 = 0,
      at or below bottom: flag down, amplitude 0."""
    music = music_fetchers((True, False, False))
    got, cart = run("DPC", dpc_image(), music + [("r", 0x1005, 0, 1000)])
    assert got == [4] and cart["counter"][5] == 6 and cart["music_cycles"] == 1000
    assert cart["music_fraction"] == 15750.0 * 1000 / 1193191.66666667 - 13
    got, cart = run("DPC", dpc_image(), music + [("r", 0x1005, 0, 1000), ("r", 0x1005, 0, 1500)])
    assert got == [4, 0] and cart["counter"][5] == 0 and cart["flag"][5] == 0
    # A new frame restarts the cycle count (here at cycle 1200): the oscillator counts on.
    got, cart = run("DPC", dpc_image(), music + [("r", 0x1005, 0, 1000), ("c", 0, 0, 1200), ("r", 0x1005, 0, 300)])
    assert got == [4, 0] and cart["counter"][5] == 0 and cart["music_cycles"] == 300
    # A reset restarts the oscillator at the reset's cycle 0 and drops the fraction.
    _, cart = run("DPC", dpc_image(), music + [("r", 0x1005, 0, 1000), ("x", 0, 0, 1200)])
    assert (cart["music_cycles"], cart["music_fraction"], cart["counter"][5]) == (0, 0.0, 6)
