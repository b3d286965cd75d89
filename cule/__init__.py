"""cule: thousands of Atari 2600 games at once, frame-exact against ale-py 0.12.1."""
from .env import CuleEnv
from .games import GAMES, get_game

__all__ = ["CuleEnv", "GAMES", "get_game"]
__version__ = "0.1.0"
