// The TIA's sound generator as ALE's sound observation runs it (ale-py's sound_obs: Stella 2.4's
// TIASound driven by ALE's SoundRaw). After every frame ALE plays, emulated or not, the audio
// registers written since the last such frame are applied in order (their timing within the
// frame is ignored, so only each register's last value counts), then the two channels' dividers
// and poly counters run for 512 samples at the TIA's audio rate (31,400 Hz both in and out: one
// sample per divider clock); the observation is that frame's 512 samples.
#pragma once
#include "atari/tia_state.h"

namespace cule {

enum : i32 { SOUND_SAMPLES = 512 };

struct TiaSound {
    u8 audio[AUDIO_REGISTERS];      // AUDC0, AUDC1, AUDF0, AUDF1, AUDV0, AUDV1, as last applied
    u8 divider[AUDIO_CHANNELS];     // clocks counted towards the next pulse of each channel's AUDF
    u8 poly4[AUDIO_CHANNELS];       // the 4-bit register, whose bit 3 is the channel's output
    u8 poly5[AUDIO_CHANNELS];       // the 5-bit register
};

// TIASound's reset, when ALE loads a ROM; nothing else resets it (the generator keeps running
// across a reset_game and a restored state, as ALE's does).
CULE_HD TiaSound sound_power_on() {
    TiaSound s = {};
    for (i32 c = 0; c < AUDIO_CHANNELS; ++c) s.poly4[c] = s.poly5[c] = 1;
    return s;
}

// The audio registers the CPU wrote since the last call, applied to the generator.
CULE_HD void sound_apply(TiaSound& s, Tia& t) {
    for (i32 r = 0; r < AUDIO_REGISTERS; ++r) {
        const bool frequency = r / AUDIO_CHANNELS == 1;   // AUDF: five bits; AUDC, AUDV: four
        if (t.audio_written >> r & 1) s.audio[r] = t.audio[r] & (frequency ? 0x1F : 0x0F);
    }
    t.audio_written = 0;
}

// The shift registers, clocked once: a 5-bit LFSR (taps 4 and 2), a 4-bit one (taps 3 and 2),
// a divide by 2 and a divide by 6 in the 4-bit register; stuck at zero they restart from 1.
CULE_HD u8 clock_poly5(u8 p5) { return (p5 & 0x1F) ? (u8)(p5 << 1 | ((p5 >> 4 ^ p5 >> 2) & 1)) : 1; }
CULE_HD u8 clock_poly4(u8 p4) { return (p4 & 0x0F) ? (u8)(p4 << 1 | ((p4 >> 3 ^ p4 >> 2) & 1)) : 1; }
CULE_HD u8 clock_div2(u8 p4) { return (u8)(p4 << 1 | (~p4 & 1)); }
CULE_HD u8 clock_div6(u8 p4) { return (u8)((u8)~p4 << 1 | (!(p4 & 4) && (p4 & 7))); }   // (u8): ~p4 is a negative int

// One divider pulse of a channel: AUDC picks what the registers do. Apart from five special
// values, its low two bits choose when the 4-bit register is clocked (always, or after the 5-bit
// one, clocked, reaches a point of its divide-by-31 cycle or has bit 4 set), its high two what
// that clock does (the 4-bit LFSR, divide by 2, divide by 6).
CULE_HD void clock_channel(u8 control, u8& p4, u8& p5) {
    switch (control) {
        case 0x0: case 0xB: p4 = (u8)(p4 << 1 | 1); return;   // set to 1
        case 0x8:                                             // the two as one 9-bit LFSR (taps 8 and 4)
            p5 = ((p5 & 0x1F) || (p4 & 0x0F)) ? (u8)(p5 << 1 | ((p4 >> 3 ^ p5 >> 4) & 1)) : 1;
            p4 = (u8)(p4 << 1 | (p5 >> 5 & 1));
            return;
        case 0x9: p5 = clock_poly5(p5); p4 = (u8)(p4 << 1 | (p5 >> 5 & 1)); return;   // the 5-bit poly
        case 0xA:                                                                   // divide by 31
            p5 = clock_poly5(p5);
            if ((p5 & 0x0F) == 0x08) p4 = (u8)(p4 << 1 | (p5 >> 4 & 1));
            return;
        default: break;
    }
    bool clocked = true;
    if (control & 2) {
        p5 = clock_poly5(p5);
        clocked = (control & 1) ? (p5 & 0x10) != 0 : (p5 & 0x0F) == 0x08;
    }
    if (!clocked) return;
    if (control < 0x4) p4 = clock_poly4(p4);
    else if (control < 0x8) p4 = clock_div2(p4);
    else p4 = clock_div6(p4);
}

// `n` samples of both channels mixed (128 silent, each channel up to 4 x AUDV above), into
// `out` where it is not null; the generator advances either way.
CULE_HD void sound_samples(TiaSound& s, u8* out, i32 n) {
    for (i32 i = 0; i < n; ++i) {
        i32 sample = 128;
        for (i32 c = 0; c < AUDIO_CHANNELS; ++c) {
            if (++s.divider[c] > s.audio[AUDIO_CHANNELS + c]) {   // AUDF: a pulse every AUDF + 1 clocks
                s.divider[c] = 0;
                clock_channel(s.audio[c], s.poly4[c], s.poly5[c]);
            }
            if (s.poly4[c] & 8) sample += s.audio[2 * AUDIO_CHANNELS + c] << 2;
        }
        if (out) out[i] = (u8)sample;
    }
}

}  // namespace cule
