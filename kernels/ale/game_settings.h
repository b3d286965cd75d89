// What ALE knows of a game besides its rules: Stella's properties for the cartridge (scheme,
// controllers, first visible line) and ALE's RomSettings (actions, modes, difficulties, how a
// mode is selected, what starts a game, what a saved state holds). Each game's header declares
// them as static constexpr members over GameSettings, which holds the usual values, so a game
// states only where it differs. They are host facts: the kernels never read them, the CPU module
// exports them (cule._core.game_catalogue) and cule/games.py builds the catalogue from them.
#pragma once
#include "types.h"
#include "atari/cart.h"
#include "atari/tia.h"

namespace cule {

struct GameState;

// ALE action ids 0..17.
enum : u8 {
    NOOP = 0, FIRE = 1, UP = 2, RIGHT = 3, LEFT = 4, DOWN = 5, UPRIGHT = 6, UPLEFT = 7, DOWNRIGHT = 8,
    DOWNLEFT = 9, UPFIRE = 10, RIGHTFIRE = 11, LEFTFIRE = 12, DOWNFIRE = 13, UPRIGHTFIRE = 14,
    UPLEFTFIRE = 15, DOWNRIGHTFIRE = 16, DOWNLEFTFIRE = 17, NUM_ACTIONS = 18,
};
constexpr const char* ACTION_NAMES[NUM_ACTIONS] = {
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT", "UPFIRE",
    "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE"};

// A set of actions as a bit mask, bit a for action a (as the kernels take legal actions).
template <typename... A>
constexpr u32 actions(A... a) {
    return ((1u << a) | ... | 0u);
}
constexpr u32 ALL_ACTIONS = (1u << NUM_ACTIONS) - 1;
// ALE's RESET action (its id there): the console's RESET switch held for one frame. Only starting
// actions play it (Keystone Kapers, Laser Gates, Sir Lancelot).
enum : u8 { RESET = 40 };

enum Controller : u8 { NO_CONTROLLER, JOYSTICK, PADDLES };

// A short list of small numbers, in order: modes, difficulties, starting actions.
struct List {
    u8 size;
    u8 items[63];
};
template <typename... T>
constexpr List list(T... items) {
    static_assert(sizeof...(T) <= 63, "a List holds at most 63 items");
    return List{(u8)sizeof...(T), {(u8)items...}};
}

// Starting actions longer than a List holds, as runs of one action: WordZapper's 486 NOOPs, then
// FIRE and two NOOPs, are starts(run(NOOP, 486), FIRE, NOOP, NOOP).
struct Run {
    u8 action;
    u16 count;
};
constexpr Run run(u8 action, u16 count) { return Run{action, count}; }
constexpr Run as_run(Run r) { return r; }
constexpr Run as_run(u8 action) { return Run{action, 1}; }
struct Runs {
    u8 size;
    Run items[15];
};
template <typename... T>
constexpr Runs starts(T... items) {
    static_assert(sizeof...(T) <= 15, "starts() holds at most 15 runs");
    return Runs{(u8)sizeof...(T), {as_run(items)...}};
}

// Modes numbered in blocks, more or larger than a List holds: block k (k < blocks) holds the
// modes of `first` plus k * stride (VideoCube numbers its modes cube * 100 + variation).
struct ModeBlocks {
    List first;
    u8 blocks;
    u16 stride;
};
constexpr ModeBlocks mode_blocks(List first, u8 blocks, u16 stride) { return ModeBlocks{first, blocks, stride}; }

// How ALE's setMode reaches a mode: press SELECT (`select_frames` frames at a time) until RAM
// `ram` equals the mode times `scale` plus `offset` (in BCD where `bcd`; and, where `also_ram` is
// set, RAM `also_ram` equals `also_value`), then a soft reset. Some games first play NOOP frames
// (`noops_first`), soft-reset, or press SELECT once (`select_first` frames) before looking.
// select_frames == 0: the game has one mode, or cule/reset.py drives its menu.
struct ModeSelect {
    u8 ram_address = 0, select_frames = 0, scale = 1, offset = 0, noops_first = 0, select_first = 0;
    u8 also_ram = 0, also_value = 0;
    bool soft_reset_first = false, bcd = false;

