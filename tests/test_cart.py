"""Bank switching of each cartridge scheme, on synthetic images whose every byte tells which
bank (or slice) it came from."""
import pytest

from cule import _cpu, _probes
from cule.games import GAMES, SCHEMES


def tagged_image(size: int, unit: int) -> bytes:
    """Byte at offset o holds o // unit: the bank (or slice) number."""
    return bytes(o // unit for o in range(size))


def reads(scheme: str, image: bytes, accesses) -> list[int]:
    return _probes.cart_probe(SCHEMES[scheme], image, accesses)


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


@pytest.mark.parametrize("scheme, size", [("F8", 4096), ("F6", 8192), ("E0", 16384)])
def test_wrong_image_size_is_refused(scheme, size):
    game = next(g for g in GAMES.values() if g.scheme == scheme)
    with pytest.raises(ValueError, match=f"ROM of scheme {scheme} must hold {game.rom_bytes} bytes, got {size}"):
        _cpu.GameSpec(rom=bytes(size), game=game.index)


def test_unknown_game_index_is_refused():
    n = len(GAMES)
    with pytest.raises(ValueError, match=rf"game index out of range: {n} \(there are {n} games\)"):
        _cpu.GameSpec(rom=bytes(2048), game=len(GAMES))
