// Per-game settings, run after every emulated frame (ALE's RomSettings::step): the score, and
// from it the reward, plus the terminal flag and the lives counter, all read from RAM. They
// run inside the kernels because the GPU computes rewards itself. Each game has its own
// header in games/, one struct with `reset` and `step`.
//
// Games are the Atari-57, in the order of the catalogue (cule/games.py).
#pragma once
#include "types.h"
#include "ale/game_state.h"
#include "ale/games/alien.h"
#include "ale/games/amidar.h"
#include "ale/games/assault.h"
#include "ale/games/asterix.h"
#include "ale/games/asteroids.h"
#include "ale/games/atlantis.h"
#include "ale/games/bank_heist.h"
#include "ale/games/battle_zone.h"
#include "ale/games/beam_rider.h"
#include "ale/games/berzerk.h"
#include "ale/games/bowling.h"
#include "ale/games/boxing.h"
#include "ale/games/breakout.h"
#include "ale/games/centipede.h"
#include "ale/games/chopper_command.h"
#include "ale/games/crazy_climber.h"
#include "ale/games/defender.h"
#include "ale/games/demon_attack.h"
#include "ale/games/double_dunk.h"
#include "ale/games/enduro.h"
#include "ale/games/fishing_derby.h"
#include "ale/games/freeway.h"
#include "ale/games/frostbite.h"
#include "ale/games/gopher.h"
#include "ale/games/gravitar.h"
#include "ale/games/hero.h"
#include "ale/games/ice_hockey.h"
#include "ale/games/jamesbond.h"
#include "ale/games/kangaroo.h"
#include "ale/games/krull.h"
#include "ale/games/kung_fu_master.h"
#include "ale/games/montezuma_revenge.h"
#include "ale/games/ms_pacman.h"
#include "ale/games/name_this_game.h"
#include "ale/games/phoenix.h"
#include "ale/games/pitfall.h"
#include "ale/games/pong.h"
#include "ale/games/private_eye.h"
#include "ale/games/qbert.h"
#include "ale/games/riverraid.h"
#include "ale/games/road_runner.h"
#include "ale/games/robotank.h"
#include "ale/games/seaquest.h"
#include "ale/games/skiing.h"
#include "ale/games/solaris.h"
#include "ale/games/space_invaders.h"
#include "ale/games/star_gunner.h"
#include "ale/games/surround.h"
#include "ale/games/tennis.h"
#include "ale/games/time_pilot.h"
#include "ale/games/tutankham.h"
#include "ale/games/up_n_down.h"
#include "ale/games/venture.h"
#include "ale/games/video_pinball.h"
#include "ale/games/wizard_of_wor.h"
#include "ale/games/yars_revenge.h"
#include "ale/games/zaxxon.h"

