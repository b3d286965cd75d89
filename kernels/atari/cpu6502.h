// The 6507 as ALE's Stella core (M6502Low) runs it. Each opcode is declared once in a table
// (addressing mode, operation, and so the access it makes at its operand address); `execute`
// resolves the operand address by mode, reads there if the access reads, performs the operation
// and writes its result there if the access writes. Two small switches instead of 256 cases
// also keep GPU warps on few paths; the host expands them per opcode (cpu_step, console_frame).
//
// While a frame runs, the registers are 32-bit locals (Regs), which the compilers keep in machine
// registers with the bus's cycle counter and data bus, where the state's packed bytes and the
// console's fields were loaded and stored at every instruction. On the host, the flags N and Z are
// kept as the value that set them, and an instruction whose bytes lie in the cartridge's window of
// plain reads is fetched from it whole, after one test (Bus::fetch, cpu_fetch); the GPU keeps N and
// Z in P and reads each byte through the bus, which NVRTC allocates fewer registers for (the
// flags' and ReadThrough's comments). v5 Pong, callgrind: 417.7K host instructions a frame in the
// interpreter and its RAM and ROM decoding before, 232K after (benchmarks/instructions.py).
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

// The registers as a machine's state keeps them.
struct Cpu6502 {
    u16 pc;
    u8 a, x, y, sp;
    u8 p;        // NV1BDIZC as PHP pushes it
    u8 halted;   // a JAM opcode ran
};

enum : u8 { FLAG_C = 0x01, FLAG_Z = 0x02, FLAG_I = 0x04, FLAG_D = 0x08, FLAG_B = 0x10, FLAG_V = 0x40, FLAG_N = 0x80 };

