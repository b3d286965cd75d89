"""The Atari-57 catalogue: for each game, the exact ROM (md5), how the cartridge and controllers
are wired (Stella's properties), ALE's action sets, modes and reset recipe.

Facts from ale-py 0.12.1 and ALE's sources; tests/test_games_catalogue.py checks them against
ale-py. `index` is the game's id in kernels/ale/games.h.
"""
from __future__ import annotations

from dataclasses import dataclass


ALL_ACTIONS = tuple(range(18))
# Cartridge schemes kernels/atari/cart.h emulates, by their id there (CartScheme).
SCHEMES = {"2K": 0, "4K": 1, "F8": 2, "F6": 3, "E0": 4, "FE": 5}
ACTION_NAMES = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
                "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
                "DOWNLEFTFIRE")


@dataclass(frozen=True)
class ModeSelect:
    """How ALE's setMode reaches a mode: press SELECT (`select_frames` frames at a time) until
    RAM[ram] equals mode + offset, then a soft reset. Some games first play NOOP frames
    (`noops_first`), soft-reset, or press SELECT once (`select_first` frames) before looking."""

    ram: int
    select_frames: int
    offset: int = 0
    noops_first: int = 0
    soft_reset_first: bool = False
    select_first: int = 0

    def target(self, mode: int) -> int:
        return mode + self.offset


@dataclass(frozen=True)
class Game:
    id: str                    # ALE's id, e.g. "ms_pacman"
    name: str                  # the v5 name, e.g. "MsPacman"
    index: int                 # GameId in kernels/ale/games.h
    md5: str
    rom_bytes: int
    scheme: str                # bank-switching scheme
    ystart: int                # first scanline of the 210 ALE shows
    hmove_blanks: bool         # HMOVE blanks the first 8 pixels of a line
    left: str                  # controller in the left port: JOYSTICK or PADDLES
    right: str
    swap_ports: bool
    swap_paddles: bool
    power_on_difficulty_a: tuple[bool, bool]   # (left, right) switches before ALE sets them
    minimal_actions: tuple[int, ...]
    legal_actions: tuple[int, ...]             # others become NOOP
    modes: tuple[int, ...]
    difficulties: tuple[int, ...]
    starting_actions: tuple[int, ...]          # played once after each reset
    mode_select: ModeSelect | None
    lives_at_start: int

    @property
    def default_mode(self) -> int:
        return self.modes[0]

    @property
    def default_difficulty(self) -> int:
        return 0