namespace cule {

enum GameId {
    GAME_ALIEN = 0,
    GAME_AMIDAR,
    GAME_ASSAULT,
    GAME_ASTERIX,
    GAME_ASTEROIDS,
    GAME_ATLANTIS,
    GAME_BANK_HEIST,
    GAME_BATTLE_ZONE,
    GAME_BEAM_RIDER,
    GAME_BERZERK,
    GAME_BOWLING,
    GAME_BOXING,
    GAME_BREAKOUT,
    GAME_CENTIPEDE,
    GAME_CHOPPER_COMMAND,
    GAME_CRAZY_CLIMBER,
    GAME_DEFENDER,
    GAME_DEMON_ATTACK,
    GAME_DOUBLE_DUNK,
    GAME_ENDURO,
    GAME_FISHING_DERBY,
    GAME_FREEWAY,
    GAME_FROSTBITE,
    GAME_GOPHER,
    GAME_GRAVITAR,
    GAME_HERO,
    GAME_ICE_HOCKEY,
    GAME_JAMESBOND,
    GAME_KANGAROO,
    GAME_KRULL,
    GAME_KUNG_FU_MASTER,
    GAME_MONTEZUMA_REVENGE,
    GAME_MS_PACMAN,
    GAME_NAME_THIS_GAME,
    GAME_PHOENIX,
    GAME_PITFALL,
    GAME_PONG,
    GAME_PRIVATE_EYE,
    GAME_QBERT,
    GAME_RIVERRAID,
    GAME_ROAD_RUNNER,
    GAME_ROBOTANK,
    GAME_SEAQUEST,
    GAME_SKIING,
    GAME_SOLARIS,
    GAME_SPACE_INVADERS,
    GAME_STAR_GUNNER,
    GAME_SURROUND,
    GAME_TENNIS,
    GAME_TIME_PILOT,
    GAME_TUTANKHAM,
    GAME_UP_N_DOWN,
    GAME_VENTURE,
    GAME_VIDEO_PINBALL,
    GAME_WIZARD_OF_WOR,
    GAME_YARS_REVENGE,
    GAME_ZAXXON,
    NUM_GAMES
};

// X(GAME_ID suffix, settings struct) for every game, in GameId order.
#define CULE_FOR_EACH_GAME(X) \
    X(ALIEN, Alien) \
    X(AMIDAR, Amidar) \
    X(ASSAULT, Assault) \
    X(ASTERIX, Asterix) \
    X(ASTEROIDS, Asteroids) \
    X(ATLANTIS, Atlantis) \
    X(BANK_HEIST, BankHeist) \
    X(BATTLE_ZONE, BattleZone) \
    X(BEAM_RIDER, BeamRider) \
    X(BERZERK, Berzerk) \
    X(BOWLING, Bowling) \
    X(BOXING, Boxing) \
    X(BREAKOUT, Breakout) \
    X(CENTIPEDE, Centipede) \
    X(CHOPPER_COMMAND, ChopperCommand) \
    X(CRAZY_CLIMBER, CrazyClimber) \
    X(DEFENDER, Defender) \
    X(DEMON_ATTACK, DemonAttack) \
    X(DOUBLE_DUNK, DoubleDunk) \
    X(ENDURO, Enduro) \
    X(FISHING_DERBY, FishingDerby) \
    X(FREEWAY, Freeway) \
    X(FROSTBITE, Frostbite) \
    X(GOPHER, Gopher) \
    X(GRAVITAR, Gravitar) \
    X(HERO, Hero) \
    X(ICE_HOCKEY, IceHockey) \
    X(JAMESBOND, Jamesbond) \
    X(KANGAROO, Kangaroo) \
    X(KRULL, Krull) \
    X(KUNG_FU_MASTER, KungFuMaster) \
    X(MONTEZUMA_REVENGE, MontezumaRevenge) \
    X(MS_PACMAN, MsPacman) \
    X(NAME_THIS_GAME, NameThisGame) \
    X(PHOENIX, Phoenix) \
    X(PITFALL, Pitfall) \
    X(PONG, Pong) \
    X(PRIVATE_EYE, PrivateEye) \
    X(QBERT, Qbert) \
    X(RIVERRAID, Riverraid) \
    X(ROAD_RUNNER, RoadRunner) \
    X(ROBOTANK, Robotank) \
    X(SEAQUEST, Seaquest) \
    X(SKIING, Skiing) \
    X(SOLARIS, Solaris) \
    X(SPACE_INVADERS, SpaceInvaders) \
    X(STAR_GUNNER, StarGunner) \
    X(SURROUND, Surround) \
    X(TENNIS, Tennis) \
    X(TIME_PILOT, TimePilot) \
    X(TUTANKHAM, Tutankham) \
    X(UP_N_DOWN, UpNDown) \
    X(VENTURE, Venture) \
    X(VIDEO_PINBALL, VideoPinball) \
    X(WIZARD_OF_WOR, WizardOfWor) \
    X(YARS_REVENGE, YarsRevenge) \
    X(ZAXXON, Zaxxon)

// ALE's RomSettings::reset.
CULE_HD void game_reset(int game, GameState& g) {
    g.score = g.reward = g.lives = 0;
    g.terminal = 0;
    g.flags[0] = g.flags[1] = g.flags[2] = 0;
    g.memory[0] = g.memory[1] = 0;
    switch (game) {
#define X(ID, S) case GAME_##ID: S::reset(g); break;
        CULE_FOR_EACH_GAME(X)
#undef X
        default: break;
    }
}

// ALE's RomSettings::step. ram: the 128 RAM bytes; ALE's address a reads ram[a & 0x7F].
CULE_HD void game_step(int game, const u8* ram, GameState& g) {
    g.reward = 0;
    switch (game) {
#define X(ID, S) case GAME_##ID: S::step(ram, g); break;
        CULE_FOR_EACH_GAME(X)
#undef X
        default: break;
    }
}

}  // namespace cule