// The registers while the CPU runs: a word each, every one a byte but the PC.
struct Regs {
    u32 pc;       // past $FFFF only until the next fetch, which wraps it (cpu_step, cpu_fetch)
    u32 a, x, y, sp;
    u32 p;        // P; on the host its N and Z bits are nz's (m6502::LAZY_NZ)
    u32 nz;       // on the host, what last set N and Z: Z while its low byte is 0, N while bit 7 or
                  // bit 8 is (bit 8: where N is not the low byte's bit 7, after BIT, PLP and RTI)
    u32 halted;
};

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
// their own (stack) accesses, if any; immediate and relative ones take the operand byte itself.
CULE_HD constexpr Access access_of(Mode mode, Op op) {
    if (mode == IMP || mode == JAM || mode == IMM || mode == REL) return NONE;
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

// The operand bytes an instruction reads right after its opcode, in the 6502's order: the
// mode's, but BRK's dummy read of the byte after it, and JSR's low byte alone (it reads the high
// byte after its stack accesses).
CULE_HD constexpr u32 fetched_bytes(Mode mode, Op op) {
    return op == BRK || op == JSR ? 1 : mode == IMP || mode == JAM ? 0 : mode >= ABS && mode != IZX && mode != IZY ? 2 : 1;
}

// Mode in bits 0-3, access in bits 4-5, operation in bits 6-12, operand bytes fetched in bits
// 13-14 of a 16-bit entry.
#define E(mode, op) (u16)(fetched_bytes(mode, op) << 13 | (op) << 6 | access_of(mode, op) << 4 | (mode))
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

// ---- the flags ----------------------------------------------------------------------------

// N and Z: on the host as the value that last set them (Regs::nz), one move for most operations;
// on the GPU in P, as the state keeps them: kept lazily there, they took NVRTC's cule_step_logged
// from 130 registers to 160 and cule_redo from 134 to 166 (sm_90, Pong's module). The only choice
// between the two is here.
#ifdef __CUDA_ARCH__
constexpr bool LAZY_NZ = false;
#else
constexpr bool LAZY_NZ = true;
#endif

CULE_INLINE void set_nz(Regs& r, u32 v) {   // v: a byte
    if (LAZY_NZ) r.nz = v;
    else r.p = (r.p & ~(u32)(FLAG_N | FLAG_Z)) | (v & FLAG_N) | (v ? 0 : FLAG_Z);
}
CULE_INLINE bool flag_n(const Regs& r) { return LAZY_NZ ? (r.nz & 0x180) != 0 : (r.p & FLAG_N) != 0; }
CULE_INLINE bool flag_z(const Regs& r) { return LAZY_NZ ? (r.nz & 0xFF) == 0 : (r.p & FLAG_Z) != 0; }
CULE_INLINE void set_carry(Regs& r, u32 on) { r.p = (r.p & ~(u32)FLAG_C) | on; }   // on: 0 or 1
CULE_INLINE void set_overflow(Regs& r, bool on) { r.p = on ? (r.p | FLAG_V) : (r.p & ~(u32)FLAG_V); }

// P as PHP pushes it, and back.
CULE_INLINE u8 status(const Regs& r) {
    if (!LAZY_NZ) return (u8)r.p;
    return (u8)((r.p & ~(u32)(FLAG_N | FLAG_Z)) | (flag_n(r) ? FLAG_N : 0) | (flag_z(r) ? FLAG_Z : 0));
}
CULE_INLINE void load_status(Regs& r, u32 v) {
    r.p = v;
    if (LAZY_NZ) r.nz = (v & FLAG_N) << 1 | (~v >> 1 & 1);   // N in bit 8, Z: a low byte of 0
}

// Decimal mode's ADC and SBC, out of line (few games use them): A and P from A, the operand and
// P, as (P << 8 | A). They take values, not the registers: a call that took their address would
// keep every register in memory for the whole frame.
CULE_NOINLINE u32 adc_decimal(u32 a, u32 v, u32 p) {
    const u32 carry = p & FLAG_C;
    const i32 sum = bcd_to_binary(a) + bcd_to_binary(v) + carry;
    const u32 result = binary_to_bcd(sum & 0xFF);
    p = (p & ~(u32)(FLAG_C | FLAG_V)) | (sum > 99 ? FLAG_C : 0) | (((a ^ result) & 0x80) && ((result ^ v) & 0x80) ? FLAG_V : 0);
    return p << 8 | result;
}

CULE_NOINLINE u32 sbc_decimal(u32 a, u32 v, u32 p) {
    const u32 carry = p & FLAG_C;
    i32 diff = (i32)bcd_to_binary(a) - bcd_to_binary(v) - (carry ? 0 : 1);
    if (diff < 0) diff += 100;
    // Still negative only for invalid BCD operands; Stella then indexes just before its
    // binary-to-BCD table, i.e. the end of its BCD-to-binary table.
    const u32 result = diff < 0 ? bcd_to_binary((u32)(256 + diff)) : binary_to_bcd((u32)diff);
    p = (p & ~(u32)(FLAG_C | FLAG_V)) | (a >= v + (carry ? 0 : 1) ? FLAG_C : 0) |
        (((a ^ result) & 0x80) && ((result ^ v) & 0x80) ? FLAG_V : 0);
    return p << 8 | result;
}

// Binary ADC, and SBC as the ADC of the operand's complement.
CULE_INLINE void add_binary(Regs& r, u32 v) {
    const u32 sum = r.a + v + (r.p & FLAG_C);
    set_carry(r, sum >> 8);
    set_overflow(r, ~(r.a ^ v) & (r.a ^ sum) & 0x80);   // the operands' signs agree, the sum's differs
    set_nz(r, r.a = sum & 0xFF);
}

CULE_INLINE void adc(Regs& r, u32 v) {
    if (!(r.p & FLAG_D)) return add_binary(r, v);
    const u32 out = adc_decimal(r.a, v, r.p);
    r.p = out >> 8;
    set_nz(r, r.a = out & 0xFF);
}

CULE_INLINE void sbc(Regs& r, u32 v) {
    if (!(r.p & FLAG_D)) return add_binary(r, ~v & 0xFF);
    const u32 out = sbc_decimal(r.a, v, r.p);
    r.p = out >> 8;
    set_nz(r, r.a = out & 0xFF);
}

// BIT: N and V from the operand, Z from A AND the operand.
CULE_INLINE void bit(Regs& r, u32 v) {
    if (LAZY_NZ) r.nz = (r.a & v) | (v & FLAG_N) << 1;   // N in bit 8
    else r.p = (r.p & ~(u32)(FLAG_N | FLAG_Z)) | (v & FLAG_N) | ((r.a & v) ? 0 : FLAG_Z);
    r.p = (r.p & ~(u32)FLAG_V) | (v & FLAG_V);
}

// Whether branch k (its operation's index from BPL: BPL, BMI, BVC, BVS, BCC, BCS, BNE, BEQ) is
// taken: the flag each pair tests, set for the second of the pair.
CULE_INLINE bool branch_taken(const Regs& r, u32 k) {
    const bool set = k < 2 ? flag_n(r) : k < 4 ? (r.p & FLAG_V) != 0 : k < 6 ? (r.p & FLAG_C) != 0 : flag_z(r);
    return set == (bool)(k & 1);
}

// The timer reads a polling loop can start with (LDA, LDX, LDY and BIT absolute, 4 cycles
// each), and what one does to the registers.
CULE_HD bool is_poll_read(u32 opcode) { return opcode == 0xAD || opcode == 0xAE || opcode == 0xAC || opcode == 0x2C; }
CULE_INLINE void poll_read(Regs& r, u32 opcode, u32 v) {
    switch (opcode) {
        case 0xAD: set_nz(r, r.a = v); break;
        case 0xAE: set_nz(r, r.x = v); break;
        case 0xAC: set_nz(r, r.y = v); break;
        default: bit(r, v); break;
    }
}

CULE_INLINE void compare(Regs& r, u32 reg, u32 v) {
    set_nz(r, (reg - v) & 0xFF);
    set_carry(r, reg >= v);
}

// ARR (undocumented): AND, then ROR of A, with flags of its own, and in decimal mode fix-ups.
CULE_INLINE void arr(Regs& r, u32 v) {
    const u32 carry = r.p & FLAG_C, value = r.a & v;
    r.a = value >> 1 | carry << 7;
    set_nz(r, r.a);
    if (!(r.p & FLAG_D)) {
        set_carry(r, r.a >> 6 & 1);
        set_overflow(r, (r.a & 0x40) ^ ((r.a & 0x20) << 1));
    } else {   // N and Z are taken before the decimal fix-ups (N, A's bit 7, is the carry)
        set_overflow(r, (value ^ r.a) & 0x40);
        if ((value & 0x0F) + (value & 0x01) > 0x05) r.a = (r.a & 0xF0) | ((r.a + 0x06) & 0x0F);
        const bool high = (value & 0xF0) + (value & 0x10) > 0x50;
        if (high) r.a = (r.a + 0x60) & 0xFF;
        set_carry(r, high);
    }
}

// SBX (undocumented): X = (A AND X) - operand, flags as CMP's.
CULE_INLINE void sbx(Regs& r, u32 v) {
    const u32 ax = r.x & r.a;
    r.x = (ax - v) & 0xFF;
    set_nz(r, r.x);
    set_carry(r, ax >= v);
}

}  // namespace m6502

