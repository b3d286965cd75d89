"""gymnasium registrations. `gymnasium.make_vec("cule/Pong-v5", num_envs=4096)` gives what
`gymnasium.make_vec("ALE/Pong-v5", num_envs=4096)` gives with ale-py (AtariVectorEnv with the v5
settings, numpy arrays on the host), as a CuleEnv (`output="torch"`: tensors on its device).
`gymnasium.make("cule/Pong-v5")` gives one env with ale-py's AtariEnv interface (cule.atari_env),
which gymnasium's own vector envs also build on (`vectorization_mode="sync"` or `"async"`).
ale-py's older ids too: `cule/Pong-v4`, `cule/PongNoFrameskip-v4` and their -v0 ids.
"""
from __future__ import annotations

import gymnasium

from .atari_env import AtariEnvError
from .batches import BatchedEnv, check_batch_size
from .env import CuleEnv
from .games import GAMES

# AtariVectorEnv's defaults, where they differ from CuleEnv's (those of a bare ALEInterface).
ATARI_VECTOR_ENV_DEFAULTS = dict(frameskip=4, full_action_space=False, noop_max=30, grayscale=True, img_height=84,
                                 img_width=84, stack_num=4, maxpool=True, reward_clipping=True,
                                 use_fire_reset=True, max_num_frames_per_episode=108000)

# What ale-py registers for every ALE/<Game>-v5.
V5_SETTINGS = dict(repeat_action_probability=0.25, full_action_space=False, frameskip=4,
                   max_num_frames_per_episode=108000)

# ale-py's older ids, <Game><suffix> with these settings, as cule/<Game><suffix>: one env each, and
# no vector entry point (make_vec builds gymnasium's vector envs of them, as it does of ale-py's).
# -v0 and -v4 skip a number of frames drawn from [2, 5) each step (cule.atari_env draws it as
# ale-py does).
LEGACY_SETTINGS = {
    "-v0": dict(repeat_action_probability=0.25, frameskip=(2, 5)),
    "NoFrameskip-v0": dict(repeat_action_probability=0.25, frameskip=1),
    "-v4": dict(repeat_action_probability=0.0, frameskip=(2, 5)),
    "NoFrameskip-v4": dict(repeat_action_probability=0.0, frameskip=1),
}
# The games ale-py 0.12.1 registers older ids for (the others have -v5 alone).
LEGACY_GAMES = frozenset("""
    adventure air_raid alien amidar assault asterix asteroids atlantis bank_heist battle_zone beam_rider
    berzerk bowling boxing breakout carnival centipede chopper_command crazy_climber defender demon_attack
    double_dunk elevator_action enduro fishing_derby freeway frostbite gopher gravitar hero ice_hockey
    jamesbond journey_escape kangaroo krull kung_fu_master montezuma_revenge ms_pacman name_this_game
    phoenix pitfall pong pooyan private_eye qbert riverraid road_runner robotank seaquest skiing solaris
    space_invaders star_gunner tennis time_pilot tutankham up_n_down venture video_pinball wizard_of_wor
    yars_revenge zaxxon""".split())


def atari_vector_env(game: str, num_envs: int = 1, *, batch_size: int = 0, thread_affinity_offset: int = -1,
                     **options) -> CuleEnv | BatchedEnv:
    """A CuleEnv with AtariVectorEnv's defaults for every option not given. AtariVectorEnv's own
    options are taken with its meaning where cule has it (num_threads=0: one per core;
    batch_size below num_envs: its envs in batches, cule.batches) and refused, naming the value,
    where it has not."""
    batched = check_batch_size(batch_size, num_envs)
    if thread_affinity_offset != -1:
        raise ValueError(f"thread_affinity_offset must be -1: cule does not pin its threads to cores, "
                         f"got {thread_affinity_offset!r}")
    if options.get("num_threads") == 0:
        options["num_threads"] = None
    frameskip = options.get("frameskip", ATARI_VECTOR_ENV_DEFAULTS["frameskip"])
    if type(frameskip) is not int or frameskip <= 0:   # AtariVectorEnv's check, its error type
        raise AtariEnvError(f"frameskip must be a positive int, got {frameskip!r}")
    env = CuleEnv(game, num_envs, **{**ATARI_VECTOR_ENV_DEFAULTS, **options})
    return BatchedEnv(env, batch_size) if batched else env


def make_vec_env(game: str, num_envs: int = 1, output: str = "numpy", **options) -> CuleEnv | BatchedEnv:
    """What `gymnasium.make_vec("cule/<Game>-v5", num_envs)` builds: as make_vec("ALE/<Game>-v5")
    gives, numpy arrays on the host, which gymnasium's vector wrappers take; output="torch" gives
    tensors on the env's device instead (CuleEnv's and atari_vector_env's default)."""
    return atari_vector_env(game, num_envs, output=output, **options)


def register_envs() -> None:
    for game in GAMES.values():
        env_id = f"cule/{game.name}-v5"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="cule.atari_env:CuleAtariEnv",
                               vector_entry_point="cule.registration:make_vec_env",
                               kwargs=dict(game=game.id, **V5_SETTINGS))
        for suffix, settings in LEGACY_SETTINGS.items() if game.id in LEGACY_GAMES else ():
            env_id = f"cule/{game.name}{suffix}"
            if env_id not in gymnasium.registry:
                gymnasium.register(id=env_id, entry_point="cule.atari_env:CuleAtariEnv",
                                   kwargs=dict(game=game.id, full_action_space=False,
                                               max_num_frames_per_episode=108000, **settings))
