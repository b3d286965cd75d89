// The games, each one header in games/ with ALE's settings for it (game_settings.h) and its
// rules, run after every emulated frame (ALE's RomSettings::step): the score, and from it the
// reward, plus the terminal flag and the lives counter, all read from RAM. The rules run inside
// the kernels because the GPU computes rewards itself.
//
// Adding a game: its header, its #include below and its row in CULE_FOR_EACH_GAME. The row's
// position is the game's id in the kernels; cule/games.py reads everything else from the header.
#pragma once
#include "types.h"
#include "ale/game_settings.h"
#include "ale/game_state.h"
#include "ale/games/adventure.h"
#include "ale/games/air_raid.h"
#include "ale/games/alien.h"
#include "ale/games/amidar.h"
#include "ale/games/assault.h"
#include "ale/games/asterix.h"
#include "ale/games/asteroids.h"
#include "ale/games/atlantis.h"
#include "ale/games/atlantis2.h"
#include "ale/games/backgammon.h"
#include "ale/games/bank_heist.h"
#include "ale/games/basic_math.h"
#include "ale/games/battle_zone.h"
#include "ale/games/beam_rider.h"
#include "ale/games/berzerk.h"
#include "ale/games/blackjack.h"
#include "ale/games/bowling.h"
#include "ale/games/boxing.h"
#include "ale/games/breakout.h"
#include "ale/games/carnival.h"
#include "ale/games/casino.h"
#include "ale/games/centipede.h"
#include "ale/games/chopper_command.h"
#include "ale/games/crazy_climber.h"
#include "ale/games/crossbow.h"
#include "ale/games/darkchambers.h"
#include "ale/games/defender.h"
#include "ale/games/demon_attack.h"
#include "ale/games/donkey_kong.h"
#include "ale/games/double_dunk.h"
#include "ale/games/earthworld.h"
#include "ale/games/elevator_action.h"
#include "ale/games/enduro.h"
#include "ale/games/entombed.h"
#include "ale/games/et.h"
#include "ale/games/fishing_derby.h"
#include "ale/games/flag_capture.h"
#include "ale/games/freeway.h"
#include "ale/games/frogger.h"
#include "ale/games/frostbite.h"
#include "ale/games/galaxian.h"
#include "ale/games/gopher.h"
#include "ale/games/gravitar.h"
#include "ale/games/hangman.h"
#include "ale/games/haunted_house.h"
#include "ale/games/hero.h"
#include "ale/games/human_cannonball.h"
#include "ale/games/ice_hockey.h"
#include "ale/games/jamesbond.h"
#include "ale/games/journey_escape.h"
#include "ale/games/kaboom.h"
#include "ale/games/kangaroo.h"
#include "ale/games/keystone_kapers.h"
#include "ale/games/king_kong.h"
#include "ale/games/klax.h"
#include "ale/games/koolaid.h"
#include "ale/games/krull.h"
#include "ale/games/kung_fu_master.h"
#include "ale/games/laser_gates.h"
#include "ale/games/lost_luggage.h"
#include "ale/games/mario_bros.h"
#include "ale/games/miniature_golf.h"
#include "ale/games/montezuma_revenge.h"
#include "ale/games/mr_do.h"
#include "ale/games/ms_pacman.h"
#include "ale/games/name_this_game.h"
#include "ale/games/othello.h"
#include "ale/games/pacman.h"
#include "ale/games/phoenix.h"
#include "ale/games/pitfall.h"
#include "ale/games/pitfall2.h"
#include "ale/games/pong.h"
#include "ale/games/pooyan.h"
#include "ale/games/private_eye.h"
#include "ale/games/qbert.h"
#include "ale/games/riverraid.h"
#include "ale/games/road_runner.h"
#include "ale/games/robotank.h"
#include "ale/games/seaquest.h"
#include "ale/games/sir_lancelot.h"
#include "ale/games/skiing.h"
#include "ale/games/solaris.h"
#include "ale/games/space_invaders.h"
#include "ale/games/space_war.h"
#include "ale/games/star_gunner.h"
#include "ale/games/superman.h"
#include "ale/games/surround.h"
#include "ale/games/tennis.h"
#include "ale/games/tetris.h"
#include "ale/games/tic_tac_toe_3d.h"
#include "ale/games/time_pilot.h"
#include "ale/games/trondead.h"
#include "ale/games/turmoil.h"
#include "ale/games/tutankham.h"
#include "ale/games/up_n_down.h"
#include "ale/games/venture.h"
#include "ale/games/video_checkers.h"
#include "ale/games/video_chess.h"
#include "ale/games/video_cube.h"
#include "ale/games/video_pinball.h"
#include "ale/games/wizard_of_wor.h"
#include "ale/games/word_zapper.h"
#include "ale/games/yars_revenge.h"
#include "ale/games/zaxxon.h"