// The registers in locals for a frame, from the state's bytes and back.
CULE_HD Regs regs_of(const Cpu6502& c) {
    Regs r = {c.pc, c.a, c.x, c.y, c.sp, 0, 0, c.halted};
    m6502::load_status(r, c.p);
    return r;
}

CULE_HD Cpu6502 cpu_of(const Regs& r) {
    return {(u16)r.pc, (u8)r.a, (u8)r.x, (u8)r.y, (u8)r.sp, m6502::status(r), (u8)r.halted};
}

// A little-endian word read low byte first, as the 6502 reads it. Not `peek(lo) | peek(hi) << 8`:
// the operands of | are unsequenced, and a read has side effects (the data bus it leaves, bank
// switching hotspots, the TIA log), so a compiler could read the two in either order (g++ did,
// instrumented by -fsanitize=shift-base, and drew other pixels).
template <class Bus>
CULE_INLINE u32 peek_word(Bus& bus, u32 lo, u32 hi) {
    const u32 low = bus.peek((u16)lo);
    return low | (u32)bus.peek((u16)hi) << 8;
}

template <class Bus>
CULE_HD void cpu_reset(Cpu6502& c, Bus& bus) {
    c.a = c.x = c.y = 0;
    c.sp = 0xFF;
    c.p = 0x30;
    c.halted = 0;
    c.pc = (u16)peek_word(bus, 0xFFFC, 0xFFFD);
}

// execute's result after a branch taken 5 bytes back, the branch's index in its low bits.
enum : u32 { BRANCHED_BACK = 0x100 };

// ---- the stack and jumps: each access in the 6502's order, dummy reads included -------------

template <class Bus>
CULE_INLINE void push(Regs& r, Bus& bus, u32 v) {
    bus.poke((u16)(0x100 + r.sp), (u8)v);
    r.sp = (r.sp - 1) & 0xFF;
}