    static constexpr ModeSelect ram(u8 address, u8 frames) {
        ModeSelect m;
        m.ram_address = address;
        m.select_frames = frames;
        return m;
    }
    constexpr ModeSelect times(u8 k) const { ModeSelect m = *this; m.scale = k; return m; }
    constexpr ModeSelect plus(u8 v) const { ModeSelect m = *this; m.offset = v; return m; }
    constexpr ModeSelect and_ram(u8 address, u8 value) const {
        ModeSelect m = *this;
        m.also_ram = address;
        m.also_value = value;
        return m;
    }
    constexpr ModeSelect after_noops(u8 n) const { ModeSelect m = *this; m.noops_first = n; return m; }
    constexpr ModeSelect after_select(u8 n) const { ModeSelect m = *this; m.select_first = n; return m; }
    constexpr ModeSelect after_soft_reset() const { ModeSelect m = *this; m.soft_reset_first = true; return m; }
    constexpr ModeSelect in_bcd() const { ModeSelect m = *this; m.bcd = true; return m; }
};

struct GameSettings {
    // Stella's display properties (tia_state.h, Display): the first scanline ALE shows, how many,
    // and whether the console is PAL (ALE detects it at power-on; a header states the outcome).
    static constexpr u8 ystart = 34;
    static constexpr u16 display_height = NTSC_HEIGHT;
    static constexpr bool pal = false;
    static constexpr bool hmove_blanks = true;       // HMOVE blanks the first 8 pixels of a line
    static constexpr Controller left = JOYSTICK, right = JOYSTICK;
    static constexpr bool swap_ports = false, swap_paddles = false;
    // The difficulty switches (left, right) at A before ALE first sets them.
    static constexpr bool power_on_difficulty_a[2] = {false, false};
    // ALE's paddle_max setting: paddles move between PADDLE_MIN (ale.h) and this, from halfway.
    static constexpr i32 paddle_max = 790196;
    static constexpr u32 minimal_actions = ALL_ACTIONS;
    static constexpr u32 legal_actions = ALL_ACTIONS;    // the others play as NOOP
    static constexpr List modes = list(0), difficulties = list(0);     // modes: or ModeBlocks
    static constexpr List starting_actions = list();     // played once after each reset; or Runs
    static constexpr ModeSelect mode_select = ModeSelect();
    // What ALE's settings object writes into a saved state after the cartridge ("?": a bool),
    // and which of those cule keeps in GameState (flag0 = flags[0], memory0 = memory[0], ...).
    static constexpr const char* ale_saved = "reward score terminal? lives";
    static constexpr const char* ale_kept = "";
    // The rules also read the cartridge's RAM: step(ram, cart_ram, g) instead of step(ram, g).
    static constexpr bool reads_cart_ram = false;

    // What ALE's setMode keeps in the game's settings besides selecting the mode (VideoCheckers:
    // reverse checkers); the host calls it before selecting the mode.
    CULE_HD static void select_mode(GameState&, i32) {}
};

// The display a game is shown with. `detecting`: the power-on run that detects PAL, which Stella
// runs as NTSC at the properties' height; after it a PAL game whose properties say 210 rows
// shows 250.
template <typename Game>
constexpr Display display_of(bool detecting = false) {
    const bool pal = Game::pal && !detecting;
    const u16 height = pal && Game::display_height == NTSC_HEIGHT ? (u16)PAL_HEIGHT : Game::display_height;
    return Display{height, Game::ystart, (u8)pal, (u8)Game::hmove_blanks};
}

}  // namespace cule
