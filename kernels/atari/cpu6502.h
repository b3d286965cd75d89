// The 6507 as ALE's Stella core (M6502Low) runs it. Each opcode is declared once in a table
// (addressing mode, operation, and so the access it makes at its operand address); cpu_step
// resolves the operand address by mode, reads there if the access reads, performs the operation
// and writes its result there if the access writes. Two small switches instead of 256 cases
// also keep GPU warps on few paths.
//
// Stella's conventions, kept because games observe them through the bus and the clock:
// - the instruction's whole cycle count is added right after the opcode fetch, before any of
//   its accesses, so TIA writes see the clock at the instruction's end; reads that cross a page
//   and taken branches add their extra cycles while executing;
// - no dummy accesses where the 6502 makes them: indexed and indirect modes read no
//   intermediate address, read-modify-write instructions write once (the result), implied
//   instructions and branches read nothing after the opcode; BRK, JSR, RTS, RTI, PLA and PLP do
//   make the extra stack/program reads listed below (they move the data bus and can hit bank
//   hotspots). tests/test_cpu_bus.py holds every opcode's accesses against the 6502's;
// - (zp,X) and (zp),Y fetch the pointer's high byte from pointer + 1 without zero-page wrap;
// - the B flag always reads as set (the 6507 has no way to clear it here);
// - decimal mode follows Stella's table arithmetic, invalid BCD digits included;
// - the 12 JAM opcodes stop the CPU for good (Stella's fatal error: no further instruction runs).
#pragma once
#include "types.h"

