// ALE's environment layer over the console: actions become controller and switch inputs
// (ALEState::applyAction*), one emulated frame is followed by the game's settings step, and the
// frame counters advance as ALE's do.
#pragma once
#include "types.h"
#include "atari/console.h"
#include "ale/games.h"

namespace cule {

// Joystick lines an action holds: bit 0 up, 1 down, 2 left, 3 right, 4 fire.
CULE_CONST const u8 ACTION_LINES[NUM_ACTIONS] = {0x00, 0x10, 0x01, 0x08, 0x04, 0x02, 0x09, 0x05, 0x0A,
                                                 0x06, 0x11, 0x18, 0x14, 0x12, 0x19, 0x15, 0x1A, 0x16};
CULE_HD u8 action_lines(u8 a) { return a < NUM_ACTIONS ? ACTION_LINES[a] : 0; }

enum : i32 {
    PADDLE_MIN = 27450,
    PADDLE_DELTA = 23000,
    // A paddle strength's turn is capped here: more than any paddle's range (ALE's paddle_max
    // less PADDLE_MIN), so the cap changes no position; and it fits step_input's 24 bits.
    PADDLE_DELTA_MAX = (1 << 24) - 1,
};

// How a game's controllers are wired (Stella's properties for its cartridge, ALE's paddle range).
struct Wiring {
    u8 left_paddles, right_paddles;   // else joysticks
    u8 swap_ports, swap_paddles;
    u8 power_on_switches;             // SWCHB before ALE first sets the difficulty switches
    i32 paddle_max;                   // paddles move between PADDLE_MIN and this
};

// Where ALE puts the paddles at each reset: halfway along their range.
CULE_HD i32 paddle_centre(const Wiring& w) { return (PADDLE_MIN + w.paddle_max) / 2; }

template <typename Game>
constexpr Wiring wiring_of() {
    static_assert(Game::paddle_max > PADDLE_MIN, "paddle_max must lie above PADDLE_MIN");
    // COLOR, both difficulty switches at B, SELECT and RESET up; bits 6 and 7 put them at A.
    u8 switches = 0x3F | (Game::power_on_difficulty_a[0] ? 0x40 : 0) | (Game::power_on_difficulty_a[1] ? 0x80 : 0);
    return Wiring{Game::left == PADDLES, Game::right == PADDLES, Game::swap_ports, Game::swap_paddles, switches,
                  Game::paddle_max};
}

// What a state says of itself, checked wherever a state comes in (bindings/state_check.h): one of
// another game or layout, or bytes that are no state, never run.
struct StateHeader {
    u32 magic;         // STATE_MAGIC
    u32 version;       // STATE_VERSION, raised whenever the layout of Machine changes
    u32 rom_tag;       // the game's: the first four bytes of its ROM's md5, little-endian
    u32 state_bytes;   // the machine and its two frame buffers
};
enum : u32 { STATE_MAGIC = 0x454C5543 /* "CULE" */, STATE_VERSION = 3 };

// The frame counters stop at 2^31 - 1 (about 400 days of play at 60 frames a second) instead of
// overflowing an i32: every value they take is one the state check accepts.
enum : i32 { COUNTER_MAX = 0x7FFFFFFF };
CULE_HD i32 count_up(i32 n, i32 by = 1) { return n > COUNTER_MAX - by ? COUNTER_MAX : n + by; }

struct Machine {
    StateHeader header;
    Console console;
    GameState game;
    i32 frame_number, episode_frame_number;
    i32 episode_steps;      // frames stepped since the episode's reset (what the frame cap counts)
    i32 paddle[2];          // resistances of paddles 0 (player A) and 1 (player B)
    u32 input_a;            // player A's last input applied (the sticky one): step_input
    u8 events_set;          // ALE has taken over the inputs (after power-on detection frames)
    u8 switches;            // Stella's Switches byte, which keeps the last difficulty set
    u8 difficulty;          // bit 0: left switch A, bit 1: right switch A
    u8 action_b;            // player B's last action applied (always NOOP: ALE's Python API)
    // The sound generator where a step runs it (StepConfig::sound): now, and as it was before the
    // last frame's samples, from which the host makes them (tia_sound.h).
    TiaSound sound, sound_shown;
    u8 padding[4];  // explicit: states move and compare as bytes
};

// Player A's input: ALE's action in the low byte, above it how far that action turns the paddles
// a frame (ALE's paddle strength x PADDLE_DELTA, at most PADDLE_DELTA_MAX). One word, as the
// backends hand it to a step and as the machine keeps it: stored as two fields, the sticky
// strength cost the state kernels 2 to 4 more registers (NVRTC, sm_90).
CULE_HD u32 step_input(u8 action, i32 paddle_delta) { return action | (u32)paddle_delta << 8; }
CULE_HD u8 input_action(u32 input) { return (u8)input; }
CULE_HD i32 input_paddle_delta(u32 input) { return (i32)(input >> 8); }

// What ALE's Event object holds for one frame.
struct Events {
    u8 lines[2];            // action_lines for players A and B
    u8 reset, select;
};

CULE_HD Events events_for(u8 a, u8 b, bool reset, bool select) {
    Events e = {{action_lines(a), action_lines(b)}, (u8)reset, (u8)select};
    return e;
}

// Turns events into the levels the RIOT and TIA read, following Stella's controller classes.
CULE_HD void wire_inputs(Machine& m, const Wiring& w, const Events& e) {
    Console& c = m.console;
    // Stella's Switches byte keeps the difficulty bits of the last event that set them; ALE sets
    // them on every frame once it has taken over, and nothing sets them before.
    u8 s = m.switches;
    if (m.events_set) s = (s & ~0xC0) | ((m.difficulty & 1) << 6) | ((m.difficulty & 2) << 6);
    s = (s & ~0x03) | (e.select ? 0 : 0x02) | (e.reset ? 0 : 0x01);
    m.switches = c.ports.swchb = s;

    // In paddle games ALE sets only paddle events, never joystick ones. Paddle events 0 and 1
    // belong to players A and B; 2 and 3 stay 0, which Stella reads as minimum resistance.
    bool paddle_game = w.left_paddles || w.right_paddles;
    i32 resistance[4] = {m.events_set ? m.paddle[0] : 0, m.events_set ? m.paddle[1] : 0, 0, 0};
    u8 fire[4] = {(u8)(e.lines[0] >> 4 & 1), (u8)(e.lines[1] >> 4 & 1), 0, 0};

    c.ports.swcha = 0;
    for (u32 port = 0; port < 2; ++port) {
        bool right_jack = (port == 1) != (w.swap_ports != 0);   // which jack's controller sits here
        u8 nibble, button = 0x80;
        i32 r_nine = PADDLE_NONE, r_five = PADDLE_NONE;
        if (right_jack ? w.right_paddles : w.left_paddles) {
            u32 base = right_jack ? 2 : 0;
            u32 first = base + (w.swap_paddles ? 1 : 0), second = base + (w.swap_paddles ? 0 : 1);
            nibble = 0x03 | (fire[second] ? 0 : 0x04) | (fire[first] ? 0 : 0x08);
            r_nine = resistance[first];
            r_five = resistance[second];
        } else {
            u8 lines = paddle_game ? 0 : e.lines[right_jack ? 1 : 0];
            nibble = (u8)(~lines & 0x0F);
            button = (lines & 0x10) ? 0 : 0x80;
        }
        c.ports.swcha |= port == 0 ? (u8)(nibble << 4) : nibble;
        c.inputs.resistance[port * 2] = r_nine;
        c.inputs.resistance[port * 2 + 1] = r_five;
        c.inputs.charge_cycles[port * 2] = paddle_charge_cycles(r_nine);
        c.inputs.charge_cycles[port * 2 + 1] = paddle_charge_cycles(r_five);
        if (port == 0) c.inputs.inpt4 = button;
        else c.inputs.inpt5 = button;
    }
}

// ALEState::applyActionPaddles moves the paddles before every frame.
CULE_HD void move_paddles(Machine& m, const Wiring& w, u8 a, u8 b) {
    if (!(w.left_paddles || w.right_paddles)) return;
    const u8 actions[2] = {a, b};
    for (u32 p = 0; p < 2; ++p) {
        u8 lines = action_lines(actions[p]);
        const i32 step = p == 0 ? input_paddle_delta(m.input_a) : (i32)PADDLE_DELTA;
        i32 delta = (lines & 0x08) ? -step : (lines & 0x04) ? step : 0;
        i32 v = m.paddle[p] + delta;
        m.paddle[p] = v < PADDLE_MIN ? PADDLE_MIN : v > w.paddle_max ? w.paddle_max : v;
    }
}

// One emulated frame with the given inputs; `settings` runs the game's step after it. `log`,
// IN_PASSES and `tiles`: console_frame's.
template <bool DRAW, bool IN_PASSES = false>
CULE_HD void ale_frame(Machine& m, const Wiring& w, int game, u8* screen, const u8* rom, u8 a, u8 b,
                       bool reset, bool select, bool settings, TiaLog* log = nullptr, LaneTiles tiles = {}) {
    if (!select) move_paddles(m, w, a, b);
    wire_inputs(m, w, events_for(select ? (u8)NOOP : a, select ? (u8)NOOP : b, reset, select));
    console_frame<DRAW, IN_PASSES>(m.console, screen, rom, log, tiles);
    if (settings) game_step(game, m.console.riot.ram, m.console.cart.ram, m.game);
}

}  // namespace cule
