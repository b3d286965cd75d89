"""cule: thousands of Atari 2600 games at once, frame-exact against ale-py 0.12.1."""
import importlib.machinery
import importlib.util
import os
import sys


def _load_build(name: str, path: str) -> None:
    """Another build of the compiled module cule.<name>, imported in its place."""
    loader = importlib.machinery.ExtensionFileLoader(f"cule.{name}", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(f"cule.{name}", path,
                                                                                    loader=loader))
    loader.exec_module(module)
    sys.modules[f"cule.{name}"] = module
    globals()[name] = module


# CULE_CORE_LIB and CULE_CUDA_HOST_LIB (environment) name other builds of cule._core and
# cule._cuda_host, such as the sanitizer builds of `make test-sanitize`.
for _name, _variable in (("_core", "CULE_CORE_LIB"), ("_cuda_host", "CULE_CUDA_HOST_LIB")):
    if os.environ.get(_variable):
        _load_build(_name, os.environ[_variable])

from .env import CuleEnv
from .games import GAMES, get_game, list_games
from .registration import atari_vector_env, register_envs

register_envs()   # gymnasium.make_vec("cule/Pong-v5", num_envs=...)

__all__ = ["CuleEnv", "GAMES", "atari_vector_env", "get_game", "list_games"]
__version__ = "0.1.0"

# Modules for other libraries, imported when first named (cule.sb3 needs Stable-Baselines3).
_SUBMODULES = ("wrappers", "video", "sb3")


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'cule' has no attribute {name!r}")
