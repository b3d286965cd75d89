// What NVRTC provides to kernels/cuda/kernels.cu, supplied for g++ so that the host can execute
// the CUDA entry points thread by thread (module_cuda_host.cpp). With __CUDA_ARCH__ defined the
// headers take their device paths (aligned 8-byte loads and stores, the GPU's fill_bytes and
// opcode dispatch, __float2int_rn): the host runs the code the GPU runs, not the CPU backend's.
// Include it after every standard header and before any kernels/ header: its macros are for the
// kernels alone (glibc spells attributes as __noinline__, for one).
#pragma once

#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 900

#define __global__
#define __launch_bounds__(...)
#define __device__
#define __host__
#define __constant__
// A block's shared memory: the host thread's, which runs a block's warps one after another and
// no other block meanwhile (module_cuda_host.cpp's launch).
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

// The launch geometry as each thread sees it: module_cuda_host.cpp's launcher sets them for
// the thread it runs, on the host thread that runs it.
struct uint3 {
    unsigned int x, y, z;
};
typedef uint3 dim3;
static thread_local uint3 threadIdx, blockIdx;
static thread_local dim3 blockDim, gridDim;

// Round to nearest, ties to even; NaN gives 0 and values beyond int's range saturate, as on the GPU.
inline int __float2int_rn(float v) {
    const float r = __builtin_rintf(v);
    if (r != r) return 0;
    if (r >= 2147483648.0f) return 2147483647;
    if (r < -2147483648.0f) return -2147483647 - 1;
    return (int)r;
}

inline int __popc(unsigned int x) { return __builtin_popcount(x); }

// A double's bits as an integer and back, as the GPU's reinterpreting intrinsics do.
inline long long __double_as_longlong(double v) {
    long long bits;
    __builtin_memcpy(&bits, &v, 8);
    return bits;
}
inline double __longlong_as_double(long long bits) {
    double v;
    __builtin_memcpy(&v, &bits, 8);
    return v;
}
