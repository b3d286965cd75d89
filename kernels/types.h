// Fixed-width types and the host/device function marker, for g++ and NVRTC alike.
// NVRTC has no standard headers by default, so the project defines its own.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CULE_HD __host__ __device__ inline
#define CULE_INLINE __host__ __device__ __forceinline__
#define CULE_NOINLINE __host__ __device__ __noinline__
#define CULE_CONST __constant__
#define CULE_UNROLL _Pragma("unroll")
#define CULE_BUS_INLINE CULE_INLINE
#define CULE_HOST_NOINLINE CULE_HD
#define CULE_HOST_FLATTEN
#else
#define CULE_HD inline
#define CULE_INLINE inline __attribute__((always_inline))   // where the host must specialise
#define CULE_NOINLINE __attribute__((noinline))
#define CULE_CONST
#define CULE_UNROLL _Pragma("GCC unroll 8")
// Everything a host function calls inlined into it, but what is declared out of line.
#define CULE_HOST_FLATTEN __attribute__((flatten))
#endif
// Inlining of console.h's Bus. CULE_BUS_INLINE: always, so that the Bus stays in registers (on
// the GPU a call that takes its address puts it in local memory), but CULE_QUICK_BUILD leaves the
// host's to the compiler: the sanitizer build (Makefile) took 12 minutes instead of 2 with the Bus
// forced inline at every access of the interpreter. CULE_HOST_NOINLINE: out of line on the host
// alone.
#ifndef CULE_BUS_INLINE
#if defined(CULE_QUICK_BUILD)
#define CULE_BUS_INLINE inline
#else
#define CULE_BUS_INLINE CULE_INLINE
#endif
#define CULE_HOST_NOINLINE CULE_NOINLINE
#endif

// Instruction traces for the SIMT model: only a host build with -DCULE_TRACE records them.
#ifdef CULE_TRACE
#include "testing/trace.h"
#else
#define CULE_TRACE_EVENT(kind, value, addr, extra) ((void)0)
#endif

namespace cule {

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;

// n bytes of value v from p (memset without the standard headers NVRTC lacks). On the GPU,
// aligned 8-byte stores where the run allows: a frame is mostly long runs of one colour.
CULE_HD void fill_bytes(u8* p, i32 n, u8 v) {
#ifdef __CUDA_ARCH__
    for (; n > 0 && ((u64)p & 7); --n) *p++ = v;
    const u64 word = v * 0x0101010101010101ull;
    for (; n >= 8; n -= 8, p += 8) *(u64*)p = word;
    for (; n > 0; --n) *p++ = v;
#else
    if (n > 0) __builtin_memset(p, v, (unsigned long)n);
#endif
}

// Eight bytes at p, 8-byte aligned.
CULE_HD u64 load_word(const u8* p) {
#ifdef __CUDA_ARCH__
    return *(const u64*)p;
#else
    u64 v;
    __builtin_memcpy(&v, p, 8);
    return v;
#endif
}

CULE_HD void store_word(u8* p, u64 v) {
#ifdef __CUDA_ARCH__
    *(u64*)p = v;
#else
    __builtin_memcpy(p, &v, 8);
#endif
}

// The little-endian 16-bit word at p, at any alignment.
CULE_HD u32 load_u16(const u8* p) {
#ifdef __CUDA_ARCH__
    return p[0] | (u32)p[1] << 8;
#else
    u16 v;
    __builtin_memcpy(&v, p, 2);
    return v;
#endif
}

// n bytes from src to dst, both 8-byte aligned, n a multiple of 8.
CULE_HD void copy_words(u8* dst, const u8* src, i32 n) {
#ifdef __CUDA_ARCH__
    for (i32 i = 0; i < n; i += 8) *(u64*)(dst + i) = *(const u64*)(src + i);
#else
    __builtin_memcpy(dst, src, (unsigned long)n);
#endif
}

// The lanes of a warp that meet (console.h's warp schedule): the set of lanes here together, and
// of a set of lanes that all come here the least value, the sum, the lanes whose value is true,
// the lanes whose value is this lane's. The host runs them as fibers (bindings/host_warps.h).
#if defined(__CUDA_ARCH__) && !defined(CULE_HOST_WARPS)
__device__ __forceinline__ u32 warp_lanes() { return __activemask(); }
__device__ __forceinline__ u32 warp_min(u32 lanes, u32 v) { return __reduce_min_sync(lanes, v); }
__device__ __forceinline__ u32 warp_sum(u32 lanes, u32 v) { return __reduce_add_sync(lanes, v); }
__device__ __forceinline__ u32 warp_ballot(u32 lanes, bool p) { return __ballot_sync(lanes, p); }
__device__ __forceinline__ u32 warp_match(u32 lanes, u32 v) { return __match_any_sync(lanes, v); }
#endif

// The bits set in x.
CULE_HD u32 popcount(u32 x) {
#ifdef __CUDA_ARCH__
    return (u32)__popc(x);
#else
    return (u32)__builtin_popcount(x);
#endif
}

static_assert(sizeof(u8) == 1 && sizeof(u16) == 2 && sizeof(u32) == 4 && sizeof(u64) == 8,
              "fixed-width types");

}  // namespace cule
