// The CPU's reads and writes of the TIA's registers.
#pragma once
#include "atari/tia_draw.h"

namespace cule {

// The collision latch (bit of Tia::collision) each collision register reads in D7; D6 reads
// the latch after it (CXBLPF has none in D6).
CULE_CONST const u8 COLLISION_D7_LATCH[8] = {0, 2, 4, 6, 8, 10, 12, 13};

template <bool DRAW>
CULE_HD u8 tia_peek(Tia& t, u8* fb, const TiaInputs& in, u16 addr, u32 cycles, u8 data_bus) {
    tia_update_to<DRAW>(t, fb, (i32)(cycles * 3));
    u8 noise = data_bus & 0x3F;
    u32 reg = addr & TIA_READ_MASK;
    if (reg <= CXPPMM) {   // collision latches: two per register, one for CXBLPF
        u32 b = COLLISION_D7_LATCH[reg];
        u8 v = (t.collision >> b & 1) ? 0x80 : 0;
        if (reg != CXBLPF && (t.collision >> (b + 1) & 1)) v |= 0x40;
        return v | noise;
    }
    if (reg <= INPT3) {   // paddle capacitors, grounded while VBLANK bit 7 dumps them
        i32 r = in.resistance[reg - INPT0];
        if (r == 0) return 0x80 | noise;
        if (r == PADDLE_NONE || t.dump_enabled) return noise;
        return cycles > (u32)t.dump_disabled_cycle + in.charge_cycles[reg - INPT0] ? (0x80 | noise) : noise;
    }
    if (reg == INPT4) return in.inpt4 | noise;
    if (reg == INPT5) return in.inpt5 | noise;
    return noise;
}

// ---- writes -------------------------------------------------------------------------------
// Each register's effect, in the order of the registers: one case of tia_poke's switch each.

CULE_HD bool write_vsync(Tia& t, u8 value, i32 clock) {   // gives true when it ends the frame
    t.vsync = value;
    if (value & 0x02) {
        t.vsync_finish_clock = clock + CLOCKS_PER_LINE;
    } else if (clock >= t.vsync_finish_clock) {
        t.vsync_finish_clock = 0x7FFFFFFF;
        return true;
    }
    return false;
}

CULE_HD void write_vblank(Tia& t, u8 value, u32 cycles) {   // bit 7 grounds the paddle capacitors
    if (!(t.vblank & 0x80) && (value & 0x80)) t.dump_enabled = 1;
    if ((t.vblank & 0x80) && !(value & 0x80)) {
        t.dump_enabled = 0;
        t.dump_disabled_cycle = (i32)cycles;
    }
    t.vblank = value;
}

// The 6507 halts only in a read cycle: not on the second write of a read-modify-write.
CULE_HD void write_wsync(const Tia& t, u32& cycles, bool last_access_was_read) {
    if (!last_access_was_read) return;
    u32 to_end = 76 - ((cycles - (u32)(t.clock_frame_start / 3)) % 76);
    if (to_end < 76) cycles += to_end;
}

CULE_HD void write_nusiz(u8& nusiz, ObjectMask& player, ObjectMask& missile, i16 posp, i16 posm, u8 value) {
    nusiz = value;
    player = player_object(posp, value, 0);
    missile = missile_object(posm, value);
}

CULE_HD void write_ctrlpf(Tia& t, u8 value, i32 hpos) {
    t.ctrlpf = value;
    t.prio_score = (value & 0x06) << 5;
    // The reflection changes at once while the beam has not reached the playfield's right
    // half, else from the next line (end_of_line). HBLANK + 79 is Stella's bound, `68 + 79`
    // colour clocks into the line: pixel 79, one short of the right half's first pixel.
    if (hpos < HBLANK + 79) t.pf_reflect = value & 1;
    t.mbl = ball_object(t.posbl, value);
}

CULE_HD void write_refp(u8& refp, u8& cur_grp, u8 value) {
    if (((value & 0x08) != 0) != (refp != 0)) {
        refp = (value & 0x08) != 0;
        cur_grp = reverse_bits(cur_grp);
    }
}

CULE_HD void write_playfield(Tia& t, u32 addr, u8 value) {
    if (addr == PF0) t.pf = (t.pf & 0x000FFFF0) | ((value >> 4) & 0x0F);
    else if (addr == PF1) t.pf = (t.pf & 0x000FF00F) | ((u32)value << 4);
    else t.pf = (t.pf & 0x00000FFF) | ((u32)value << 12);
    t.enabled = t.pf ? (t.enabled | PF_BIT) : (t.enabled & ~PF_BIT);
}

template <bool DRAW>
CULE_HD void reset_player(Tia& t, u8* fb, u32 addr, i32 hpos, i32 clock) {   // RESP0, RESP1
    i16& pos = addr == RESP0 ? t.posp0 : t.posp1;
    ObjectMask& mask = addr == RESP0 ? t.mp0 : t.mp1;
    u8 nusiz = addr == RESP0 ? t.nusiz0 : t.nusiz1;
    i16 newx = reset_position(hpos, 5);
    i32 when = player_reset_when(nusiz & 7, pos, newx);
    if (when == 1) tia_update_to<DRAW>(t, fb, clock + 11);
    pos = newx;
    mask = player_object(newx, nusiz, when == -1 ? 0 : SKIP_FIRST);
}

// RESM0, RESM1 and RESBL soon after an HMOVE: on the chip the HMOVE's extra motion clocks go on
// for up to 20 CPU cycles and also move an object reset meanwhile, while this TIA moves objects
// at the HMOVE. Stella sets by hand the positions that the games named below need; ALE's TIA
// keeps these cases, so cule does too.
CULE_HD void reset_missile0(Tia& t, i32 hpos, i32 clock) {
    t.posm0 = reset_position(hpos, 4);
    if (clocks_since(t.last_hmove_clock, clock) == 20 * 3 && hpos == 69) t.posm0 = 8;   // Dolphin
    t.mm0 = missile_object(t.posm0, t.nusiz0);
}

CULE_HD void reset_missile1(Tia& t, i32 hpos, i32 clock) {
    t.posm1 = reset_position(hpos, 4);
    if (clocks_since(t.last_hmove_clock, clock) == 3 * 3 && hpos == 18) t.posm1 = 3;   // Pitfall II
    t.mm1 = missile_object(t.posm1, t.nusiz1);
}

CULE_HD void reset_ball(Tia& t, i32 hpos, i32 clock) {
    i32 since_hmove = clocks_since(t.last_hmove_clock, clock);
    t.posbl = reset_position(hpos, 4);
    if (since_hmove == 18 * 3 && (hpos == 60 || hpos == 69)) t.posbl = 10;   // Escape from the Mindmaster
    else if (since_hmove == 3 * 3 && hpos == 18) t.posbl = 3;   // Decathlon
    else if (since_hmove == 7 * 3 && hpos == 30) t.posbl = 6;   // Robot Tank (ALE's and cule's Robotank)
    else if (since_hmove == 6 * 3 && hpos == 27) t.posbl = 5;   // Hole Hunter
    t.mbl = ball_object(t.posbl, t.ctrlpf);
}

CULE_HD void write_grp0(Tia& t, u8 value) {   // also moves GRP1 into its delay register
    t.grp0 = value;
    t.dgrp1 = t.grp1;
    update_player_graphics(t);
}

CULE_HD void write_grp1(Tia& t, u8 value) {   // also moves GRP0 and ENABL into their delay registers
    t.grp1 = value;
    t.dgrp0 = t.grp0;
    t.denabl = t.enabl;
    update_player_graphics(t);
    update_ball_enable(t);
}

// HMM0 7 -> 6 right after an HMOVE starts Cosmic Ark's star field (end_of_line).
CULE_HD void write_hmm0(Tia& t, u8 value, i32 clock) {
    if (clocks_since(t.last_hmove_clock, clock) == 21 * 3 && t.hmm0 == 7 && (value >> 4) == 6) {
        t.m0_ark = 1;
        t.m0_ark_counter = 0;
    }
    t.hmm0 = value >> 4;
}

CULE_HD void write_resmp(Tia& t, u32 addr, u8 value) {   // releasing centres the missile on its player
    bool p0 = addr == RESMP0;
    u8& resmp = p0 ? t.resmp0 : t.resmp1;
    if (resmp && !(value & 0x02)) {
        u8 nusiz = p0 ? t.nusiz0 : t.nusiz1;
        i16& m = p0 ? t.posm0 : t.posm1;
        m = wrap_position((p0 ? t.posp0 : t.posp1) + player_width(nusiz & 7) / 2);
        (p0 ? t.mm0 : t.mm1) = missile_object(m, nusiz);
    }
    resmp = value & 0x02;
    update_missile_enables(t);
}

CULE_HD void hmove(Tia& t, i32 hpos, i32 clock) {
    i32 x = hpos / 3;
    if (t.allow_hmove_blank && hmove_is_early(x)) t.hmove_blank = 1;
    const HmoveMotions motion = hmove_motions(x);
    // Most of Seaquest's HMOVEs (73%) find every motion register cleared, which moves nothing
    // where a cleared register's motion is 0: the host skips their sums (STILL_HMOVES_SKIPPED),
    // and the masks too, which every write that moves or resizes an object keeps, unless the
    // HMOVE ends the Cosmic Ark trick or shows a reset player's first copy again.
    const bool still = STILL_HMOVES_SKIPPED && (t.hmp0 | t.hmp1 | t.hmm0 | t.hmm1 | t.hmbl) == 0 && motion(0) == 0;
    if (!still) {
        t.posp0 = wrap_position(t.posp0 + motion(t.hmp0));
        t.posp1 = wrap_position(t.posp1 + motion(t.hmp1));
        t.posm0 = wrap_position(t.posm0 + motion(t.hmm0));
        t.posm1 = wrap_position(t.posm1 + motion(t.hmm1));
        t.posbl = wrap_position(t.posbl + motion(t.hmbl));
    }
    if (!still || t.m0_ark || ((t.mp0.shape | t.mp1.shape) & SKIP_FIRST)) {
        t.m0_ark = 0;   // an HMOVE ends the Cosmic Ark trick
        tia_rebuild_masks(t);
    }
    t.last_hmove_clock = clock;
}

// ---- tia_poke -----------------------------------------------------------------------------

// A playfield write takes effect at the first 4-clock playfield cell boundary at least 2 colour
// clocks after it; by the write's CPU cycle within the line, mod 4 (Stella's table).
CULE_CONST const u8 PLAYFIELD_WRITE_DELAY[4] = {4, 5, 2, 3};

// Stella's poke delays: the picture is drawn this many colour clocks past a write before the
// write takes effect.
CULE_HD i32 write_delay(const Tia& t, u32 addr, i32 clock) {
    switch (addr) {
        case VBLANK: case REFP0: case REFP1: case GRP0: case GRP1: return 1;
        case NUSIZ0: case NUSIZ1: case RESM0: case RESM1: return 8;
        case PF0: case PF1: case PF2: return PLAYFIELD_WRITE_DELAY[(clocks_into_line(t, clock) / 3) & 3];
        default: return 0;
    }
}

// Whether a write leaves the TIA as it was: the same playfield bits, graphics and their delay
// registers, enables, colours, blanking, reflections. On the host such a write defers its drawing
// as the writes of NOT_DRAWN do (tia_poke): the spans either side of it show the same registers.
// Most of a frame's writes (Pong's PF, GRP and ENA writes every two lines) write what is there.
CULE_HD bool tia_write_keeps_state(const Tia& t, u32 addr, u8 value) {
    switch (addr) {
        case VBLANK: return value == t.vblank;
        case COLUP0: case COLUP1: case COLUPF: case COLUBK:
            return colour_with_loss(t, value) == t.color[COLOR_SLOT[addr - COLUP0]];
        case REFP0: return ((value & 0x08) != 0) == (t.refp0 != 0);
        case REFP1: return ((value & 0x08) != 0) == (t.refp1 != 0);
        case PF0: return (u32)(value >> 4) == (t.pf & 0x0F);
        case PF1: return value == (u8)(t.pf >> 4);
        case PF2: return value == (u8)(t.pf >> 12);
        case GRP0: return value == t.grp0 && t.dgrp1 == t.grp1;
        case GRP1: return value == t.grp1 && t.dgrp0 == t.grp0 && t.denabl == t.enabl;
        case ENAM0: return (value & 0x02) == t.enam0;
        case ENAM1: return (value & 0x02) == t.enam1;
        case ENABL: return (value & 0x02) == t.enabl;
        case VDELP0: return (value & 1) == t.vdelp0;
        case VDELP1: return (value & 1) == t.vdelp1;
        case VDELBL: return (value & 1) == t.vdelbl;
        default: return false;
    }
}

// A deferred write owes the drawing up to `to` (tia_draw_deferred, tia_poke): the latest such
// clock, as a playfield write's delay reaches past a write a CPU cycle after it (a JSR's or BRK's
// pushes).
CULE_HD void defer_drawing(Tia& t, i32 to) {
    if (to > t.clock_deferred_update) t.clock_deferred_update = to;
}

// Whether a write of what its register holds leaves the span open (tia_poke): on the host. A
// GPU warp's lanes would then split their spans at different clocks: the render model (5 games,
// 64 envs) gave the render pass 1.3x the store passes, and NVRTC the state pass 6 registers more
// (cule_step_logged, sm_80). So the kernels, and the trace build that models them, draw there.
#if defined(__CUDA_ARCH__) || defined(CULE_TRACE)
constexpr bool DEFER_KEPT_WRITES = false;
#else
constexpr bool DEFER_KEPT_WRITES = true;
#endif

// The write registers in [first, last], as bits of a set indexed by register.
CULE_HD constexpr u64 write_registers(u32 first, u32 last) { return ((2ull << (last - first)) - 1) << first; }

// The writes that cannot change the picture: WSYNC, RSYNC, audio, motion values, HMCLR, unused
// addresses.
constexpr u64 NOT_DRAWN = write_registers(WSYNC, RSYNC) | write_registers(AUDC0, AUDV1) |
                          write_registers(HMP0, HMBL) | write_registers(HMCLR, HMCLR) |
                          write_registers(CXCLR + 1, TIA_WRITE_MASK);

// The writes that cannot change what a frame's drawing makes: on a frame not drawn, whose drawing
// latches collisions alone, the colours too.
template <bool DRAW>
constexpr u64 NOT_DRAWN_IN = DRAW ? NOT_DRAWN : NOT_DRAWN | write_registers(COLUP0, COLUBK);

CULE_HD void write_colour(Tia& t, u32 addr, u8 value) {
    t.color[COLOR_SLOT[addr - COLUP0]] = colour_with_loss(t, value);
}

// Whether `clock` lies past the frame's last scanline (a line count above max_scanlines), without
// a division.
CULE_HD bool past_last_line(const Tia& t, i32 clock) {
    return (u32)clock - (u32)t.clock_frame_start >= (u32)CLOCKS_PER_LINE * (max_scanlines(t.pal) + 1);
}

// The writes of NOT_DRAWN's registers, as cases of a switch on `addr` (write_undrawn_register and
// write_register): a switch calling another took NVRTC's cule_step_logged 6 registers more (sm_80).
#define CULE_UNDRAWN_REGISTER_CASES                                            \
    case WSYNC: write_wsync(t, cycles, last_access_was_read); break;           \
    case HMP0: t.hmp0 = value >> 4; break;                                     \
    case HMP1: t.hmp1 = value >> 4; break;                                     \
    case HMM0: write_hmm0(t, value, clock); break;                             \
    case HMM1: t.hmm1 = value >> 4; break;                                     \
    case HMBL: t.hmbl = value >> 4; break;                                     \
    case HMCLR: t.hmp0 = t.hmp1 = t.hmm0 = t.hmm1 = t.hmbl = 0; break;         \
    case AUDC0: case AUDC1: case AUDF0: case AUDF1: case AUDV0: case AUDV1:    \
        t.audio[addr - AUDC0] = value;                                         \
        t.audio_written |= (u8)(1 << (addr - AUDC0));                          \
        break;

// A write to a register of NOT_DRAWN_IN<false>.
CULE_HD void write_undrawn_register(Tia& t, u32 addr, u8 value, i32 clock, u32& cycles, bool last_access_was_read) {
    switch (addr) {
        CULE_UNDRAWN_REGISTER_CASES
        case COLUP0: case COLUP1: case COLUPF: case COLUBK: write_colour(t, addr, value); break;
        default: break;   // RSYNC and unused addresses
    }
}

// A write to any register, once drawn up to it where it must be. Returns true when it ends the
// frame.
template <bool DRAW>
CULE_HD bool write_register(Tia& t, u8* fb, u32 addr, u8 value, i32 clock, u32& cycles, bool last_access_was_read) {
    auto hpos = [&] { return clocks_into_line(t, clock); };   // in the cases that use it alone
    switch (addr) {
        case VSYNC: return write_vsync(t, value, clock);
        case VBLANK: write_vblank(t, value, cycles); break;
        case NUSIZ0: write_nusiz(t.nusiz0, t.mp0, t.mm0, t.posp0, t.posm0, value); break;
        case NUSIZ1: write_nusiz(t.nusiz1, t.mp1, t.mm1, t.posp1, t.posm1, value); break;
        case COLUP0: case COLUP1: case COLUPF: case COLUBK: write_colour(t, addr, value); break;
        case CTRLPF: write_ctrlpf(t, value, hpos()); break;
        case REFP0: write_refp(t.refp0, t.cur_grp0, value); break;
        case REFP1: write_refp(t.refp1, t.cur_grp1, value); break;
        case PF0: case PF1: case PF2: write_playfield(t, addr, value); break;
        case RESP0: case RESP1: reset_player<DRAW>(t, fb, addr, hpos(), clock); break;
        case RESM0: reset_missile0(t, hpos(), clock); break;
        case RESM1: reset_missile1(t, hpos(), clock); break;
        case RESBL: reset_ball(t, hpos(), clock); break;
        case GRP0: write_grp0(t, value); break;
        case GRP1: write_grp1(t, value); break;
        case ENAM0: t.enam0 = value & 0x02; update_missile_enables(t); break;
        case ENAM1: t.enam1 = value & 0x02; update_missile_enables(t); break;
        case ENABL: t.enabl = value & 0x02; update_ball_enable(t); break;
        case VDELP0: t.vdelp0 = value & 1; update_player_graphics(t); break;
        case VDELP1: t.vdelp1 = value & 1; update_player_graphics(t); break;
        case VDELBL: t.vdelbl = value & 1; update_ball_enable(t); break;
        case RESMP0: case RESMP1: write_resmp(t, addr, value); break;
        case HMOVE: hmove(t, hpos(), clock); break;
        case CXCLR: t.collision = 0; break;
        CULE_UNDRAWN_REGISTER_CASES
        default: break;   // RSYNC and unused addresses
    }
    return false;
}

// CPU writes to the TIA, `addr` masked to TIA_WRITE_MASK, in two parts. Stella draws up to every
// write. A write that cannot change the picture (NOT_DRAWN) or, on the host, writes what its
// register holds (DEFER_KEPT_WRITES) leaves that to the next drawing: the pixels come out the
// same, as the only trace of where a span ended (the four-pixel step's overrun) is covered by the
// span after it. Only the frame's last span shows, so a write ending the frame draws, and a frame
// cut by the instruction cap catches up in console_frame.
//
// The first part, tia_poke_owed (the host's alone: DEFER_KEPT_WRITES): a write that leaves its
// drawing owed, done (WRITE_OWED); otherwise, having changed nothing, whether the write that must
// draw first also ends the frame. The host runs it before the call of the second (bus_poke_chip):
// it needs few registers.
enum TiaWrite : u32 { WRITE_OWED, WRITE_DRAWS, WRITE_ENDS_FRAME };

template <bool DRAW>
CULE_HD TiaWrite tia_poke_owed(Tia& t, u32 addr, u8 value, u32& cycles, bool last_access_was_read) {
    const i32 clock = (i32)(cycles * 3);
    if (past_last_line(t, clock)) return WRITE_ENDS_FRAME;
    if (NOT_DRAWN_IN<DRAW> >> addr & 1) {
        defer_drawing(t, clock);
        write_undrawn_register(t, addr, value, clock, cycles, last_access_was_read);
        return WRITE_OWED;
    }
    if (!tia_write_keeps_state(t, addr, value)) return WRITE_DRAWS;
    defer_drawing(t, clock + write_delay(t, addr, clock));
    return WRITE_OWED;
}

// The second part: the drawing up to the write and past its delay, and past a deferred write's
// delay too, as Stella had drawn (a playfield write's reaches past a write a cycle later); then the
// write. Returns true when it ends the frame (`end_frame`: the first part's finding).
template <bool DRAW>
CULE_HD bool tia_poke_drawn(Tia& t, u8* fb, u32 addr, u8 value, u32& cycles, bool last_access_was_read,
                            bool end_frame) {
    const i32 clock = (i32)(cycles * 3), to = clock + write_delay(t, addr, clock);
    tia_update_to<DRAW, true>(t, fb, to > t.clock_deferred_update ? to : t.clock_deferred_update);
    return write_register<DRAW>(t, fb, addr, value, clock, cycles, last_access_was_read) || end_frame;
}

// CPU write to the TIA. Returns true when it ends the frame. The host's is the two parts; the
// kernels' (and the trace build's, which models them) is one pass, which NVRTC gives fewer
// registers (sm_90: the render kernel 54 against 62, the in-passes state kernel 48 bytes of spill
// stores against 52).
template <bool DRAW>
CULE_HD bool tia_poke(Tia& t, u8* fb, u16 addr, u8 value, u32& cycles, bool last_access_was_read) {
    addr &= TIA_WRITE_MASK;
    if (DEFER_KEPT_WRITES) {
        const TiaWrite part = tia_poke_owed<DRAW>(t, addr, value, cycles, last_access_was_read);
        return part != WRITE_OWED &&
               tia_poke_drawn<DRAW>(t, fb, addr, value, cycles, last_access_was_read, part == WRITE_ENDS_FRAME);
    }
    const i32 clock = (i32)(cycles * 3);
    const bool end_frame = past_last_line(t, clock);
    if ((NOT_DRAWN_IN<DRAW> >> addr & 1) && !end_frame) {
        defer_drawing(t, clock);
    } else {
        // The kernels draw at a write of what its register holds, which the host leaves owed.
        const i32 to = clock + write_delay(t, addr, clock);
        tia_update_to<DRAW>(t, fb, to > t.clock_deferred_update ? to : t.clock_deferred_update);
    }
    return write_register<DRAW>(t, fb, addr, value, clock, cycles, last_access_was_read) || end_frame;
}

#undef CULE_UNDRAWN_REGISTER_CASES

}  // namespace cule