// The dummy read of the stack PLA, PLP, RTS and RTI start with, then the first byte pulled.
template <class Bus>
CULE_INLINE u32 pull_first(Regs& r, Bus& bus) {
    bus.peek((u16)(0x100 + r.sp));
    r.sp = (r.sp + 1) & 0xFF;
    return bus.peek((u16)(0x100 + r.sp));
}

template <class Bus>
CULE_INLINE u32 pull_next(Regs& r, Bus& bus) {
    r.sp = (r.sp + 1) & 0xFF;
    return bus.peek((u16)(0x100 + r.sp));
}

// Branch k (its operation's index from BPL) by `offset` if taken. Gives BRANCHED_BACK | k after
// a branch back 5 bytes, maybe to a timer read: cpu_run's to see (a loop that waits for the
// timer); else 0.
template <class Bus>
CULE_INLINE u32 branch(Regs& r, Bus& bus, u32 k, u32 offset) {
    if (!m6502::branch_taken(r, k)) return 0;
    const u32 target = (r.pc + (u32)(i32)(i8)offset) & 0xFFFF;
    bus.add_cycles(((r.pc ^ target) & 0xFF00) ? 2 : 1);
    r.pc = target;
    return offset == 0xFB ? BRANCHED_BACK | k : 0;
}

// BRK after its dummy read of the byte after it (fetched with the opcode).
template <class Bus>
CULE_INLINE void brk(Regs& r, Bus& bus) {
    push(r, bus, r.pc >> 8);
    push(r, bus, r.pc);
    push(r, bus, m6502::status(r));
    r.p |= FLAG_I;
    r.pc = bus.peek(0xFFFE);
    r.pc |= (u32)bus.peek(0xFFFF) << 8;
}

// JSR after the fetch of its target's low byte: the high byte is read after the stack's accesses.
template <class Bus>
CULE_INLINE void jsr(Regs& r, Bus& bus, u32 low) {
    bus.peek((u16)(0x100 + r.sp));
    push(r, bus, r.pc >> 8);
    push(r, bus, r.pc);
    r.pc = low | (u32)bus.peek((u16)r.pc) << 8;
}

template <class Bus>
CULE_INLINE void rts(Regs& r, Bus& bus) {
    r.pc = pull_first(r, bus);
    r.pc |= pull_next(r, bus) << 8;
    bus.peek((u16)r.pc);
    r.pc = (r.pc + 1) & 0xFFFF;
}

template <class Bus>
CULE_INLINE void rti(Regs& r, Bus& bus) {
    m6502::load_status(r, pull_first(r, bus) | 0x30);
    r.pc = pull_next(r, bus);
    r.pc |= pull_next(r, bus) << 8;
}

// An instruction's operand bytes, low byte first, as `execute` uses them (operand(bus, i)). The
// host reads them with the opcode, from the cartridge's window or through the bus (cpu_fetch):
// Fetched. The GPU reads each through the bus where the instruction uses it, as the 6502 does and
// as its kernels did before: ReadThrough. Fetched there took NVRTC's cule_redo from 134 registers
// to 168 (sm_90, Pong's module), where cule_step_logged went from 130 to 128.
struct Fetched {
    u32 bytes;

    template <class Bus>
    CULE_INLINE u32 operator()(Bus&, u32 i) const { return bytes >> 8 * i & 0xFF; }
    // The data bus after the fetch: its last byte (from the window none was read through the bus).
    template <class Bus>
    CULE_INLINE void fetched(Bus& bus, u32 opcode, u32 count) const { bus.fetched(count ? (*this)(bus, count - 1) : opcode); }
};

struct ReadThrough {
    u32 at;   // the address of the first operand byte

    template <class Bus>
    CULE_INLINE u32 operator()(Bus& bus, u32 i) const { return bus.peek((u16)(at + i)); }
    template <class Bus>
    CULE_INLINE void fetched(Bus&, u32, u32) const {}
};

// What a timer-polling loop's iterations, run at once, leave: how many instructions they were,
// the cycles they took, and their last read (its opcode and the value it read), which leaves the
// registers as it would have (m6502::poll_read).
struct TimerWait {
    u32 instructions, cycles;
    u32 opcode, value;
};

