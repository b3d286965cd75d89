// std::mt19937, which ALE seeds with 4753849 to fill the RIOT's RAM and timer at power-on.
// Used once per game on the host to build the power-on state; it is not in the step path.
#pragma once
#include "types.h"

namespace cule {

struct Mt19937 {
    u32 state[624];
    u32 index;
};

CULE_HD void mt_seed(Mt19937& mt, u32 seed) {
    mt.state[0] = seed;
    for (u32 i = 1; i < 624; ++i)
        mt.state[i] = 1812433253u * (mt.state[i - 1] ^ (mt.state[i - 1] >> 30)) + i;
    mt.index = 624;
}

CULE_HD u32 mt_next(Mt19937& mt) {
    if (mt.index >= 624) {
        for (u32 i = 0; i < 624; ++i) {
            u32 y = (mt.state[i] & 0x80000000u) | (mt.state[(i + 1) % 624] & 0x7FFFFFFFu);
            mt.state[i] = mt.state[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1) ? 0x9908B0DFu : 0);
        }
        mt.index = 0;
    }
    u32 y = mt.state[mt.index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9D2C5680u;
    y ^= (y << 15) & 0xEFC60000u;
    return y ^ (y >> 18);
}

}  // namespace cule
