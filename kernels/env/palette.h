// ALE's NTSC palette (Stella's standard palette) by pixel value. Pixels are colour registers
// & 0xFE; odd values only come from frames greyed out by the instruction cap, and ALE maps them
// through the same 256 entries (whose odd entries hold grey levels). Grey is what
// getScreenGrayscale gives: the low byte of the entry after the pixel's.
#pragma once
#include "types.h"

namespace cule {

CULE_CONST const u32 NTSC_RGB[256] = {
    0x000000, 0x000000, 0x4a4a4a, 0x4a4a4a, 0x6f6f6f, 0x6f6f6f, 0x8e8e8e, 0x8e8e8e,
    0xaaaaaa, 0xaaaaaa, 0xc0c0c0, 0xc0c0c0, 0xd6d6d6, 0xd6d6d6, 0xececec, 0xececec,
    0x484800, 0x404040, 0x69690f, 0x5f5f5f, 0x86861d, 0x7a7a7a, 0xa2a22a, 0x949494,
    0xbbbb35, 0xacacac, 0xd2d240, 0xc1c1c1, 0xe8e84a, 0xd6d6d6, 0xfcfc54, 0xe9e9e9,
    0x7c2c00, 0x3f3f3f, 0x904811, 0x575757, 0xa26221, 0x6e6e6e, 0xb47a30, 0x838383,
    0xc3903d, 0x969696, 0xd2a44a, 0xa7a7a7, 0xdfb755, 0xb8b8b8, 0xecc860, 0xc7c7c7,
    0x901c00, 0x3b3b3b, 0xa33915, 0x555555, 0xb55328, 0x6b6b6b, 0xc66c3a, 0x818181,
    0xd5824a, 0x949494, 0xe39759, 0xa7a7a7, 0xf0aa67, 0xb7b7b7, 0xfcbc74, 0xc7c7c7,
    0x940000, 0x2c2c2c, 0xa71a1a, 0x444444, 0xb83232, 0x5a5a5a, 0xc84848, 0x6e6e6e,
    0xd65c5c, 0x808080, 0xe46f6f, 0x929292, 0xf08080, 0xa1a1a1, 0xfc9090, 0xb0b0b0,
    0x840064, 0x333333, 0x97197a, 0x4a4a4a, 0xa8308f, 0x5f5f5f, 0xb846a2, 0x737373,
    0xc659b3, 0x848484, 0xd46cc3, 0x959595, 0xe07cd2, 0xa4a4a4, 0xec8ce0, 0xb2b2b2,
    0x500084, 0x272727, 0x68199a, 0x3f3f3f, 0x7d30ad, 0x555555, 0x9246c0, 0x6b6b6b,
    0xa459d0, 0x7d7d7d, 0xb56ce0, 0x8f8f8f, 0xc57cee, 0x9f9f9f, 0xd48cfc, 0xaeaeae,
    0x140090, 0x161616, 0x331aa3, 0x313131, 0x4e32b5, 0x494949, 0x6848c6, 0x606060,
    0x7f5cd5, 0x747474, 0x956fe3, 0x888888, 0xa980f0, 0x999999, 0xbc90fc, 0xa9a9a9,
    0x000094, 0x111111, 0x181aa7, 0x292929, 0x2d32b8, 0x404040, 0x4248c8, 0x555555,
    0x545cd6, 0x686868, 0x656fe4, 0x797979, 0x7580f0, 0x898989, 0x8490fc, 0x999999,
    0x001c88, 0x202020, 0x183b9d, 0x3c3c3c, 0x2d57b0, 0x555555, 0x4272c2, 0x6d6d6d,
    0x548ad2, 0x828282, 0x65a0e1, 0x969696, 0x75b5ef, 0xa8a8a8, 0x84c8fc, 0xbababa,
    0x003064, 0x282828, 0x185080, 0x454545, 0x2d6d98, 0x5f5f5f, 0x4288b0, 0x787878,
    0x54a0c5, 0x8d8d8d, 0x65b7d9, 0xa2a2a2, 0x75cceb, 0xb6b6b6, 0x84e0fc, 0xc8c8c8,
    0x004030, 0x2b2b2b, 0x18624e, 0x4a4a4a, 0x2d8169, 0x656565, 0x429e82, 0x7f7f7f,
    0x54b899, 0x979797, 0x65d1ae, 0xadadad, 0x75e7c2, 0xc1c1c1, 0x84fcd4, 0xd4d4d4,
    0x004400, 0x282828, 0x1a661a, 0x474747, 0x328432, 0x626262, 0x48a048, 0x7c7c7c,
    0x5cba5c, 0x939393, 0x6fd26f, 0xa9a9a9, 0x80e880, 0xbdbdbd, 0x90fc90, 0xcfcfcf,
    0x143c00, 0x292929, 0x355f18, 0x4a4a4a, 0x527e2d, 0x686868, 0x6e9c42, 0x848484,
    0x87b754, 0x9d9d9d, 0x9ed065, 0xb5b5b5, 0xb4e775, 0xcbcbcb, 0xc8fc84, 0xdfdfdf,
    0x303800, 0x2f2f2f, 0x505916, 0x4f4f4f, 0x6d762b, 0x6b6b6b, 0x88923e, 0x858585,
    0xa0ab4f, 0x9d9d9d, 0xb7c25f, 0xb3b3b3, 0xccd86e, 0xc8c8c8, 0xe0ec7c, 0xdcdcdc,
    0x482c00, 0x2f2f2f, 0x694d14, 0x4f4f4f, 0x866a26, 0x6b6b6b, 0xa28638, 0x858585,
    0xbb9f47, 0x9d9d9d, 0xd2b656, 0xb3b3b3, 0xe8cc63, 0xc8c8c8, 0xfce070, 0xdcdcdc,
};

CULE_CONST const u8 NTSC_GREY[256] = {
      0,  74,  74, 111, 111, 142, 142, 170, 170, 192, 192, 214, 214, 236, 236,   0,
     64,  15,  95,  29, 122,  42, 148,  53, 172,  64, 193,  74, 214,  84, 233,   0,
     63,  17,  87,  33, 110,  48, 131,  61, 150,  74, 167,  85, 184,  96, 199,   0,
     59,  21,  85,  40, 107,  58, 129,  74, 148,  89, 167, 103, 183, 116, 199,   0,
     44,  26,  68,  50,  90,  72, 110,  92, 128, 111, 146, 128, 161, 144, 176, 100,
     51, 122,  74, 143,  95, 162, 115, 179, 132, 195, 149, 210, 164, 224, 178, 132,
     39, 154,  63, 173,  85, 192, 107, 208, 125, 224, 143, 238, 159, 252, 174, 144,
     22, 163,  49, 181,  73, 198,  96, 213, 116, 227, 136, 240, 153, 252, 169, 148,
     17, 167,  41, 184,  64, 200,  85, 214, 104, 228, 121, 240, 137, 252, 153, 136,
     32, 157,  60, 176,  85, 194, 109, 210, 130, 225, 150, 239, 168, 252, 186, 100,
     40, 128,  69, 152,  95, 176, 120, 197, 141, 217, 162, 235, 182, 252, 200,  48,
     43,  78,  74, 105, 101, 130, 127, 153, 151, 174, 173, 194, 193, 212, 212,   0,
     40,  26,  71,  50,  98,  72, 124,  92, 147, 111, 169, 128, 189, 144, 207,   0,
     41,  24,  74,  45, 104,  66, 132,  84, 157, 101, 181, 117, 203, 132, 223,   0,
     47,  22,  79,  43, 107,  62, 133,  79, 157,  95, 179, 110, 200, 124, 220,   0,
     47,  20,  79,  38, 107,  56, 133,  71, 157,  86, 179,  99, 200, 112, 220,   0,
};

// Channel c of a palette index in RGB (c = 0, 1, 2) or grey (c = 0).
CULE_HD u8 palette_channel(u8 index, bool grey, i32 c) {
    return grey ? NTSC_GREY[index] : (u8)(NTSC_RGB[index] >> (16 - 8 * c));
}

// Channel c of what the observation shows at pixel p: the frame's, or under max-pooling the
// brighter of the frame's and the previous frame's, channel by channel (after the palette).
CULE_HD u8 observed_channel(const u8* frame, const u8* previous, bool pool, bool grey, i32 p, i32 c) {
    u8 v = palette_channel(frame[p], grey, c);
    if (!pool) return v;
    u8 w = palette_channel(previous[p], grey, c);
    return v > w ? v : w;
}

}  // namespace cule
