// Whether bytes are a state that may run in a game's env: everything that can come in from outside
// (set_states, set_reset_states, the CUDA backend's same calls) passes here first. The header
// says whose state it is and in which layout; then every field the emulator indexes memory with,
// shifts by or counts from is held to the values play can give it, so that no byte pattern
// reaches memory outside a machine's buffers. tests/test_states.py fuzzes this under the
// sanitizers.
#pragma once
#include <algorithm>
#include <iterator>
#include <string>

#include "bindings/single_console.h"

namespace cule::bindings {

// The game whose ROM has this tag, or "" if none of the catalogue's.
inline std::string game_with_rom_tag(u32 tag) {
#define X(id, Game) \
    if (md5_tag(Game::md5) == tag) return #Game;
    CULE_FOR_EACH_GAME(X)
#undef X
    return "";
}

// What is wrong with `state` (state_bytes of them) as a state of `spec`'s game: "" if nothing.
inline std::string state_problem(const u8* state, const GameSpec& spec) {
    Machine m;
    std::memcpy(&m, state, sizeof(Machine));
    const StateHeader& h = m.header;
    if (h.magic != STATE_MAGIC) return "it is not a cule state (get_states() makes them): it lacks cule's mark";
    if (h.version != STATE_VERSION)
        return "it has layout version " + std::to_string(h.version) + ", this build of cule reads version " +
               std::to_string((u32)STATE_VERSION);
    const std::string game = game_with_rom_tag(spec.rom_tag);
    if (h.rom_tag != spec.rom_tag) {
        const std::string other = game_with_rom_tag(h.rom_tag);
        return "it is a state of " + (other.empty() ? "a game cule does not know" : other) + ", this env plays " +
               game;
    }
    if (h.state_bytes != (u32)spec.state_bytes())
        return "its header gives " + std::to_string(h.state_bytes) + " bytes, a state of " + game + " has " +
               std::to_string(spec.state_bytes());

    std::string problem;
    // Records the first field out of its range.
    auto within = [&](const char* field, i64 value, i64 low, i64 high) {
        if (problem.empty() && (value < low || value > high))
            problem = std::string(field) + " is " + std::to_string(value) + ", allowed " + std::to_string(low) +
                      ".." + std::to_string(high);
    };
    auto is = [&](const char* field, i64 value, i64 expected) { within(field, value, expected, expected); };
    // Cycle stamps need no bounds: their arithmetic wraps around (riot.h, tia_draw.h). The frame's
    // cycle count and start bound the drawing's clocks: generously (a frame cut by the instruction
    // cap goes on in the next, its count growing), with three times the count within an i32.
    constexpr i64 I30 = 1 << 30, I29 = 1 << 29, I26 = 1 << 26;

    const Console& c = m.console;
    within("cpu.halted", c.cpu.halted, 0, 1);
    within("riot.timer", c.riot.timer, 0, 255);
    // The intervals TIMxT sets (riot.h).
    if (problem.empty() && std::find(std::begin(TIMER_SHIFT), std::end(TIMER_SHIFT), c.riot.shift) == std::end(TIMER_SHIFT))
        problem = "riot.shift is " + std::to_string(c.riot.shift) + ", allowed 0, 3, 6 or 10";
    within("riot.read_after_int", c.riot.read_after_int, 0, 1);

    const Tia& t = c.tia;
    const Display& d = spec.display;
    is("tia.height", t.height, d.height);
    is("tia.ystart", t.ystart, d.ystart);
    is("tia.pal", t.pal, d.pal);
    within("tia.front", t.front, 0, 1);
    within("tia.clock_frame_start", t.clock_frame_start, -I26, I26);
    is("tia.clock_start_display", t.clock_start_display, (i64)t.clock_frame_start + CLOCKS_PER_LINE * t.ystart);
    is("tia.clock_stop_display", t.clock_stop_display, (i64)t.clock_start_display + CLOCKS_PER_LINE * t.height);
    within("tia.clock_last_update", t.clock_last_update, t.clock_frame_start, t.clock_stop_display);
    within("tia.clocks_to_end_of_line", t.clocks_to_end_of_line, 0, CLOCKS_PER_LINE);
    within("tia.frame_pos", t.frame_pos, 0, display_pixels(d));
    within("tia.pf", t.pf, 0, 0xFFFFF);
    const i16 positions[5] = {t.posp0, t.posp1, t.posm0, t.posm1, t.posbl};
    for (i16 p : positions) within("a tia object position", p, 0, SCREEN_WIDTH - 1);
    for (const ObjectMask* o : {&t.mp0, &t.mp1, &t.mm0, &t.mm1, &t.mbl}) within("a tia object mask's position", o->pos, 0, SCREEN_WIDTH - 1);
    within("tia.mp0.shape", t.mp0.shape, 0, 0x0F);
    within("tia.mp1.shape", t.mp1.shape, 0, 0x0F);
    within("tia.mm0.shape", t.mm0.shape & ~HIDDEN, 0, 0x1F);
    within("tia.mm1.shape", t.mm1.shape & ~HIDDEN, 0, 0x1F);
    within("tia.mbl.shape", t.mbl.shape, 0, 3);
    within("tia.m0_ark_counter", t.m0_ark_counter, 0, 3);
    for (u8 motion : {t.hmp0, t.hmp1, t.hmm0, t.hmm1, t.hmbl}) within("a tia motion register (HMxx >> 4)", motion, 0, 15);
    within("tia.partial_frame", t.partial_frame, 0, 1);

    const Cart& k = c.cart;
    is("cart.scheme", k.scheme, spec.scheme);
    const u32 banks = k.scheme == CART_F8 || k.scheme == CART_F8SC || k.scheme == CART_DPC ? 2
                      : k.scheme == CART_F6 || k.scheme == CART_F6SC                     ? 4
                      : k.scheme == CART_E0                                              ? 8
                                                                                         : 1;
    for (u32 i = 0; i < (k.scheme == CART_E0 ? 4u : 1u); ++i) within("cart.bank", k.bank[i], 0, banks - 1);
    for (u16 counter : k.dpc.counter) within("cart.dpc.counter", counter, 0, DPC_DISPLAY_LAST);
    const double fraction = bits_as_double(k.dpc.music_fraction);
    if (problem.empty() && !(fraction >= 0 && fraction < 1))
        problem = "cart.dpc.music_fraction is " + std::to_string(fraction) + ", allowed [0, 1)";

    within("cycles", c.cycles, 0, I29);
    within("game.score", m.game.score, -I30, I30);
    within("game.reward", m.game.reward, -I30, I30);
    within("game.lives", m.game.lives, -I30, I30);
    within("frame_number", m.frame_number, 0, COUNTER_MAX);
    within("episode_frame_number", m.episode_frame_number, 0, COUNTER_MAX);
    within("episode_steps", m.episode_steps, 0, COUNTER_MAX);
    for (i32 p : m.paddle) within("paddle", p, 0, spec.wiring.paddle_max);
    within("input_a's action", input_action(m.input_a), 0, NUM_ACTIONS - 1);   // its strength: any 24 bits
    within("action_b", m.action_b, 0, NUM_ACTIONS - 1);
    within("difficulty", m.difficulty, 0, 3);
    return problem.empty() ? "" : "its field " + problem;
}

// Raises ValueError if `state` (`size` bytes) may not run in an env of `spec`'s game.
inline void check_state(const GameSpec& spec, const u8* state, py::ssize_t size, const std::string& what) {
    if (size != (py::ssize_t)spec.state_bytes())
        throw std::invalid_argument(what + " has " + std::to_string(size) + " bytes, a state of this game has " +
                                    std::to_string(spec.state_bytes()));
    const std::string problem = state_problem(state, spec);
    if (!problem.empty()) throw std::invalid_argument(what + " cannot be used: " + problem);
}

// The same for every row of `states`, naming the first that may not run.
inline void check_states(const GameSpec& spec, const Bytes& states, const std::string& what) {
    if (states.ndim() != 2) throw std::invalid_argument(what + " must have shape (K, state_size)");
    for (py::ssize_t j = 0; j < states.shape(0); ++j)
        check_state(spec, states.data(j, 0), states.shape(1), what + "[" + std::to_string(j) + "]");
}

}  // namespace cule::bindings