_CATALOGUE = (
    Game("alien", "Alien", 0, "f1a0a23e6464d954e3a9579c4ccd01c8", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x81, select_frames=1), lives_at_start=3),
    Game("amidar", "Amidar", 1, "acb7750b4d0c4bd34969802a7deb2990", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="NONE",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(True, True),
         minimal_actions=(0, 1, 2, 3, 4, 5, 10, 11, 12, 13), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 3), starting_actions=(),
         mode_select=None, lives_at_start=0),
    Game("assault", "Assault", 2, "de78b3a064d374390ac0710f95edde92", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 11, 12), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("asterix", "Asterix", 3, "89a68746eff7f266bbf08de2483abe55", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5, 6, 7, 8, 9), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(1,),
         mode_select=None, lives_at_start=3),
    Game("asteroids", "Asteroids", 4, "ccbd36746ed4525821a8083b0d6d2c2c", 8192, "F8", ystart=34,
         hmove_blanks=False, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 128),
         difficulties=(0, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=2), lives_at_start=4),
    Game("atlantis", "Atlantis", 5, "9ad36e699ef6f45d9eb6c4cf90475c9f", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x8d, select_frames=2), lives_at_start=6),
    Game("bank_heist", "BankHeist", 6, "00ce0bdd43aed84a983bef38fe7f5ee3", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 4, 8, 12, 16, 20, 24, 28),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=1), lives_at_start=4),
    Game("battle_zone", "BattleZone", 7, "41f252a66c6301f1e8ab3612c19bc5d4", 8192, "F8", ystart=34,
         hmove_blanks=False, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(1, 2, 3),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0xa1, select_frames=2), lives_at_start=5),
    Game("beam_rider", "BeamRider", 8, "79ab4123a83dc11d468fb2108ea09e2e", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 6, 7, 11, 12), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1), starting_actions=(3,),
         mode_select=None, lives_at_start=3),
    Game("berzerk", "Berzerk", 9, "136f75c4dd02c29283752b7e5799f978", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=2, noops_first=20), lives_at_start=3),
    Game("bowling", "Bowling", 10, "c9b7afad3bfd922e006a6bfc1d4f3fe7", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 5, 10, 13), legal_actions=ALL_ACTIONS, modes=(0, 2, 4),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0x02, select_frames=2), lives_at_start=0),
    Game("boxing", "Boxing", 11, "c3ef5c4653212088eda54dc91d787870", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=None, lives_at_start=0),
    Game("breakout", "Breakout", 12, "f34f08e5eb96e500e851a80be3277a56", 2048, "2K", ystart=34,
         hmove_blanks=True, left="PADDLES", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4), legal_actions=ALL_ACTIONS, modes=(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xb2, select_frames=1), lives_at_start=5),
    Game("centipede", "Centipede", 13, "91c2098e88a6b13f977af8c003e0bca5", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(22, 86),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0xa7, select_frames=2), lives_at_start=3),
    Game("chopper_command", "ChopperCommand", 14, "c1cb228470a87beb5f36e90ac745da26", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xe0, select_frames=2), lives_at_start=3),
    Game("crazy_climber", "CrazyClimber", 15, "55ef7b65066428367844342ed59f956c", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5, 6, 7, 8, 9), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=2), lives_at_start=5),
    Game("defender", "Defender", 16, "0f643c34e40e3f1daafd9c524d3ffe64", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(1, 2, 3, 4, 5, 6, 7, 8, 9, 16),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0x9b, select_frames=2), lives_at_start=3),
    Game("demon_attack", "DemonAttack", 17, "f0e0addc07971561ab80d9abe1b8d333", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 11, 12), legal_actions=ALL_ACTIONS, modes=(1, 3, 5, 7),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xea, select_frames=1), lives_at_start=1),
    Game("double_dunk", "DoubleDunk", 18, "368d88a6c071caba60b4f778615aae94", 16384, "F6", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
         difficulties=(0,), starting_actions=(10,),
         mode_select=None, lives_at_start=0),
    Game("enduro", "Enduro", 19, "94b92a882f6dbaa6993a46e2dcc58402", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 5, 8, 9, 11, 12), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(1,),
         mode_select=None, lives_at_start=0),
    Game("fishing_derby", "FishingDerby", 20, "b8865f05676e64f3bec72b9defdacfa7", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=None, lives_at_start=0),
    Game("freeway", "Freeway", 21, "8e0ab801b1705a740b476b7f588c6d16", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 5), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4, 5, 6, 7),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=1), lives_at_start=0),
    Game("frostbite", "Frostbite", 22, "4ca73eb959299471788f0b685c3ba0b5", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=1), lives_at_start=4),
    Game("gopher", "Gopher", 23, "c16c79aad6272baffb8aae9a7fff0864", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 10, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1), starting_actions=(1,),
         mode_select=ModeSelect(ram=0xd3, select_frames=5, soft_reset_first=True), lives_at_start=3),
    Game("gravitar", "Gravitar", 24, "8ac18076d01a6b63acf6e2cab4968940", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4),
         difficulties=(0,), starting_actions=(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
         mode_select=ModeSelect(ram=0x80, select_frames=10), lives_at_start=6),
    Game("hero", "Hero", 25, "fca4a5be1251927027f2c24774a02160", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=1), lives_at_start=4),
    Game("ice_hockey", "IceHockey", 26, "a4c08c4994eb9d24fb78be1793e82e26", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=2), lives_at_start=0),
    Game("jamesbond", "Jamesbond", 27, "e51030251e440cffaab1ac63438b44ae", 8192, "E0", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x8c, select_frames=20), lives_at_start=6),
    Game("kangaroo", "Kangaroo", 28, "4326edb70ff20d0ee5ba58fa5cb09d60", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0xba, select_frames=2), lives_at_start=3),
    Game("krull", "Krull", 29, "4baada22435320d185c95b7dd2bcdb24", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=3),
    Game("kung_fu_master", "KungFuMaster", 30, "5b92a93b23523ff16e2789b820e2a4c5", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 15, 16, 17), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("montezuma_revenge", "MontezumaRevenge", 31, "3347a6dd59049b15a38394aa2dafa585", 8192, "E0", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=6),
    Game("ms_pacman", "MsPacman", 32, "87e79cd41ce136fd4f72cc6e2c161bee", 8192, "F8", ystart=34,
         hmove_blanks=False, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5, 6, 7, 8, 9), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=3),
    Game("name_this_game", "NameThisGame", 33, "36306070f0c90a72461551a7a4f3a209", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 11, 12), legal_actions=ALL_ACTIONS, modes=(8, 24, 40),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xde, select_frames=2), lives_at_start=3),
    Game("phoenix", "Phoenix", 34, "7e52a95074a66640fcfde124fffd491a", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 5, 11, 12, 13), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=5),
    Game("pitfall", "Pitfall", 35, "3e90cf23106f2e08b2781e41299de556", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(2,),
         mode_select=None, lives_at_start=3),
    Game("pong", "Pong", 36, "60e0ea3cbe0913d39803477945e9e5ec", 2048, "2K", ystart=34,
         hmove_blanks=True, left="PADDLES", right="PADDLES",
         swap_ports=False, swap_paddles=True, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 1),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x96, select_frames=2), lives_at_start=0),
    Game("private_eye", "PrivateEye", 37, "ef3a4f64b6494ba770862768caf04b86", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4),
         difficulties=(0, 1, 2, 3), starting_actions=(2,),
         mode_select=ModeSelect(ram=0x80, select_frames=2), lives_at_start=0),
    Game("qbert", "Qbert", 38, "484b0076816a104875e00467d431c2d2", 4096, "4K", ystart=40,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 5), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("riverraid", "Riverraid", 39, "393948436d1f4cc3192410bb918f9724", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("road_runner", "RoadRunner", 40, "ce5cc62608be2cd3ed8abd844efb8919", 16384, "F6", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=3),
    Game("robotank", "Robotank", 41, "4f618c2429138e0280969193ed6c107e", 8192, "FE", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("seaquest", "Seaquest", 42, "240bfbac5163af4df5ae713985386f92", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("skiing", "Skiing", 43, "b76fbadc8ffb1f83e2ca08b6fb4d6c9f", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 3, 4), legal_actions=(0, 2, 3, 4, 5, 6, 7, 8, 9), modes=(0,),
         difficulties=(0,), starting_actions=(5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5),
         mode_select=None, lives_at_start=0),
    Game("solaris", "Solaris", 44, "e72eb8d4410152bdcb69e7fba327b420", 16384, "F6", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0,), starting_actions=(),
         mode_select=None, lives_at_start=3),
    Game("space_invaders", "SpaceInvaders", 45, "72ffbef6504b75e69ee1045af9075f66", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 3, 4, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xdc, select_frames=2), lives_at_start=3),
    Game("star_gunner", "StarGunner", 46, "a3c1c70024d7aabb41381adbfb6d3b25", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 1, 2, 3),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0xf4, select_frames=15), lives_at_start=5),
    Game("surround", "Surround", 47, "4d7517ae69f95cfbc053be01312b7dba", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=True, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5), legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0xf9, select_frames=2, offset=1), lives_at_start=1),
    Game("tennis", "Tennis", 48, "42cdd6a9e42a3639e190722b8ea3fc51", 2048, "2K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=ModeSelect(ram=0x80, select_frames=2), lives_at_start=0),
    Game("time_pilot", "TimePilot", 49, "fc2104dd2dadf9a6176c1c1c8f87ced9", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 5, 10, 11, 12, 13), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1, 2), starting_actions=(),
         mode_select=None, lives_at_start=5),
    Game("tutankham", "Tutankham", 50, "085322bae40d904f53bdcc56df0593fc", 8192, "E0", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 2, 3, 4, 5, 10, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 4, 8, 12),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0xab, select_frames=2), lives_at_start=3),
    Game("up_n_down", "UpNDown", 51, "a499d720e7ee35c62424de882a3351b6", 8192, "F8", ystart=30,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 5, 10, 13), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1, 2, 3), starting_actions=(1,),
         mode_select=None, lives_at_start=5),
    Game("venture", "Venture", 52, "3e899eba0ca8cd2972da1ae5479b4f0d", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1, 2, 3), starting_actions=(),
         mode_select=None, lives_at_start=4),
    Game("video_pinball", "VideoPinball", 53, "107cc025334211e6d29da0b6be46aec7", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 5, 10, 11, 12), legal_actions=ALL_ACTIONS, modes=(0, 2),
         difficulties=(0, 1), starting_actions=(),
         mode_select=ModeSelect(ram=0xc1, select_frames=2), lives_at_start=3),
    Game("wizard_of_wor", "WizardOfWor", 54, "7e8aa18bc9502eb57daaf5e7c1e94da7", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=True, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=(0, 1, 2, 3, 4, 5, 10, 11, 12, 13), legal_actions=ALL_ACTIONS, modes=(0,),
         difficulties=(0, 1), starting_actions=(),
         mode_select=None, lives_at_start=3),
    Game("yars_revenge", "YarsRevenge", 55, "c5930d0e8cdae3e037349bfa08e871be", 4096, "4K", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 32, 64, 96),
         difficulties=(0, 1), starting_actions=(1,),
         mode_select=ModeSelect(ram=0xe3, select_frames=1, select_first=2), lives_at_start=4),
    Game("zaxxon", "Zaxxon", 56, "eea0da9b987d661264cce69a7c13c3bd", 8192, "F8", ystart=34,
         hmove_blanks=True, left="JOYSTICK", right="JOYSTICK",
         swap_ports=False, swap_paddles=False, power_on_difficulty_a=(False, False),
         minimal_actions=ALL_ACTIONS, legal_actions=ALL_ACTIONS, modes=(0, 8, 16, 24),
         difficulties=(0,), starting_actions=(),
         mode_select=ModeSelect(ram=0x82, select_frames=10), lives_at_start=5),
)

GAMES: dict[str, Game] = {g.id: g for g in _CATALOGUE}
_BY_NAME = {g.name: g for g in _CATALOGUE}


def get_game(name: str) -> Game:
    """Looks a game up by ALE id ("ms_pacman"), v5 name ("MsPacman") or env id ("ALE/MsPacman-v5")."""
    key = name
    if isinstance(key, str) and "/" in key:
        key = key.split("/", 1)[1].split("-v", 1)[0]
    game = GAMES.get(key) or _BY_NAME.get(key)
    if game is None:
        raise ValueError(f"unknown game {name!r}; cule knows the Atari-57: {', '.join(sorted(GAMES))}")
    return game


def list_games() -> list[str]:
    """The games cule runs: the Atari-57, each checked frame for frame against ale-py (RAM,
    screen, reward, terminal, lives; docs/games.md has the runs)."""
    return sorted(g.id for g in _CATALOGUE)