// A two-byte operand, the low byte read first.
template <class Bus, class Operand>
CULE_INLINE u32 operand_word(Bus& bus, Operand operand) {
    const u32 low = operand(bus, 0);
    return low | operand(bus, 1) << 8;
}

// The instruction after its opcode's fetch (cpu_step), `operand` its operand bytes (`fetched` of
// them), for an addressing mode, an access and an operation. On the host it is expanded once per opcode with all of them constant (cpu_step, console_frame),
// on the GPU it runs with the values from the table: one definition either way. Gives
// BRANCHED_BACK | the branch's index after a branch taken 5 bytes back, else 0.
template <class Bus, class Operand>
CULE_INLINE u32 execute(Regs& r, Bus& bus, u32 opcode, Operand operand, u8 mode, u8 access, u8 op, u8 fetched) {
    using namespace m6502;
    // The whole count right after the opcode fetch (Stella's), which the host folds into each
    // opcode's case.
    bus.add_cycles(m6502::CYCLES[opcode]);
    operand.fetched(bus, opcode, fetched);
    r.pc += 1 + fetched;

    // Operand address. Only reads that index across a page cost a cycle: the cycle counts of
    // writes and read-modify-writes already include the 6502's fix-up cycle.
    u32 addr = 0;
    const bool penalty_ok = access == READ;
    u32 v = 0;
    switch (mode) {
        case IMM: case REL: v = operand(bus, 0); break;   // the operand is the byte itself
        case ZP: addr = operand(bus, 0); break;
        case ZPX: addr = (operand(bus, 0) + r.x) & 0xFF; break;
        case ZPY: addr = (operand(bus, 0) + r.y) & 0xFF; break;
        case ABS: case ABX: case ABY: {
            const u32 index = mode == ABX ? r.x : mode == ABY ? r.y : 0, base = operand_word(bus, operand);
            if (penalty_ok && ((base ^ (base + index)) & 0xFF00)) bus.add_cycles(1);
            addr = (base + index) & 0xFFFF;
            break;
        }
        case IZX: {
            const u32 pointer = (operand(bus, 0) + r.x) & 0xFF;
            addr = peek_word(bus, pointer, pointer + 1);
            break;
        }
        case IZY: {
            const u32 pointer = operand(bus, 0), base = peek_word(bus, pointer, pointer + 1);
            if (penalty_ok && ((base ^ (base + r.y)) & 0xFF00)) bus.add_cycles(1);
            addr = (base + r.y) & 0xFFFF;
            break;
        }
        case IND: {   // JMP (a): the high byte comes from the same page (the 6502's bug)
            const u32 p = operand_word(bus, operand), high = ((p ^ (p + 1)) & 0xFF00) ? (p & 0xFF00) : p + 1;
            addr = peek_word(bus, p, high);
            break;
        }
        case JAM:   // no instruction follows, in this frame or after (console_frame)
            r.halted = 1;
            bus.stop();
            return 0;
        default: break;   // IMP
    }
    if (access & READ) v = bus.peek((u16)addr);

    const u32 carry = r.p & FLAG_C;
    switch (op) {
        case ADC: adc(r, v); break;
        case SBC: sbc(r, v); break;
        case AND: set_nz(r, r.a &= v); break;
        case ORA: set_nz(r, r.a |= v); break;
        case EOR: set_nz(r, r.a ^= v); break;
        case BIT: bit(r, v); break;
        case CMP: compare(r, r.a, v); break;
        case CPX: compare(r, r.x, v); break;
        case CPY: compare(r, r.y, v); break;
        case LDA: set_nz(r, r.a = v); break;
        case LDX: set_nz(r, r.x = v); break;
        case LDY: set_nz(r, r.y = v); break;
        case LAX: set_nz(r, r.a = r.x = v); break;
        case NOP: break;
        case ANC: set_nz(r, r.a &= v); set_carry(r, r.a >> 7); break;
        case ASR: r.a &= v; set_carry(r, r.a & 1); set_nz(r, r.a >>= 1); break;
        case ARR: arr(r, v); break;
        case ANE: set_nz(r, r.a = (r.a | 0xEE) & r.x & v); break;
        case LXA: set_nz(r, r.a = r.x = (r.a | 0xEE) & v); break;
        case SBX: sbx(r, v); break;
        case LAS: set_nz(r, r.a = r.x = r.sp = r.sp & v); break;
        case BPL: case BMI: case BVC: case BVS: case BCC: case BCS: case BNE: case BEQ:
            return branch(r, bus, op - BPL, v);
        // read-modify-write: `v` is read above and written back below
        case ASL: set_carry(r, v >> 7); set_nz(r, v = (v << 1) & 0xFF); break;
        case LSR: set_carry(r, v & 1); set_nz(r, v >>= 1); break;
        case ROL: set_carry(r, v >> 7); set_nz(r, v = (v << 1 | carry) & 0xFF); break;
        case ROR: set_carry(r, v & 1); set_nz(r, v = v >> 1 | carry << 7); break;
        case INC: set_nz(r, v = (v + 1) & 0xFF); break;
        case DEC: set_nz(r, v = (v - 1) & 0xFF); break;
        case SLO: set_carry(r, v >> 7); v = (v << 1) & 0xFF; set_nz(r, r.a |= v); break;
        case RLA: set_carry(r, v >> 7); v = (v << 1 | carry) & 0xFF; set_nz(r, r.a &= v); break;
        case SRE: set_carry(r, v & 1); v >>= 1; set_nz(r, r.a ^= v); break;
        case RRA: set_carry(r, v & 1); v = v >> 1 | carry << 7; adc(r, v); break;
        case DCP: v = (v - 1) & 0xFF; compare(r, r.a, v); break;
        case ISB: v = (v + 1) & 0xFF; sbc(r, v); break;
        // writes: `v` is written below
        case STA: v = r.a; break;
        case STX: v = r.x; break;
        case STY: v = r.y; break;
        case SAX: v = r.a & r.x; break;
        case SHA: v = r.a & r.x & ((addr >> 8) + 1); break;
        case SHS: r.sp = r.a & r.x; v = r.sp & ((addr >> 8) + 1); break;
        case SHX: v = r.x & ((addr >> 8) + 1); break;
        case SHY: v = r.y & ((addr >> 8) + 1); break;
        case JMP: r.pc = addr; break;
        // implied
        case ASL_A: set_carry(r, r.a >> 7); set_nz(r, r.a = (r.a << 1) & 0xFF); break;
        case LSR_A: set_carry(r, r.a & 1); set_nz(r, r.a >>= 1); break;
        case ROL_A: set_carry(r, r.a >> 7); set_nz(r, r.a = (r.a << 1 | carry) & 0xFF); break;
        case ROR_A: set_carry(r, r.a & 1); set_nz(r, r.a = r.a >> 1 | carry << 7); break;
        case CLC: r.p &= ~(u32)FLAG_C; break;
        case SEC: r.p |= FLAG_C; break;
        case CLI: r.p &= ~(u32)FLAG_I; break;
        case SEI: r.p |= FLAG_I; break;
        case CLV: r.p &= ~(u32)FLAG_V; break;
        case CLD: r.p &= ~(u32)FLAG_D; break;
        case SED: r.p |= FLAG_D; break;
        case DEX: set_nz(r, r.x = (r.x - 1) & 0xFF); break;
        case DEY: set_nz(r, r.y = (r.y - 1) & 0xFF); break;
        case INX: set_nz(r, r.x = (r.x + 1) & 0xFF); break;
        case INY: set_nz(r, r.y = (r.y + 1) & 0xFF); break;
        case TAX: set_nz(r, r.x = r.a); break;
        case TAY: set_nz(r, r.y = r.a); break;
        case TXA: set_nz(r, r.a = r.x); break;
        case TYA: set_nz(r, r.a = r.y); break;
        case TSX: set_nz(r, r.x = r.sp); break;
        case TXS: r.sp = r.x; break;
        case PHA: push(r, bus, r.a); break;
        case PHP: push(r, bus, status(r)); break;
        case PLA: set_nz(r, r.a = pull_first(r, bus)); break;
        case PLP: load_status(r, pull_first(r, bus) | 0x30); break;
        case BRK: operand(bus, 0); brk(r, bus); break;   // its dummy read of the byte after it
        case JSR: jsr(r, bus, operand(bus, 0)); break;
        case RTS: rts(r, bus); break;
        case RTI: rti(r, bus); break;
        default: break;
    }
    // The one write of every store and read-modify-write: on the GPU one inlined copy of the
    // bus's poke instead of twenty, and fewer registers.
    if (access & WRITE) bus.poke((u16)addr, (u8)v);
    return 0;
}

