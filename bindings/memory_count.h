// Every load and store the kernels make in the buffers of a launch, counted by buffer and by
// byte offset within an element (an env's machine, render job or frame buffers; a warp's tile),
// for the memory model (kernel_models/memory_model.py). The build that counts
// (build/memory/_cuda_host.so, `make memory-model`) compiles module_cuda_host.cpp with
// -fsanitize=thread, which makes every load and store of the optimised code (GIMPLE's, as
// the passes before the instrumenting one left them) a call to the functions below, and links no
// sanitizer runtime: they count and nothing else. Registers and the stack are not memory here;
// spills the GPU's register allocator would add are not counted.
// One host thread only: a counting launch runs without a thread pool (memory_model.py).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cule::memory_count {

// What a buffer's accesses add up to, per byte offset within an element: accesses, the bytes
// they take, and the 32-byte sectors they span (of their own addresses: a lane's own).
struct Counts {
    std::vector<uint64_t> accesses, bytes, sectors;
    explicit Counts(size_t n = 0) : accesses(n), bytes(n), sectors(n) {}
};

struct Region {
    std::string name;
    uintptr_t begin, end, stride;
    Counts loads, stores;
};

inline std::vector<Region> regions;

// What count() reads: plain arrays, since it may call nothing that is itself instrumented (a
// vector's out-of-line begin() would call it back).
struct Slot {
    uintptr_t begin, end, stride;
    uint64_t* counts[2][3];   // loads, stores: accesses, bytes, sectors
};
enum { MAX_REGIONS = 64 };
inline Slot slots[MAX_REGIONS];
inline int num_slots = 0;

__attribute__((no_sanitize_thread)) inline void count(const void* p, uint64_t size, bool store) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    for (int i = 0; i < num_slots; ++i) {
        const Slot& r = slots[i];
        if (a < r.begin || a >= r.end) continue;
        const size_t offset = (a - r.begin) % r.stride;
        r.counts[store][0][offset] += 1;
        r.counts[store][1][offset] += size;
        r.counts[store][2][offset] += ((a + size - 1) >> 5) - (a >> 5) + 1;
        return;
    }
}

inline pybind11::bytes as_bytes(const std::vector<uint64_t>& v) {
    return pybind11::bytes(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(uint64_t));
}

// `buffers`: (name, address, bytes, element bytes) each; counting starts afresh.
inline void start(const pybind11::list& buffers) {
    num_slots = 0;
    regions.clear();
    if (pybind11::len(buffers) > MAX_REGIONS)
        throw pybind11::value_error("count_memory: at most " + std::to_string(MAX_REGIONS) + " buffers, got " +
                                    std::to_string(pybind11::len(buffers)));
    for (const auto& b : buffers) {
        const auto t = b.cast<pybind11::tuple>();
        const auto begin = t[1].cast<uintptr_t>(), bytes = t[2].cast<uintptr_t>(), stride = t[3].cast<uintptr_t>();
        if (stride == 0 || bytes % stride)
            throw pybind11::value_error("count_memory: " + t[0].cast<std::string>() + "'s element of " +
                                        std::to_string(stride) + " bytes does not divide its " +
                                        std::to_string(bytes));
        regions.push_back(Region{t[0].cast<std::string>(), begin, begin + bytes, stride, Counts(stride), Counts(stride)});
    }
    for (Region& r : regions) {
        Slot& slot = slots[num_slots++];
        slot = Slot{r.begin, r.end, r.stride, {{r.loads.accesses.data(), r.loads.bytes.data(), r.loads.sectors.data()},
                                               {r.stores.accesses.data(), r.stores.bytes.data(), r.stores.sectors.data()}}};
    }
}

// Stops counting; per buffer, the uint64 arrays of loads and stores by offset (accesses, bytes,
// sectors), as bytes.
inline pybind11::dict stop() {
    num_slots = 0;
    pybind11::dict out;
    for (const Region& r : regions) {
        pybind11::dict d;
        for (const auto& [kind, c] : {std::pair<const char*, const Counts*>{"load", &r.loads}, {"store", &r.stores}}) {
            d[(std::string(kind) + "_accesses").c_str()] = as_bytes(c->accesses);
            d[(std::string(kind) + "_bytes").c_str()] = as_bytes(c->bytes);
            d[(std::string(kind) + "_sectors").c_str()] = as_bytes(c->sectors);
        }
        out[r.name.c_str()] = d;
    }
    regions.clear();
    return out;
}

inline void define(pybind11::module_& m) {
    m.def("count_memory", &start, pybind11::arg("buffers"),
          "Counts the loads and stores in these buffers from now on: (name, address, bytes, element bytes) each");
    m.def("memory_counts", &stop, "Stops counting; per buffer, its loads and stores by offset in an element");
}

}  // namespace cule::memory_count

// The calls -fsanitize=thread makes (GCC's declarations of them), counting and nothing else.
extern "C" {
#define CULE_ACCESS(n)                                                                                    \
    __attribute__((no_sanitize_thread, visibility("default"))) void __tsan_read##n(void* p) {             \
        cule::memory_count::count(p, n, false);                                                           \
    }                                                                                                     \
    __attribute__((no_sanitize_thread, visibility("default"))) void __tsan_write##n(void* p) {            \
        cule::memory_count::count(p, n, true);                                                            \
    }
CULE_ACCESS(1)
CULE_ACCESS(2)
CULE_ACCESS(4)
CULE_ACCESS(8)
CULE_ACCESS(16)
#undef CULE_ACCESS
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_read_range(void* p, long n) {
    cule::memory_count::count(p, (uint64_t)n, false);
}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_write_range(void* p, long n) {
    cule::memory_count::count(p, (uint64_t)n, true);
}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_init() {}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_func_entry(void*) {}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_func_exit() {}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_vptr_update(void*, void*) {}
// The atomics of the thread pool and pybind11, done as asked (sequentially consistent).
__attribute__((no_sanitize_thread, visibility("default"))) unsigned char __tsan_atomic8_load(const volatile void* a, int) {
    return __atomic_load_n((const volatile unsigned char*)a, __ATOMIC_SEQ_CST);
}
__attribute__((no_sanitize_thread, visibility("default"))) unsigned long __tsan_atomic64_load(const volatile void* a, int) {
    return __atomic_load_n((const volatile unsigned long*)a, __ATOMIC_SEQ_CST);
}
__attribute__((no_sanitize_thread, visibility("default"))) void __tsan_atomic32_store(volatile void* a, unsigned v, int) {
    __atomic_store_n((volatile unsigned*)a, v, __ATOMIC_SEQ_CST);
}
__attribute__((no_sanitize_thread, visibility("default"))) unsigned __tsan_atomic32_fetch_add(volatile void* a, unsigned v, int) {
    return __atomic_fetch_add((volatile unsigned*)a, v, __ATOMIC_SEQ_CST);
}
__attribute__((no_sanitize_thread, visibility("default"))) unsigned long __tsan_atomic64_fetch_add(volatile void* a, unsigned long v, int) {
    return __atomic_fetch_add((volatile unsigned long*)a, v, __ATOMIC_SEQ_CST);
}
}
