"""cule: thousands of Atari 2600 games at once, frame-exact against ale-py 0.12.1."""
from .env import CuleEnv
from .games import GAMES, get_game, list_games
from .registration import atari_vector_env, register_envs

register_envs()   # gymnasium.make_vec("cule/Pong-v5", num_envs=...)

__all__ = ["CuleEnv", "GAMES", "atari_vector_env", "get_game", "list_games"]
__version__ = "0.1.0"
