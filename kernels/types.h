// Fixed-width types and the host/device function marker, for g++ and NVRTC alike.
// NVRTC has no standard headers by default, so the project defines its own.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CULE_HD __host__ __device__ inline
#define CULE_INLINE __host__ __device__ __forceinline__
#define CULE_NOINLINE __host__ __device__ __noinline__
#define CULE_CONST __constant__
#else
#define CULE_HD inline
#define CULE_INLINE inline __attribute__((always_inline))   // where the host must specialise
#define CULE_NOINLINE __attribute__((noinline))
#define CULE_CONST
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

static_assert(sizeof(u8) == 1 && sizeof(u16) == 2 && sizeof(u32) == 4 && sizeof(u64) == 8,
              "fixed-width types");

}  // namespace cule