// An entry of m6502::OPCODES unpacked into the arguments of `execute`.
#define CULE_DECODE(entry) (u8)((entry) & 0x0F), (u8)((entry) >> 4 & 0x03), (u8)((entry) >> 6 & 0x7F), (u8)((entry) >> 13)
#define CULE_OPCODE(n) \
    case n: return execute(r, bus, n, Fetched{ops}, CULE_DECODE(m6502::OPCODES[n]));
#define CULE_OPCODES16(n)                                                                          \
    CULE_OPCODE(n + 0) CULE_OPCODE(n + 1) CULE_OPCODE(n + 2) CULE_OPCODE(n + 3) CULE_OPCODE(n + 4)    \
    CULE_OPCODE(n + 5) CULE_OPCODE(n + 6) CULE_OPCODE(n + 7) CULE_OPCODE(n + 8) CULE_OPCODE(n + 9)    \
    CULE_OPCODE(n + 10) CULE_OPCODE(n + 11) CULE_OPCODE(n + 12) CULE_OPCODE(n + 13) CULE_OPCODE(n + 14) \
    CULE_OPCODE(n + 15)

#if !defined(__CUDA_ARCH__)
// The host's fetch of an instruction (cpu_step's and console_frame's): its opcode, and its operand
// bytes into `ops`. They are read from the cartridge's window where all of them lie there
// (Bus::fetch: one test, no access that could have an effect), else through the bus one at a
// time, in the 6502's order, the PC wrapped first.
template <class Bus>
CULE_INLINE u32 cpu_fetch(Regs& r, Bus& bus, u32& ops) {
    u32 opcode;
    ops = 0;
    if (!bus.fetch.holds(r.pc)) {
        r.pc &= 0xFFFF;
        bus.open_fetch(r.pc);
    }
    CULE_TRACE_EVENT(INSN, 0, r.pc, bus.code_key(r.pc));
    if (bus.fetch.holds(r.pc)) {
        const u8* bytes = bus.fetch.at(r.pc);
        opcode = bytes[0];
        ops = load_u16(bytes + 1);
#ifdef CULE_TRACE
        for (u32 i = 0; i <= (u32)(m6502::OPCODES[opcode] >> 13); ++i)
            CULE_TRACE_EVENT(READ, bytes[i], r.pc + i, bus.read_key((u16)(r.pc + i)));
#endif
    } else {
        // The operand bytes are read at the count the instruction's accesses see, which `execute`
        // adds for good.
        opcode = bus.peek((u16)r.pc);
        bus.add_cycles(m6502::CYCLES[opcode]);
        const u32 fetched = m6502::OPCODES[opcode] >> 13;
        if (fetched) ops = bus.peek((u16)(r.pc + 1));
        if (fetched > 1) ops |= (u32)bus.peek((u16)(r.pc + 2)) << 8;
        bus.add_cycles(0u - m6502::CYCLES[opcode]);
    }
    return opcode;
}
#endif