namespace cule {

struct Cpu6502 {
    u16 pc;
    u8 a, x, y, sp;
    u8 p;        // NV1BDIZC as PHP pushes it
    u8 halted;   // a JAM opcode ran
};

enum : u8 { FLAG_C = 0x01, FLAG_Z = 0x02, FLAG_I = 0x04, FLAG_D = 0x08, FLAG_B = 0x10, FLAG_V = 0x40, FLAG_N = 0x80 };

namespace m6502 {

enum Mode : u8 { IMP, IMM, REL, ZP, ZPX, ZPY, ABS, ABX, ABY, IZX, IZY, IND, JAM };

// The data access an instruction makes at its operand address once the mode has resolved it.
// Bit flags: a read-modify-write reads, then writes the result (once, as Stella does).
enum Access : u8 { NONE = 0, READ = 1, WRITE = 2, RMW = READ | WRITE };

enum Op : u8 {
    ADC, AND, BIT, CMP, CPX, CPY, EOR, LDA, LDX, LDY, ORA, SBC, NOP, LAX, ANC, ASR, ARR, ANE, LXA, SBX, LAS,
    BPL, BMI, BVC, BVS, BCC, BCS, BNE, BEQ,   // in this order: see the branch case of `execute`
    ASL, LSR, ROL, ROR, INC, DEC, SLO, RLA, SRE, RRA, DCP, ISB,
    STA, STX, STY, SAX, SHA, SHS, SHX, SHY, JMP,
    ASL_A, LSR_A, ROL_A, ROR_A, CLC, SEC, CLI, SEI, CLV, CLD, SED, DEX, DEY, INX, INY, TAX, TAY, TXA,
    TYA, TSX, TXS, PHA, PHP, PLA, PLP, BRK, JSR, RTS, RTI, KIL,
};

// The access each operation makes in a mode with an operand address. Implied operations make
// their own (stack) accesses, if any.
CULE_HD constexpr Access access_of(Mode mode, Op op) {
    if (mode == IMP || mode == JAM) return NONE;
    switch (op) {
        case STA: case STX: case STY: case SAX: case SHA: case SHS: case SHX: case SHY:
            return WRITE;
        case ASL: case LSR: case ROL: case ROR: case INC: case DEC:
        case SLO: case RLA: case SRE: case RRA: case DCP: case ISB:
            return RMW;
        case JMP:   // the operand address is the target: nothing is read there
            return NONE;
        default:
            return READ;
    }
}

// Mode in bits 0-3, access in bits 4-5, operation in bits 6-12 of a 16-bit entry.
#define E(mode, op) (u16)((op) << 6 | access_of(mode, op) << 4 | (mode))
CULE_CONST const u16 OPCODES[256] = {
    // 0x00
    E(IMP, BRK), E(IZX, ORA), E(JAM, KIL), E(IZX, SLO), E(ZP, NOP), E(ZP, ORA), E(ZP, ASL), E(ZP, SLO),
    E(IMP, PHP), E(IMM, ORA), E(IMP, ASL_A), E(IMM, ANC), E(ABS, NOP), E(ABS, ORA), E(ABS, ASL), E(ABS, SLO),
    // 0x10
    E(REL, BPL), E(IZY, ORA), E(JAM, KIL), E(IZY, SLO), E(ZPX, NOP), E(ZPX, ORA), E(ZPX, ASL), E(ZPX, SLO),
    E(IMP, CLC), E(ABY, ORA), E(IMP, NOP), E(ABY, SLO), E(ABX, NOP), E(ABX, ORA), E(ABX, ASL), E(ABX, SLO),
    // 0x20
    E(IMP, JSR), E(IZX, AND), E(JAM, KIL), E(IZX, RLA), E(ZP, BIT), E(ZP, AND), E(ZP, ROL), E(ZP, RLA),
    E(IMP, PLP), E(IMM, AND), E(IMP, ROL_A), E(IMM, ANC), E(ABS, BIT), E(ABS, AND), E(ABS, ROL), E(ABS, RLA),
    // 0x30
    E(REL, BMI), E(IZY, AND), E(JAM, KIL), E(IZY, RLA), E(ZPX, NOP), E(ZPX, AND), E(ZPX, ROL), E(ZPX, RLA),
    E(IMP, SEC), E(ABY, AND), E(IMP, NOP), E(ABY, RLA), E(ABX, NOP), E(ABX, AND), E(ABX, ROL), E(ABX, RLA),
    // 0x40
    E(IMP, RTI), E(IZX, EOR), E(JAM, KIL), E(IZX, SRE), E(ZP, NOP), E(ZP, EOR), E(ZP, LSR), E(ZP, SRE),
    E(IMP, PHA), E(IMM, EOR), E(IMP, LSR_A), E(IMM, ASR), E(ABS, JMP), E(ABS, EOR), E(ABS, LSR), E(ABS, SRE),
    // 0x50
    E(REL, BVC), E(IZY, EOR), E(JAM, KIL), E(IZY, SRE), E(ZPX, NOP), E(ZPX, EOR), E(ZPX, LSR), E(ZPX, SRE),
    E(IMP, CLI), E(ABY, EOR), E(IMP, NOP), E(ABY, SRE), E(ABX, NOP), E(ABX, EOR), E(ABX, LSR), E(ABX, SRE),
    // 0x60
    E(IMP, RTS), E(IZX, ADC), E(JAM, KIL), E(IZX, RRA), E(ZP, NOP), E(ZP, ADC), E(ZP, ROR), E(ZP, RRA),
    E(IMP, PLA), E(IMM, ADC), E(IMP, ROR_A), E(IMM, ARR), E(IND, JMP), E(ABS, ADC), E(ABS, ROR), E(ABS, RRA),
    // 0x70
    E(REL, BVS), E(IZY, ADC), E(JAM, KIL), E(IZY, RRA), E(ZPX, NOP), E(ZPX, ADC), E(ZPX, ROR), E(ZPX, RRA),
    E(IMP, SEI), E(ABY, ADC), E(IMP, NOP), E(ABY, RRA), E(ABX, NOP), E(ABX, ADC), E(ABX, ROR), E(ABX, RRA),
    // 0x80
    E(IMM, NOP), E(IZX, STA), E(IMM, NOP), E(IZX, SAX), E(ZP, STY), E(ZP, STA), E(ZP, STX), E(ZP, SAX),
    E(IMP, DEY), E(IMM, NOP), E(IMP, TXA), E(IMM, ANE), E(ABS, STY), E(ABS, STA), E(ABS, STX), E(ABS, SAX),
    // 0x90
    E(REL, BCC), E(IZY, STA), E(JAM, KIL), E(IZY, SHA), E(ZPX, STY), E(ZPX, STA), E(ZPY, STX), E(ZPY, SAX),
    E(IMP, TYA), E(ABY, STA), E(IMP, TXS), E(ABY, SHS), E(ABX, SHY), E(ABX, STA), E(ABY, SHX), E(ABY, SHA),
    // 0xA0
    E(IMM, LDY), E(IZX, LDA), E(IMM, LDX), E(IZX, LAX), E(ZP, LDY), E(ZP, LDA), E(ZP, LDX), E(ZP, LAX),
    E(IMP, TAY), E(IMM, LDA), E(IMP, TAX), E(IMM, LXA), E(ABS, LDY), E(ABS, LDA), E(ABS, LDX), E(ABS, LAX),
    // 0xB0
    E(REL, BCS), E(IZY, LDA), E(JAM, KIL), E(IZY, LAX), E(ZPX, LDY), E(ZPX, LDA), E(ZPY, LDX), E(ZPY, LAX),
    E(IMP, CLV), E(ABY, LDA), E(IMP, TSX), E(ABY, LAS), E(ABX, LDY), E(ABX, LDA), E(ABY, LDX), E(ABY, LAX),
    // 0xC0
    E(IMM, CPY), E(IZX, CMP), E(IMM, NOP), E(IZX, DCP), E(ZP, CPY), E(ZP, CMP), E(ZP, DEC), E(ZP, DCP),
    E(IMP, INY), E(IMM, CMP), E(IMP, DEX), E(IMM, SBX), E(ABS, CPY), E(ABS, CMP), E(ABS, DEC), E(ABS, DCP),
    // 0xD0
    E(REL, BNE), E(IZY, CMP), E(JAM, KIL), E(IZY, DCP), E(ZPX, NOP), E(ZPX, CMP), E(ZPX, DEC), E(ZPX, DCP),
    E(IMP, CLD), E(ABY, CMP), E(IMP, NOP), E(ABY, DCP), E(ABX, NOP), E(ABX, CMP), E(ABX, DEC), E(ABX, DCP),
    // 0xE0
    E(IMM, CPX), E(IZX, SBC), E(IMM, NOP), E(IZX, ISB), E(ZP, CPX), E(ZP, SBC), E(ZP, INC), E(ZP, ISB),
    E(IMP, INX), E(IMM, SBC), E(IMP, NOP), E(IMM, SBC), E(ABS, CPX), E(ABS, SBC), E(ABS, INC), E(ABS, ISB),
    // 0xF0
    E(REL, BEQ), E(IZY, SBC), E(JAM, KIL), E(IZY, ISB), E(ZPX, NOP), E(ZPX, SBC), E(ZPX, INC), E(ZPX, ISB),
    E(IMP, SED), E(ABY, SBC), E(IMP, NOP), E(ABY, ISB), E(ABX, NOP), E(ABX, SBC), E(ABX, INC), E(ABX, ISB),
};
#undef E

// Stella's cycle counts per opcode, page-cross and branch penalties excluded.
CULE_CONST const u8 CYCLES[256] = {
    7, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 4, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 4, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    6, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 3, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 5, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4,  2, 6, 2, 6, 4, 4, 4, 4, 2, 5, 2, 5, 5, 5, 5, 5,
    2, 6, 2, 6, 3, 3, 3, 4, 2, 2, 2, 2, 4, 4, 4, 4,  2, 5, 2, 5, 4, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 4,
    2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,  2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
};

CULE_HD u8 bcd_to_binary(u32 t) { return (u8)((t >> 4) * 10 + (t & 0x0F)); }
CULE_HD u8 binary_to_bcd(u32 t) { return (u8)((((t % 100) / 10) << 4) | (t % 10)); }

CULE_INLINE void set_nz(Cpu6502& c, u8 v) {
    c.p = (c.p & ~(FLAG_N | FLAG_Z)) | (v & FLAG_N) | (v ? 0 : FLAG_Z);
}
CULE_INLINE void set_flag(Cpu6502& c, u8 flag, bool on) { c.p = on ? (c.p | flag) : (c.p & ~flag); }
CULE_INLINE bool flag(const Cpu6502& c, u8 f) { return (c.p & f) != 0; }

CULE_HD void adc(Cpu6502& c, u8 operand) {
    u8 old_a = c.a, carry = flag(c, FLAG_C);
    if (!flag(c, FLAG_D)) {
        i32 sum = (i32)(i8)c.a + (i32)(i8)operand + carry;
        set_flag(c, FLAG_V, sum > 127 || sum < -128);
        sum = (i32)c.a + operand + carry;
        c.a = (u8)sum;
        set_flag(c, FLAG_C, sum > 0xFF);
    } else {
        i32 sum = bcd_to_binary(c.a) + bcd_to_binary(operand) + carry;
        set_flag(c, FLAG_C, sum > 99);
        c.a = binary_to_bcd(sum & 0xFF);
        set_flag(c, FLAG_V, ((old_a ^ c.a) & 0x80) && ((c.a ^ operand) & 0x80));
    }
    set_nz(c, c.a);
}

CULE_HD void sbc(Cpu6502& c, u8 operand) {
    u8 old_a = c.a, carry = flag(c, FLAG_C);
    if (!flag(c, FLAG_D)) {
        u8 inverted = (u8)~operand;
        i32 diff = (i32)(i8)c.a + (i32)(i8)inverted + carry;
        set_flag(c, FLAG_V, diff > 127 || diff < -128);
        diff = (i32)c.a + inverted + carry;
        c.a = (u8)diff;
        set_flag(c, FLAG_C, diff > 0xFF);
        set_nz(c, c.a);
    } else {
        i32 diff = (i32)bcd_to_binary(c.a) - bcd_to_binary(operand) - (carry ? 0 : 1);
        if (diff < 0) diff += 100;
        // Still negative only for invalid BCD operands; Stella then indexes just before its
        // binary-to-BCD table, i.e. the end of its BCD-to-binary table.
        c.a = diff < 0 ? bcd_to_binary((u32)(256 + diff)) : binary_to_bcd((u32)diff);
        set_nz(c, c.a);
        set_flag(c, FLAG_C, old_a >= operand + (carry ? 0 : 1));
        set_flag(c, FLAG_V, ((old_a ^ c.a) & 0x80) && ((c.a ^ operand) & 0x80));
    }
}

// BIT: N and V from the operand, Z from A AND the operand.
CULE_INLINE void bit(Cpu6502& c, u8 v) {
    c.p = (c.p & ~(FLAG_N | FLAG_V | FLAG_Z)) | (v & (FLAG_N | FLAG_V)) | ((c.a & v) ? 0 : FLAG_Z);
}

// Whether branch k (its operation's index from BPL) is taken: the flag each pair tests (N, V,
// C, Z as bytes of a word: a small table without memory), set for the second of the pair.
CULE_INLINE bool branch_taken(const Cpu6502& c, u32 k) {
    u8 tested = (u8)(((u32)FLAG_Z << 24 | (u32)FLAG_C << 16 | (u32)FLAG_V << 8 | FLAG_N) >> (8 * (k >> 1)));
    return flag(c, tested) == (bool)(k & 1);
}

// The timer reads a polling loop can start with (LDA, LDX, LDY and BIT absolute, 4 cycles
// each), and what one does to the registers.
CULE_HD bool is_poll_read(u8 opcode) { return opcode == 0xAD || opcode == 0xAE || opcode == 0xAC || opcode == 0x2C; }
CULE_HD void poll_read(Cpu6502& c, u8 opcode, u8 v) {
    switch (opcode) {
        case 0xAD: c.a = v; set_nz(c, v); break;
        case 0xAE: c.x = v; set_nz(c, v); break;
        case 0xAC: c.y = v; set_nz(c, v); break;
        default: bit(c, v); break;
    }
}

CULE_INLINE void compare(Cpu6502& c, u8 reg, u8 operand) {
    u32 v = (u32)reg - operand;
    set_nz(c, (u8)v);
    set_flag(c, FLAG_C, !(v & 0x100));
}

// ARR (undocumented): AND, then ROR of A, with flags of its own, and in decimal mode fix-ups.
CULE_INLINE void arr(Cpu6502& c, u8 v) {
    u8 carry = c.p & FLAG_C;
    u8 value = c.a & v;
    c.a = (u8)((value >> 1) | (carry << 7));
    if (!flag(c, FLAG_D)) {
        set_flag(c, FLAG_C, c.a & 0x40);
        set_flag(c, FLAG_V, (c.a & 0x40) ^ ((c.a & 0x20) << 1));
        set_nz(c, c.a);
    } else {   // N and Z are taken before the decimal fix-ups
        set_nz(c, c.a);
        set_flag(c, FLAG_N, carry);
        set_flag(c, FLAG_V, (value ^ c.a) & 0x40);
        if ((value & 0x0F) + (value & 0x01) > 0x05) c.a = (u8)((c.a & 0xF0) | ((c.a + 0x06) & 0x0F));
        bool high = (value & 0xF0) + (value & 0x10) > 0x50;
        if (high) c.a = (u8)(c.a + 0x60);
        set_flag(c, FLAG_C, high);
    }
}

// SBX (undocumented): X = (A AND X) - operand, flags as CMP's.
CULE_INLINE void sbx(Cpu6502& c, u8 v) {
    u32 r = (u32)(c.x & c.a) - v;
    c.x = (u8)r;
    set_nz(c, c.x);
    set_flag(c, FLAG_C, !(r & 0x100));
}

// PLP and RTI: B and bit 5 always read back as set.
CULE_HD void set_status(Cpu6502& c, u8 v) { c.p = v | 0x30; }

}  // namespace m6502

// A little-endian word read low byte first, as the 6502 reads it. Not `peek(lo) | peek(hi) << 8`:
// the operands of | are unsequenced, and a read has side effects (the data bus it leaves, bank
// switching hotspots, the TIA log), so a compiler could read the two in either order (g++ did,
// instrumented by -fsanitize=shift-base, and drew other pixels).
template <class Bus>
CULE_INLINE u16 peek_word(Bus& bus, u16 lo, u16 hi) {
    const u8 low = bus.peek(lo);
    return (u16)(low | bus.peek(hi) << 8);
}

template <class Bus>
CULE_HD void cpu_reset(Cpu6502& c, Bus& bus) {
    c.a = c.x = c.y = 0;
    c.sp = 0xFF;
    c.p = 0x30;
    c.halted = 0;
    c.pc = peek_word(bus, 0xFFFC, 0xFFFD);
}

// execute's result after a branch taken 5 bytes back, the branch's index in its low bits.
enum : u32 { BRANCHED_BACK = 0x100 };

// ---- the stack and jumps: each access in the 6502's order, dummy reads included -------------

template <class Bus>
CULE_INLINE void push(Cpu6502& c, Bus& bus, u8 v) { bus.poke((u16)(0x100 + c.sp--), v); }

// The dummy read of the stack PLA, PLP, RTS and RTI start with, then the first byte pulled.
template <class Bus>
CULE_INLINE u8 pull_first(Cpu6502& c, Bus& bus) {
    bus.peek((u16)(0x100 + c.sp++));
    return bus.peek((u16)(0x100 + c.sp));
}

// Branch k (its operation's index from BPL) by `offset` if taken. Gives BRANCHED_BACK | k after
// a branch back 5 bytes, maybe to a timer read: cpu_run's to see (a loop that waits for the
// timer); else 0.
template <class Bus>
CULE_INLINE u32 branch(Cpu6502& c, Bus& bus, u32 k, u8 offset) {
    if (!m6502::branch_taken(c, k)) return 0;
    u16 target = (u16)(c.pc + (i8)offset);
    bus.add_cycles(((c.pc ^ target) & 0xFF00) ? 2 : 1);
    c.pc = target;
    return offset == 0xFB ? BRANCHED_BACK | k : 0;
}

template <class Bus>
CULE_INLINE void brk(Cpu6502& c, Bus& bus) {
    bus.peek(c.pc++);
    push(c, bus, (u8)(c.pc >> 8));
    push(c, bus, (u8)c.pc);
    push(c, bus, c.p);
    c.p |= FLAG_I;
    c.pc = bus.peek(0xFFFE);
    c.pc |= (u16)(bus.peek(0xFFFF) << 8);
}

template <class Bus>
CULE_INLINE void jsr(Cpu6502& c, Bus& bus) {
    u8 low = bus.peek(c.pc++);
    bus.peek((u16)(0x100 + c.sp));
    push(c, bus, (u8)(c.pc >> 8));
    push(c, bus, (u8)c.pc);
    c.pc = (u16)(low | (bus.peek(c.pc) << 8));
}

template <class Bus>
CULE_INLINE void rts(Cpu6502& c, Bus& bus) {
    bus.peek((u16)(0x100 + c.sp++));
    c.pc = bus.peek((u16)(0x100 + c.sp++));
    c.pc |= (u16)(bus.peek((u16)(0x100 + c.sp)) << 8);
    bus.peek(c.pc++);
}

template <class Bus>
CULE_INLINE void rti(Cpu6502& c, Bus& bus) {
    bus.peek((u16)(0x100 + c.sp++));
    m6502::set_status(c, bus.peek((u16)(0x100 + c.sp++)));
    c.pc = bus.peek((u16)(0x100 + c.sp++));
    c.pc |= (u16)(bus.peek((u16)(0x100 + c.sp)) << 8);
}

// What a timer-polling loop's iterations, run at once, leave: the registers, and how many
// instructions they were.
struct TimerWait {
    Cpu6502 cpu;
    u32 instructions;
    u32 cycles;   // what they took
};

// The instruction after its opcode fetch, for an addressing mode, an access and an operation.
// On the host it is expanded once per opcode with all three constant (see cpu_step), on the GPU
// it runs with the values from the table: one definition either way. Gives BRANCHED_BACK | the
// branch's index after a branch taken 5 bytes back, else 0.
template <class Bus>
CULE_INLINE u32 execute(Cpu6502& c, Bus& bus, u8 mode, u8 access, u8 op) {
    using namespace m6502;

    // Operand address. Only reads that index across a page cost a cycle: the cycle counts of
    // writes and read-modify-writes already include the 6502's fix-up cycle.
    u16 addr = 0;
    bool penalty_ok = access == READ;
    switch (mode) {
        case IMM: case REL: addr = c.pc++; break;
        case ZP: addr = bus.peek(c.pc++); break;
        case ZPX: addr = (u8)(bus.peek(c.pc++) + c.x); break;
        case ZPY: addr = (u8)(bus.peek(c.pc++) + c.y); break;
        case ABS: case ABX: case ABY: {
            u16 base = peek_word(bus, c.pc, (u16)(c.pc + 1));
            c.pc += 2;
            u8 index = mode == ABX ? c.x : mode == ABY ? c.y : 0;
            if (penalty_ok && (((u32)base ^ ((u32)base + index)) & 0xFF00)) bus.add_cycles(1);
            addr = (u16)(base + index);
            break;
        }
        case IZX: {
            u8 pointer = (u8)(bus.peek(c.pc++) + c.x);
            addr = peek_word(bus, pointer, (u16)(pointer + 1));
            break;
        }
        case IZY: {
            u8 pointer = bus.peek(c.pc++);
            u16 base = peek_word(bus, pointer, (u16)(pointer + 1));
            if (penalty_ok && (((u32)base ^ ((u32)base + c.y)) & 0xFF00)) bus.add_cycles(1);
            addr = (u16)(base + c.y);
            break;
        }
        case IND: {   // JMP (a): the high byte comes from the same page (the 6502's bug)
            u16 p = peek_word(bus, c.pc, (u16)(c.pc + 1));
            c.pc += 2;
            u16 high = ((p ^ (p + 1)) & 0xFF00) ? (u16)(p & 0xFF00) : (u16)(p + 1);
            addr = peek_word(bus, p, high);
            break;
        }
        case JAM:
            c.halted = 1;
            return 0;
        default: break;   // IMP
    }
    u8 v = 0;
    if (access & READ) v = bus.peek(addr);

    u8 carry = c.p & FLAG_C;
    switch (op) {
        case ADC: adc(c, v); break;
        case SBC: sbc(c, v); break;
        case AND: c.a &= v; set_nz(c, c.a); break;
        case ORA: c.a |= v; set_nz(c, c.a); break;
        case EOR: c.a ^= v; set_nz(c, c.a); break;
        case BIT: bit(c, v); break;
        case CMP: compare(c, c.a, v); break;
        case CPX: compare(c, c.x, v); break;
        case CPY: compare(c, c.y, v); break;
        case LDA: c.a = v; set_nz(c, v); break;
        case LDX: c.x = v; set_nz(c, v); break;
        case LDY: c.y = v; set_nz(c, v); break;
        case LAX: c.a = c.x = v; set_nz(c, v); break;
        case NOP: break;
        case ANC: c.a &= v; set_nz(c, c.a); set_flag(c, FLAG_C, c.a & 0x80); break;
        case ASR: c.a &= v; set_flag(c, FLAG_C, c.a & 1); c.a >>= 1; set_nz(c, c.a); break;
        case ARR: arr(c, v); break;
        case ANE: c.a = (u8)((c.a | 0xEE) & c.x & v); set_nz(c, c.a); break;
        case LXA: c.a = c.x = (u8)((c.a | 0xEE) & v); set_nz(c, c.a); break;
        case SBX: sbx(c, v); break;
        case LAS: c.a = c.x = c.sp = c.sp & v; set_nz(c, c.a); break;
        case BPL: case BMI: case BVC: case BVS: case BCC: case BCS: case BNE: case BEQ:
            return branch(c, bus, op - BPL, v);
        // read-modify-write: `v` is read above and written back below
        case ASL: set_flag(c, FLAG_C, v & 0x80); v <<= 1; set_nz(c, v); break;
        case LSR: set_flag(c, FLAG_C, v & 1); v >>= 1; set_nz(c, v); break;
        case ROL: set_flag(c, FLAG_C, v & 0x80); v = (u8)(v << 1 | carry); set_nz(c, v); break;
        case ROR: set_flag(c, FLAG_C, v & 1); v = (u8)(v >> 1 | carry << 7); set_nz(c, v); break;
        case INC: v += 1; set_nz(c, v); break;
        case DEC: v -= 1; set_nz(c, v); break;
        case SLO: set_flag(c, FLAG_C, v & 0x80); v <<= 1; c.a |= v; set_nz(c, c.a); break;
        case RLA: set_flag(c, FLAG_C, v & 0x80); v = (u8)(v << 1 | carry); c.a &= v; set_nz(c, c.a); break;
        case SRE: set_flag(c, FLAG_C, v & 1); v >>= 1; c.a ^= v; set_nz(c, c.a); break;
        case RRA: set_flag(c, FLAG_C, v & 1); v = (u8)(v >> 1 | carry << 7); adc(c, v); break;
        case DCP: v -= 1; compare(c, c.a, v); break;
        case ISB: v += 1; sbc(c, v); break;
        // writes: `v` is written below
        case STA: v = c.a; break;
        case STX: v = c.x; break;
        case STY: v = c.y; break;
        case SAX: v = c.a & c.x; break;
        case SHA: v = (u8)(c.a & c.x & ((addr >> 8) + 1)); break;
        case SHS: c.sp = c.a & c.x; v = (u8)(c.sp & ((addr >> 8) + 1)); break;
        case SHX: v = (u8)(c.x & ((addr >> 8) + 1)); break;
        case SHY: v = (u8)(c.y & ((addr >> 8) + 1)); break;
        case JMP: c.pc = addr; break;
        // implied
        case ASL_A: set_flag(c, FLAG_C, c.a & 0x80); c.a <<= 1; set_nz(c, c.a); break;
        case LSR_A: set_flag(c, FLAG_C, c.a & 1); c.a >>= 1; set_nz(c, c.a); break;
        case ROL_A: set_flag(c, FLAG_C, c.a & 0x80); c.a = (u8)(c.a << 1 | carry); set_nz(c, c.a); break;
        case ROR_A: set_flag(c, FLAG_C, c.a & 1); c.a = (u8)(c.a >> 1 | carry << 7); set_nz(c, c.a); break;
        case CLC: c.p &= ~FLAG_C; break;
        case SEC: c.p |= FLAG_C; break;
        case CLI: c.p &= ~FLAG_I; break;
        case SEI: c.p |= FLAG_I; break;
        case CLV: c.p &= ~FLAG_V; break;
        case CLD: c.p &= ~FLAG_D; break;
        case SED: c.p |= FLAG_D; break;
        case DEX: c.x -= 1; set_nz(c, c.x); break;
        case DEY: c.y -= 1; set_nz(c, c.y); break;
        case INX: c.x += 1; set_nz(c, c.x); break;
        case INY: c.y += 1; set_nz(c, c.y); break;
        case TAX: c.x = c.a; set_nz(c, c.x); break;
        case TAY: c.y = c.a; set_nz(c, c.y); break;
        case TXA: c.a = c.x; set_nz(c, c.a); break;
        case TYA: c.a = c.y; set_nz(c, c.a); break;
        case TSX: c.x = c.sp; set_nz(c, c.x); break;
        case TXS: c.sp = c.x; break;
        case PHA: push(c, bus, c.a); break;
        case PHP: push(c, bus, c.p); break;
        case PLA: c.a = pull_first(c, bus); set_nz(c, c.a); break;
        case PLP: set_status(c, pull_first(c, bus)); break;
        case BRK: brk(c, bus); break;
        case JSR: jsr(c, bus); break;
        case RTS: rts(c, bus); break;
        case RTI: rti(c, bus); break;
        default: break;
    }
    // The one write of every store and read-modify-write: on the GPU one inlined copy of the
    // bus's poke instead of twenty, and fewer registers.
    if (access & WRITE) bus.poke(addr, v);
    return 0;
}

// An entry of m6502::OPCODES unpacked into the arguments of `execute`.
#define CULE_DECODE(entry) (u8)((entry) & 0x0F), (u8)((entry) >> 4 & 0x03), (u8)((entry) >> 6)
#define CULE_OPCODE(n) \
    case n: return execute(c, bus, CULE_DECODE(m6502::OPCODES[n]));
#define CULE_OPCODES16(n)                                                                          \
    CULE_OPCODE(n + 0) CULE_OPCODE(n + 1) CULE_OPCODE(n + 2) CULE_OPCODE(n + 3) CULE_OPCODE(n + 4)    \
    CULE_OPCODE(n + 5) CULE_OPCODE(n + 6) CULE_OPCODE(n + 7) CULE_OPCODE(n + 8) CULE_OPCODE(n + 9)    \
    CULE_OPCODE(n + 10) CULE_OPCODE(n + 11) CULE_OPCODE(n + 12) CULE_OPCODE(n + 13) CULE_OPCODE(n + 14) \
    CULE_OPCODE(n + 15)

// One instruction. A GPU warp runs few distinct paths through the two small switches of
// `execute`; a host core predicts one 256-way dispatch much better than two in a row. Gives
// execute's result.
template <class Bus>
CULE_INLINE u32 cpu_step(Cpu6502& c, Bus& bus) {
    CULE_TRACE_EVENT(INSN, 0, c.pc, bus.code_key(c.pc));
    u8 opcode = bus.peek(c.pc++);
    bus.add_cycles(m6502::CYCLES[opcode]);
#if defined(__CUDA_ARCH__)
    return execute(c, bus, CULE_DECODE(m6502::OPCODES[opcode]));
#else
    switch (opcode) {
        CULE_OPCODES16(0x00) CULE_OPCODES16(0x10) CULE_OPCODES16(0x20) CULE_OPCODES16(0x30)
        CULE_OPCODES16(0x40) CULE_OPCODES16(0x50) CULE_OPCODES16(0x60) CULE_OPCODES16(0x70)
        CULE_OPCODES16(0x80) CULE_OPCODES16(0x90) CULE_OPCODES16(0xA0) CULE_OPCODES16(0xB0)
        CULE_OPCODES16(0xC0) CULE_OPCODES16(0xD0) CULE_OPCODES16(0xE0) CULE_OPCODES16(0xF0)
    }
    return 0;   // not reached: every opcode has its case
#endif
}

// One instruction, or with a loop that waits for the timer as many of its instructions as the
// bus runs at once (Bus::wait_on_timer), at most `budget`; gives the number run. The GPU's kernels
// run such waits at once: a lane polling the timer would otherwise run alone. The host does only
// with -DCULE_TIMER_WAIT (the tests' and benchmarks' builds, `make build/timer_wait/_core.so`): there
// they cost about what they save (v5, 10 games: callgrind's instructions per frame 0.0% fewer as a
// geometric mean, Pong 8.8% more; frames/s 1.3% fewer; benchmarks/timer_wait.py), the exact same
// states either way (tests/test_timer_wait.py). The wait is called here, not from the branch's
// case, where it cost every instruction (v5 Pong 930K host instructions a frame against 909K).
#if defined(__CUDA_ARCH__) || defined(CULE_TIMER_WAIT)
#define CULE_RUNS_TIMER_WAITS 1
#endif
template <class Bus>
CULE_INLINE u32 cpu_run(Cpu6502& c, Bus& bus, u32 budget) {
    if (c.halted) return 0;
    const u32 branched = cpu_step(c, bus);
#ifdef CULE_RUNS_TIMER_WAITS
    if (branched && budget > 2) {
        const TimerWait w = bus.wait_on_timer(c, branched & 7, budget - 1);
        c = w.cpu;
        return 1 + w.instructions;
    }
#endif
    return 1;
}
#undef CULE_OPCODES16
#undef CULE_OPCODE
#undef CULE_DECODE

}  // namespace cule
