// The TIA's half of the split between emulation and drawing (docs/architecture.md). The state-update
// pass runs its frames without pixels and logs, for the frames a step shows, the TIA as each
// frame began and every CPU access to the TIA after it, with its cycle. The render pass replays
// the log through the same TIA code, drawing. A write is replayed as the write; a read, which
// changes no register, as the drawing up to its clock that it makes the TIA do, so that both
// passes draw the same spans.
#pragma once
#include "types.h"
#include "atari/tia.h"

namespace cule {

enum : u32 {
    TIA_LOG_FRAMES = 2,        // a step shows its last two frames (the observation, the one it pools with)
    TIA_LOG_EVENTS = 8192,     // both frames' accesses; in random play an Atari-57 step logs at most 5,990
};
// One access in 32 bits: the frame's CPU cycle counter at the access (17 bits: 1,700 lines, far
// past any frame's end), a read flag, the register, the value written.
typedef u32 TiaEvent;
enum : u32 { TIA_EVENT_CYCLES = 1u << 17, TIA_EVENT_READ = 1u << 14 };

CULE_HD u32 tia_event_cycles(TiaEvent e) { return e >> 15; }
CULE_HD u8 tia_event_addr(TiaEvent e) { return (u8)((e >> 8) & TIA_WRITE_MASK); }
CULE_HD u8 tia_event_value(TiaEvent e) { return (u8)e; }

// A log's events lie outside it, event k at events[k * step]: on the host each log's own run of
// TIA_LOG_EVENTS (step 1); on the GPU a warp's 32 logs interleaved, event k of lane l at word
// k x 32 + l of the warp's block (step WARP_LANES, cule/backends/cuda.py's log_events), so that
// the lanes of a pass storing or replaying one count of events share a sector where each lane's
// own run gave each its own (kernel_models/simt_model.py's log_sectors: 8x fewer on Pong at
// ncu's age). Whoever steps the env sets `events` and `step` before the state pass.
struct TiaLog {
    Tia start[TIA_LOG_FRAMES];   // the TIA as logged frame k began
    TiaEvent* events;
    u32 step;
    u32 end[TIA_LOG_FRAMES];     // the events of frame k are [end[k - 1], end[k])
    u32 count;                   // events seen; above TIA_LOG_EVENTS the log overflowed
    u32 frames;                  // frames logged
    u32 whole;                   // bit k: frame k began and ended (VSYNC) while logged
    u32 full;                    // bit k: frame k reached the bottom of the screen
    u32 padding;
};

CULE_HD void tia_log_clear(TiaLog& log) { log.count = log.frames = log.whole = log.full = 0; }

// `count`: log.count, or where a frame keeps it meanwhile (console.h, TiaSlot), read once: the
// event's store could alias it. `events`, `step`: the log's (where a frame keeps them, TiaPlace).
CULE_HD void tia_log_event(TiaEvent* events, u32 step, u32& count, u32 cycles, bool read, u32 addr, u8 value) {
    u32 n = cycles < TIA_EVENT_CYCLES ? count : TIA_LOG_EVENTS;   // not representable: no replay
    if (n < TIA_LOG_EVENTS)
        events[(u64)n * step] = cycles << 15 | (read ? TIA_EVENT_READ : 0) | (addr & TIA_WRITE_MASK) << 8 | value;
    count = n + 1;
}

// A logged frame begins, `t` as the CPU starts on it; it ends with `began` telling whether it was a
// new frame (not the rest of one the instruction cap cut short).
CULE_HD void tia_log_begin_frame(TiaLog& log, const Tia& t) {
    if (log.frames < TIA_LOG_FRAMES) log.start[log.frames] = t;
}

CULE_HD void tia_log_end_frame(TiaLog& log, const Tia& t, bool began) {
    if (log.frames >= TIA_LOG_FRAMES) {   // more frames than a step shows: not replayable
        log.count = TIA_LOG_EVENTS + 1;
        return;
    }
    u32 k = log.frames++;
    log.end[k] = log.count;
    if (began && !t.partial_frame) log.whole |= 1u << k;
    if (t.frame_pos >= frame_pixels(t)) log.full |= 1u << k;
}

// Whether replaying the log leaves both frame buffers as ALE's. Every logged frame must have
// begun and ended while logged; where earlier frames of the step went unlogged (`all_logged`
// false) the last two must also be full height, or rows of an unlogged frame would show.
CULE_HD bool tia_log_replayable(const TiaLog& log, bool all_logged) {
    u32 every = (1u << log.frames) - 1;
    if (log.count > TIA_LOG_EVENTS || log.whole != every) return false;
    return all_logged || (log.frames == TIA_LOG_FRAMES && log.full == every);
}

// Replays one logged access into frame buffer `fb`: a read draws up to it, a write draws up to it
// and changes the register.
CULE_HD void tia_replay_access(Tia& t, u8* fb, TiaEvent ev) {
    u32 cycles = tia_event_cycles(ev);   // a WSYNC replayed moves it; only the CPU would see that
    if (ev & TIA_EVENT_READ) tia_update_to<true>(t, fb, (i32)(cycles * 3));
    else tia_poke<true>(t, fb, tia_event_addr(ev), tia_event_value(ev), cycles, false);
}

// Draws logged frame k into its frame buffer. Each frame starts from its own copy of the TIA, so
// the frames of a log can be drawn in any order, or at once. The log's fields are read once: a
// pixel's store could alias them.
CULE_HD void tia_replay_frame(const TiaLog& log, u32 k, u8* screen) {
    Tia t = log.start[k];
    u8* fb = screen + t.front * frame_pixels(t);
    const TiaEvent* events = log.events;
    const u32 step = log.step, end = log.end[k];
    for (u32 e = k ? log.end[k - 1] : 0; e < end; ++e) {
        TiaEvent ev = events[(u64)e * step];
        CULE_TRACE_EVENT(TIA, (ev & TIA_EVENT_READ) != 0, tia_event_addr(ev), k << 24 | tia_event_cycles(ev));
        tia_replay_access(t, fb, ev);
    }
}

#ifdef __CUDA_ARCH__
// tia_replay_frame with the lanes of a warp that draw frames taking their accesses in passes: a
// pass runs the lanes whose next access comes first in its frame (the least CPU cycle) and of
// those the lowest case (a read, or the register written), with every lane whose next access is of
// that case, so that lanes drawing the same part of their screens draw together. Each lane still
// replays its own log in order, so the pixels are tia_replay_frame's. Two reductions a pass
// (kernel_models/render_model.py, 256 envs 3,000 steps old: lanes a pass of the accesses 4.8 -> 29.4
// on Seaquest, 5.3 -> 25.3 on Ms. Pac-Man; passes storing pixels 1.3-4.0x fewer on the five games).
CULE_HD void tia_replay_frame_by_clock(const TiaLog& log, u32 k, u8* screen) {
    enum : u32 { NONE = ~0u, READ_CASE = 0x100 };
    const u32 lanes = warp_lanes();
    Tia t = log.start[k];
    u8* fb = screen + t.front * frame_pixels(t);
    const TiaEvent* events = log.events;
    const u32 step = log.step, end = log.end[k];
    for (u32 e = k ? log.end[k - 1] : 0;;) {
        const bool runs = e < end;
        const TiaEvent ev = runs ? events[(u64)e * step] : 0;
        const u32 cycles = tia_event_cycles(ev);
        const u32 first = warp_min(lanes, runs ? cycles : NONE);
        if (first == NONE) break;
        const u32 kind = ev & TIA_EVENT_READ ? READ_CASE : tia_event_addr(ev);
        if (runs && kind == warp_min(lanes, runs && cycles == first ? kind : NONE)) {
            tia_replay_access(t, fb, ev);
            ++e;
        }
    }
}
#endif

CULE_HD void tia_replay(const TiaLog& log, u8* screen) {
    for (u32 k = 0; k < log.frames; ++k) tia_replay_frame(log, k, screen);
}

}  // namespace cule