// One instruction (cpu_fetch on the host). A GPU warp runs few distinct paths through the two
// small switches of `execute`; a host core predicts one 256-way dispatch much better than two in
// a row. Gives execute's result.
template <class Bus>
CULE_INLINE u32 cpu_step(Regs& r, Bus& bus) {
#if defined(__CUDA_ARCH__)
    r.pc &= 0xFFFF;
    const u8 opcode = (u8)bus.peek((u16)r.pc);
    return execute(r, bus, opcode, ReadThrough{r.pc + 1}, CULE_DECODE(m6502::OPCODES[opcode]));
#else
    u32 ops;
    switch (cpu_fetch(r, bus, ops)) {
        CULE_OPCODES16(0x00) CULE_OPCODES16(0x10) CULE_OPCODES16(0x20) CULE_OPCODES16(0x30)
        CULE_OPCODES16(0x40) CULE_OPCODES16(0x50) CULE_OPCODES16(0x60) CULE_OPCODES16(0x70)
        CULE_OPCODES16(0x80) CULE_OPCODES16(0x90) CULE_OPCODES16(0xA0) CULE_OPCODES16(0xB0)
        CULE_OPCODES16(0xC0) CULE_OPCODES16(0xD0) CULE_OPCODES16(0xE0) CULE_OPCODES16(0xF0)
    }
    return 0;   // not reached: every opcode has its case
#endif
}

