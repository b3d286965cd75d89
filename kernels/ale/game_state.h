// What ALE's RomSettings keep for a game between frames. Each game's settings live in
// games/<game>.h.
#pragma once
#include "types.h"

namespace cule {

struct GameState {
    i32 score;      // the game's score as ALE reads it
    i32 reward;     // score change over the last frame
    i32 lives;      // what ALE's lives() returns
    u8 terminal;
    u8 flags[3];    // per-game memory (e.g. Breakout: a game is under way); zero after reset
    i32 memory[2];  // per-game memory; zero after reset

    // The usual reward: the change of the score since the last frame.
    CULE_HD void set_score(i32 s) {
        reward = s - score;
        score = s;
    }
};

// A BCD byte as a number (two digits; a nibble above 9 counts as its value).
CULE_HD i32 bcd(u8 b) { return (b & 0x0F) + 10 * (b >> 4); }

// A score kept as up to three BCD bytes at RAM addresses lo, mid, hi (lowest digits first);
// a negative address means the byte is absent.
CULE_HD i32 decimal_score(const u8* ram, i32 lo, i32 mid = -1, i32 hi = -1) {
    i32 s = bcd(ram[lo & 0x7F]);
    if (mid >= 0) s += 100 * bcd(ram[mid & 0x7F]);
    if (hi >= 0) s += 10000 * bcd(ram[hi & 0x7F]);
    return s;
}

// A score kept one digit per byte, in the low nibbles of `count` bytes from RAM address
// `lowest` (lowest digit first); a nibble of $A is a blank, read as 0.
CULE_HD i32 nibble_digits(const u8* ram, i32 lowest, i32 count) {
    i32 score = 0;
    for (i32 addr = lowest + count - 1; addr >= lowest; --addr) {
        i32 digit = ram[addr & 0x7F] & 0x0F;
        score = 10 * score + (digit == 0x0A ? 0 : digit);
    }
    return score;
}

}  // namespace cule