namespace cule {

// X(ALE's id, settings struct, named as gymnasium's v5 environments are) for every game.
#define CULE_FOR_EACH_GAME(X) \
    X(adventure, Adventure) \
    X(air_raid, AirRaid) \
    X(alien, Alien) \
    X(amidar, Amidar) \
    X(assault, Assault) \
    X(asterix, Asterix) \
    X(asteroids, Asteroids) \
    X(atlantis, Atlantis) \
    X(atlantis2, Atlantis2) \
    X(backgammon, Backgammon) \
    X(bank_heist, BankHeist) \
    X(basic_math, BasicMath) \
    X(battle_zone, BattleZone) \
    X(beam_rider, BeamRider) \
    X(berzerk, Berzerk) \
    X(blackjack, Blackjack) \
    X(bowling, Bowling) \
    X(boxing, Boxing) \
    X(breakout, Breakout) \
    X(carnival, Carnival) \
    X(casino, Casino) \
    X(centipede, Centipede) \
    X(chopper_command, ChopperCommand) \
    X(crazy_climber, CrazyClimber) \
    X(crossbow, Crossbow) \
    X(darkchambers, Darkchambers) \
    X(defender, Defender) \
    X(demon_attack, DemonAttack) \
    X(donkey_kong, DonkeyKong) \
    X(double_dunk, DoubleDunk) \
    X(earthworld, Earthworld) \
    X(elevator_action, ElevatorAction) \
    X(enduro, Enduro) \
    X(entombed, Entombed) \
    X(et, Et) \
    X(fishing_derby, FishingDerby) \
    X(flag_capture, FlagCapture) \
    X(freeway, Freeway) \
    X(frogger, Frogger) \
    X(frostbite, Frostbite) \
    X(galaxian, Galaxian) \
    X(gopher, Gopher) \
    X(gravitar, Gravitar) \
    X(hangman, Hangman) \
    X(haunted_house, HauntedHouse) \
    X(hero, Hero) \
    X(human_cannonball, HumanCannonball) \
    X(ice_hockey, IceHockey) \
    X(jamesbond, Jamesbond) \
    X(journey_escape, JourneyEscape) \
    X(kaboom, Kaboom) \
    X(kangaroo, Kangaroo) \
    X(keystone_kapers, KeystoneKapers) \
    X(king_kong, KingKong) \
    X(klax, Klax) \
    X(koolaid, Koolaid) \
    X(krull, Krull) \
    X(kung_fu_master, KungFuMaster) \
    X(laser_gates, LaserGates) \
    X(lost_luggage, LostLuggage) \
    X(mario_bros, MarioBros) \
    X(miniature_golf, MiniatureGolf) \
    X(montezuma_revenge, MontezumaRevenge) \
    X(mr_do, MrDo) \
    X(ms_pacman, MsPacman) \
    X(name_this_game, NameThisGame) \
    X(othello, Othello) \
    X(pacman, Pacman) \
    X(phoenix, Phoenix) \
    X(pitfall, Pitfall) \
    X(pitfall2, Pitfall2) \
    X(pong, Pong) \
    X(pooyan, Pooyan) \
    X(private_eye, PrivateEye) \
    X(qbert, Qbert) \
    X(riverraid, Riverraid) \
    X(road_runner, RoadRunner) \
    X(robotank, Robotank) \
    X(seaquest, Seaquest) \
    X(sir_lancelot, SirLancelot) \
    X(skiing, Skiing) \
    X(solaris, Solaris) \
    X(space_invaders, SpaceInvaders) \
    X(space_war, SpaceWar) \
    X(star_gunner, StarGunner) \
    X(superman, Superman) \
    X(surround, Surround) \
    X(tennis, Tennis) \
    X(tetris, Tetris) \
    X(tic_tac_toe_3d, TicTacToe3D) \
    X(time_pilot, TimePilot) \
    X(trondead, Trondead) \
    X(turmoil, Turmoil) \
    X(tutankham, Tutankham) \
    X(up_n_down, UpNDown) \
    X(venture, Venture) \
    X(video_checkers, VideoCheckers) \
    X(video_chess, VideoChess) \
    X(video_cube, VideoCube) \
    X(video_pinball, VideoPinball) \
    X(wizard_of_wor, WizardOfWor) \
    X(word_zapper, WordZapper) \
    X(yars_revenge, YarsRevenge) \
    X(zaxxon, Zaxxon)

enum GameId {
#define X(id, Game) GAME_##id,
    CULE_FOR_EACH_GAME(X)
#undef X
    NUM_GAMES
};

// ALE's RomSettings::reset.
CULE_HD void game_reset(int game, GameState& g) {
    g.score = g.reward = g.lives = 0;
    g.terminal = 0;
    g.flags[0] = g.flags[1] = g.flags[2] = 0;
    g.memory[0] = g.memory[1] = 0;
    switch (game) {
#define X(id, Game) case GAME_##id: Game::reset(g); break;
        CULE_FOR_EACH_GAME(X)
#undef X
        default: break;
    }
}

// What ALE's setMode keeps of the mode in the game's settings (GameSettings::select_mode).
CULE_HD void game_select_mode(int game, GameState& g, i32 mode) {
    switch (game) {
#define X(id, Game) case GAME_##id: Game::select_mode(g, mode); break;
        CULE_FOR_EACH_GAME(X)
#undef X
        default: break;
    }
}

// A game's rules read the RIOT's RAM; Klax's also the Superchip's.
template <typename Game>
CULE_HD void game_rules(const u8* ram, const u8* cart_ram, GameState& g) {
    if constexpr (Game::reads_cart_ram) Game::step(ram, cart_ram, g);
    else Game::step(ram, g);
}

// ALE's RomSettings::step. ram: the 128 RAM bytes; ALE's address a reads ram[a & 0x7F].
// cart_ram: the cartridge's 128 (Superchip) RAM bytes, read at $F080-$F0FF.
CULE_HD void game_step(int game, const u8* ram, const u8* cart_ram, GameState& g) {
#ifdef CULE_GAME
    game = CULE_GAME;   // a module for one game (kernels.cu): its rules alone are compiled in
#endif
    g.reward = 0;
    switch (game) {
#define X(id, Game) case GAME_##id: game_rules<Game>(ram, cart_ram, g); break;
        CULE_FOR_EACH_GAME(X)
#undef X
        default: break;
    }
}

}  // namespace cule