// The host's frame loop (console_frame) runs cpu_run's instructions with a dispatch of its own: a
// jump through a table of its 256 cases' addresses (GNU C's labels as values; the opcode a u32,
// cpu_fetch's, as a u8 took g++ a sign extension), where a switch's table in position-independent
// code holds offsets, two instructions more a dispatch (v5, callgrind, 8 envs, 2-core AMD EPYC,
// g++ 12.2, 2026-12-07: Pong 433.3K to 420.0K host instructions a frame, Seaquest 509.6K to
// 499.8K). A function that takes its labels' addresses is never inlined, so the cases are
// console_frame's own, written out by these: CULE_OPCODE_LABELS, the table's entries;
// CULE_LABELLED_OPCODES, the cases, each of which executes its opcode (console_frame's `cpu` and
// `bus`, the operand bytes `ops`), sets `branched` to what execute gives and goes to `executed`.
#if !defined(__CUDA_ARCH__)
#define CULE_HEX16(M, h)                                                                                           \
    M(h, 0) M(h, 1) M(h, 2) M(h, 3) M(h, 4) M(h, 5) M(h, 6) M(h, 7) M(h, 8) M(h, 9) M(h, A) M(h, B) M(h, C) M(h, D) \
    M(h, E) M(h, F)
#define CULE_HEX256(M)                                                                                       \
    CULE_HEX16(M, 0) CULE_HEX16(M, 1) CULE_HEX16(M, 2) CULE_HEX16(M, 3) CULE_HEX16(M, 4) CULE_HEX16(M, 5)     \
    CULE_HEX16(M, 6) CULE_HEX16(M, 7) CULE_HEX16(M, 8) CULE_HEX16(M, 9) CULE_HEX16(M, A) CULE_HEX16(M, B)     \
    CULE_HEX16(M, C) CULE_HEX16(M, D) CULE_HEX16(M, E) CULE_HEX16(M, F)
#define CULE_OPCODE_LABEL(h, l) &&opcode_##h##l,
#define CULE_LABELLED_OPCODE(h, l)                                                                        \
    opcode_##h##l:                                                                                        \
    branched = execute(cpu, bus, 0x##h##l, Fetched{ops}, CULE_DECODE(m6502::OPCODES[0x##h##l]));          \
    goto executed;
#define CULE_OPCODE_LABELS CULE_HEX256(CULE_OPCODE_LABEL)
#define CULE_LABELLED_OPCODES CULE_HEX256(CULE_LABELLED_OPCODE)
#endif

// What follows an instruction that gave `branched` (cpu_step): with a loop that waits for the
// timer, as many of its instructions as the bus runs at once (Bus::wait_on_timer); gives the number
// run, each taken from the bus's budget for the frame (Bus::left), which must hold one. The GPU's
// kernels run such waits at once: a lane polling the timer would otherwise run alone. The host does only
// with -DCULE_TIMER_WAIT (the tests' and benchmarks' builds, `make build/timer_wait/_core.so`): there
// they cost about what they save (v5, 10 games: callgrind's instructions per frame 0.0% fewer as a
// geometric mean, Pong 8.8% more; frames/s 1.3% fewer; benchmarks/timer_wait.py), the exact same
// states either way (tests/test_timer_wait.py). The wait is called here, not from the branch's
// case, where it cost every instruction (v5 Pong 930K host instructions a frame against 909K).
#if defined(__CUDA_ARCH__) || defined(CULE_TIMER_WAIT)
#define CULE_RUNS_TIMER_WAITS 1
#endif
template <class Bus>
CULE_INLINE u32 cpu_run(Regs& r, Bus& bus, u32 branched) {
    --bus.left;
#ifdef CULE_RUNS_TIMER_WAITS
    if (branched && (i32)bus.left > 0) {
        const TimerWait w = bus.wait_on_timer(r, branched & 7, bus.left + 1);
        if (w.instructions) m6502::poll_read(r, w.opcode, w.value);
        bus.left -= w.instructions;
        return 1 + w.instructions;
    }
#else
    (void)r;
    (void)branched;
#endif
    return 1;
}

// One instruction and what follows it.
template <class Bus>
CULE_INLINE u32 cpu_run(Regs& r, Bus& bus) {
    return cpu_run(r, bus, cpu_step(r, bus));
}
#undef CULE_OPCODES16
#undef CULE_OPCODE

}  // namespace cule
