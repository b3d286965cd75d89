// Instruction traces for the SIMT model (kernel_models/simt_model.py): a host build with -DCULE_TRACE
// records, per environment, every 6502 instruction (its PC and where in the ROM it lies), every
// bus access it makes, the timer waits the bus runs at once, and where frames and steps begin and
// end; and, apart, what the render pass's replay of the TIA's log does (kernel_models/render_model.py).
// Other builds compile the hooks (CULE_TRACE_* in types.h) to nothing. Host only.
#pragma once
#include <vector>

namespace cule::trace {

enum Kind : unsigned char {
    INSN,    // addr: the PC; extra: the code key (code_key below)
    READ,    // addr: the bus address; value: the byte; extra: read_key below
    WRITE,   // addr, value; extra: the CPU cycle for the chips, else 0
    WAIT,    // a timer-polling loop run at once: extra instructions skipped
    FRAME,   // value 0: a frame begins (extra: 1 if drawn or logged), 1: it ends (extra: 1 if whole)
    STEP,    // a vector-env step begins; value 1: it is a reset from the pool
    // The render pass (kernels/atari/tia_log.h):
    TIA,     // a logged access replayed: value 1 if a read; addr: the register; extra: the frame
             // << 24 | the CPU cycle of the access in the frame
    SPAN,    // pixels drawn: value the way (SPAN_*); addr: how many; extra: the first one's offset
};
enum SpanWay : unsigned char { SPAN_BLANK, SPAN_BACKGROUND, SPAN_OBJECTS, SPAN_HMOVE_BLANK };

// 8 bytes an event, as numpy reads them (kernel_models/simt_model.py, TRACE_EVENT).
struct Event {
    unsigned char kind, value;
    unsigned short addr;
    unsigned int extra;
};
static_assert(sizeof(Event) == 8, "numpy reads events as 8 bytes");

// A key for the code at a PC that tells banks apart: the offset of its byte in the ROM image when
// the cartridge's window of plain reads holds it, else CODE_OUTSIDE | bank << 16 | PC (RAM, or a
// hotspot page); the same key for a read is its ROM offset + 1, 0 off the cartridge, or the CPU
// cycle of a chip access (TIA and RIOT: what the TIA's work depends on).
enum : unsigned int { CODE_OUTSIDE = 0x80000000u };

// The events of the environment this thread steps (VecEnv::step selects it), or none.
inline thread_local std::vector<Event>* sink = nullptr;
// Whether any environment is traced: a hook tests it before it reads the thread's sink (in a
// shared library a call, __tls_get_addr) or works out its event, which made untraced steps 2.6x
// slower.
inline bool tracing = false;

inline void record(Kind kind, unsigned value, unsigned addr, unsigned extra) {
    if (sink) sink->push_back(Event{(unsigned char)kind, (unsigned char)value, (unsigned short)addr, extra});
}

}  // namespace cule::trace

#define CULE_TRACE_EVENT(kind, value, addr, extra)                                                          \
    do {                                                                                                    \
        if (::cule::trace::tracing)                                                                         \
            ::cule::trace::record(::cule::trace::kind, (unsigned)(value), (unsigned)(addr), (unsigned)(extra)); \
    } while (0)
