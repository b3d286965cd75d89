// The games as the host sees them: what GameSpec needs at run time, and the whole catalogue for
// cule/games.py, both read from the games' headers (kernels/ale/games/).
#pragma once
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "ale/ale.h"

namespace cule {

// A ROM's tag in a state's header (StateHeader): the first four bytes of its md5 (hex digits),
// little-endian.
constexpr u32 md5_tag(const char* md5) {
    u32 tag = 0;
    for (u32 i = 0; i < 8; ++i) {
        const char h = md5[i];
        const u32 nibble = h <= '9' ? (u32)(h - '0') : (u32)(h - 'a' + 10);
        tag |= nibble << (i % 2 ? 4 * (i - 1) : 4 * (i + 1));   // the high nibble of each byte first
    }
    return tag;
}

struct GameFacts {
    CartScheme scheme;
    Display display, detection_display;   // game_settings.h, display_of
    Wiring wiring;
    u32 rom_tag;
};

inline GameFacts game_facts(int game) {
    switch (game) {
#define X(id, Game)                                                                                           \
    case GAME_##id:                                                                                           \
        return GameFacts{Game::scheme, display_of<Game>(), display_of<Game>(true), wiring_of<Game>(), \
                         md5_tag(Game::md5)};
        CULE_FOR_EACH_GAME(X)
#undef X
    }
    throw std::invalid_argument("game index out of range: " + std::to_string(game) + " (there are " +
                                std::to_string((int)NUM_GAMES) + " games)");
}

namespace catalogue {
namespace py = pybind11;

inline py::tuple items(const List& l) {
    py::tuple out(l.size);
    for (u8 i = 0; i < l.size; ++i) out[i] = l.items[i];
    return out;
}

// ModeBlocks and Runs spelled out in full, as Python reads a List.
inline py::tuple items(const ModeBlocks& m) {
    py::list out;
    for (u32 k = 0; k < m.blocks; ++k)
        for (u8 i = 0; i < m.first.size; ++i) out.append(k * m.stride + m.first.items[i]);
    return py::tuple(out);
}

inline py::tuple items(const Runs& r) {
    py::list out;
    for (u8 i = 0; i < r.size; ++i)
        for (u16 n = 0; n < r.items[i].count; ++n) out.append(r.items[i].action);
    return py::tuple(out);
}

inline py::tuple action_set(u32 mask) {
    py::list out;
    for (u8 a = 0; a < NUM_ACTIONS; ++a)
        if (mask >> a & 1) out.append(a);
    return py::tuple(out);
}

inline const char* controller_name(Controller c) {
    return c == PADDLES ? "PADDLES" : c == JOYSTICK ? "JOYSTICK" : "NONE";
}

template <typename Game>
py::dict describe(const char* id, const char* name) {
    py::dict d;
    d["id"] = id;
    d["name"] = name;
    d["md5"] = Game::md5;
    d["scheme"] = CART_SCHEME_NAMES[Game::scheme];
    d["rom_bytes"] = CART_ROM_BYTES[Game::scheme];
    const Display display = display_of<Game>();
    d["ystart"] = display.ystart;
    d["screen_height"] = display.height;
    d["pal"] = (bool)display.pal;
    d["hmove_blanks"] = (bool)display.hmove_blanks;
    d["left"] = controller_name(Game::left);
    d["right"] = controller_name(Game::right);
    d["swap_ports"] = Game::swap_ports;
    d["swap_paddles"] = Game::swap_paddles;
    d["power_on_difficulty_a"] = py::make_tuple(Game::power_on_difficulty_a[0], Game::power_on_difficulty_a[1]);
    d["paddle_max"] = Game::paddle_max;
    d["minimal_actions"] = action_set(Game::minimal_actions);
    d["legal_actions"] = action_set(Game::legal_actions);
    d["modes"] = items(Game::modes);
    d["difficulties"] = items(Game::difficulties);
    d["starting_actions"] = items(Game::starting_actions);
    const ModeSelect& m = Game::mode_select;
    d["mode_select"] = m.select_frames == 0 ? py::object(py::none()) : py::object(py::dict(
        py::arg("ram") = m.ram_address, py::arg("select_frames") = m.select_frames, py::arg("scale") = m.scale,
        py::arg("offset") = m.offset, py::arg("also_ram") = m.also_ram, py::arg("also_value") = m.also_value,
        py::arg("noops_first") = m.noops_first, py::arg("soft_reset_first") = m.soft_reset_first,
        py::arg("select_first") = m.select_first, py::arg("bcd") = m.bcd));
    d["ale_saved"] = Game::ale_saved;
    d["ale_kept"] = Game::ale_kept;
    return d;
}

}  // namespace catalogue

// Every game's settings, in GameId order.
inline pybind11::list game_catalogue() {
    pybind11::list out;
#define X(id, Game) out.append(catalogue::describe<Game>(#id, #Game));
    CULE_FOR_EACH_GAME(X)
#undef X
    return out;
}

}  // namespace cule
