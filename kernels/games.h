// Per-game settings, run after every emulated frame (ALE's RomSettings::step): the score, and
// from it the reward, plus the terminal flag and the lives counter, all read from RAM. They
// run inside the kernels because the GPU computes rewards itself.
//
// Games are the Atari-57, in the order of the catalogue (cule/games.py). Settings exist so far
// for the games listed in game_step; the catalogue marks the others, and CuleEnv refuses to
// report rewards for them rather than return zeros.
#pragma once
#include "types.h"

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

struct GameState {
    i32 score;      // the game's score as ALE reads it
    i32 reward;     // score change over the last frame
    i32 lives;      // what ALE's lives() returns
    u8 terminal;
    u8 started;     // Breakout: the lives counter has shown 5 (a game is under way)
};

CULE_HD i32 bcd(u8 b) { return (b & 0x0F) + 10 * (b >> 4); }

CULE_HD void game_reset(int game, GameState& g) {
    g.score = 0;
    g.reward = 0;
    g.terminal = 0;
    g.started = 0;
    g.lives = game == GAME_BREAKOUT ? 5 : 0;
}

// ram: the 128 RAM bytes; ALE's address a reads ram[a & 0x7F].
CULE_HD void game_step(int game, const u8* ram, GameState& g) {
    i32 score = g.score;
    switch (game) {
        case GAME_PONG: {
            i32 cpu = ram[0x0D], player = ram[0x0E];
            score = player - cpu;
            g.terminal = cpu == 21 || player == 21;
            g.lives = 0;
            break;
        }
        case GAME_BREAKOUT: {
            u8 x = ram[0x4D], y = ram[0x4C];
            score = bcd(x) + 100 * (y & 0x0F);
            u8 lives = ram[0x39];
            if (!g.started && lives == 5) g.started = 1;
            g.terminal = g.started && lives == 0;
            g.lives = lives;
            break;
        }
        default:   // no settings yet: ALE's defaults for a game that never ends
            g.lives = g.terminal ? 0 : 1;
            break;
    }
    g.reward = score - g.score;
    g.score = score;
}

// Games whose settings above are written; the catalogue checks it matches.
CULE_HD bool game_has_settings(int game) { return game == GAME_PONG || game == GAME_BREAKOUT; }

}  // namespace cule
