// The CUDA entry points executed on the host (cule._cuda_host): kernels/cuda/kernels.cu compiled
// by g++ in NVRTC's environment (cuda_host.h), each kernel launched over its whole grid, every
// (block, thread) run with its own indices. The CUDA backend's Python code drives these as it
// drives the GPU's, so CI runs every line of the GPU path without a GPU.
//
// A launch takes the arguments CuPy would: numpy scalars for the kernel's integer parameters, of
// exactly the parameter's type (CuPy passes a scalar's own bytes, so another width would shift
// every argument after it on the GPU), and data pointers as numpy uint64.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include "bindings/thread_pool.h"   // before cuda_host.h: they take standard headers
#include "bindings/host_warps.h"
#if defined(CULE_COUNT_MEMORY)
#include "bindings/memory_count.h"
#endif
#include <tuple>
#include <type_traits>
#include <utility>

#include "bindings/cuda_host.h"   // after every standard header
#include "cuda/kernels.cu"

namespace py = pybind11;

#if defined(CULE_COUNT_MEMORY)
// The fields of Tia (kernels/atari/tia_state.h), for the memory model's accesses by field.
#define CULE_TIA_FIELDS(X)                                                                                 \
    X(clock_frame_start) X(clock_start_display) X(clock_stop_display) X(clock_last_update) \
    X(clocks_to_end_of_line) X(vsync_finish_clock) X(last_hmove_clock) X(clock_deferred_update) \
    X(dump_disabled_cycle) X(scanlines_last_frame) X(frame_pos) X(pf) X(collision) X(height) X(posp0) \
    X(posp1) X(posm0) X(posm1) X(posbl) X(mp0) X(mp1) X(mm0) X(mm1) X(mbl) X(color) X(vsync) X(vblank) \
    X(nusiz0) X(nusiz1) X(ctrlpf) X(prio_score) X(pf_reflect) X(refp0) X(refp1) X(grp0) X(grp1) X(dgrp0) \
    X(dgrp1) X(cur_grp0) X(cur_grp1) X(enam0) X(enam1) X(enabl) X(denabl) X(vdelp0) X(vdelp1) X(vdelbl) \
    X(resmp0) X(resmp1) X(hmp0) X(hmp1) X(hmm0) X(hmm1) X(hmbl) X(enabled) X(dump_enabled) \
    X(hmove_blank) X(allow_hmove_blank) X(m0_ark) X(m0_ark_counter) X(ystart) X(pal) X(front) \
    X(partial_frame) X(frame_greyed) X(audio) X(audio_written) X(padding)

// The parts of an env's machine and render job and the TIA's fields, where the memory model
// (kernel_models/memory_model.py) tells its counts apart.
static void define_memory_parts(py::module_& m) {
    // (name, offset, bytes), a part inside another listed first
    const size_t console = offsetof(Machine, console), riot = console + offsetof(Console, riot);
    const size_t hot = console + offsetof(Console, cycles), log = offsetof(RenderJob, log);
    m.attr("MACHINE_PARTS") = py::make_tuple(
        py::make_tuple("header", offsetof(Machine, header), sizeof(StateHeader)),
        py::make_tuple("cpu", console + offsetof(Console, cpu), sizeof(Cpu6502)),
        py::make_tuple("ram", riot + offsetof(Riot, ram), (size_t)RAM_BYTES),
        py::make_tuple("riot", riot, sizeof(Riot)),
        py::make_tuple("tia", console + offsetof(Console, tia), sizeof(Tia)),
        py::make_tuple("ports", console + offsetof(Console, ports), sizeof(Ports)),
        py::make_tuple("cart", console + offsetof(Console, cart), sizeof(Cart)),
        py::make_tuple("tia_inputs", console + offsetof(Console, inputs), sizeof(TiaInputs)),
        py::make_tuple("hot_fields", hot, offsetof(Console, padding1) - offsetof(Console, cycles)),
        py::make_tuple("game", offsetof(Machine, game), sizeof(GameState)),
        py::make_tuple("sound", offsetof(Machine, sound), 2 * sizeof(TiaSound)),
        py::make_tuple("machine_rest", (size_t)0, sizeof(Machine)));
    // Each of the TIA's fields: (name, offset in a Machine, bytes), all of them (the sizes add up).
    py::list tia_fields;
    const size_t tia = console + offsetof(Console, tia);
#define CULE_FIELD(f) tia_fields.append(py::make_tuple(#f, tia + offsetof(Tia, f), sizeof(Tia::f)));
#define CULE_SIZE(f) +sizeof(Tia::f)
    CULE_TIA_FIELDS(CULE_FIELD)
    static_assert(0 CULE_TIA_FIELDS(CULE_SIZE) == sizeof(Tia), "CULE_TIA_FIELDS names every field of Tia");
#undef CULE_FIELD
#undef CULE_SIZE
    m.attr("TIA_FIELDS") = py::tuple(tia_fields);
    m.attr("RENDER_JOB_PARTS") = py::make_tuple(
        py::make_tuple("log_tia", log + offsetof(TiaLog, start), sizeof(TiaLog::start)),
        py::make_tuple("log_counters", log, sizeof(TiaLog)),   // end, count, frames, whole, full
        py::make_tuple("start_machine", offsetof(RenderJob, start), sizeof(Machine)),
        py::make_tuple("job_rest", (size_t)0, sizeof(RenderJob)));
    // The in-passes kernel's TIA slots (kernels.cu) and RAM tile (console.h): the calling thread's,
    // a block's shared memory.
    m.def("tia_slots", [] { return py::make_tuple(reinterpret_cast<uintptr_t>(tia_slots), sizeof(tia_slots)); });
    m.def("ram_tile", [] { return py::make_tuple(reinterpret_cast<uintptr_t>(warp_ram_tile), sizeof(warp_ram_tile)); });
}
#endif

namespace {

std::string numpy_name(bool is_signed, size_t bytes) {
    return std::string(is_signed ? "int" : "uint") + std::to_string(8 * bytes);
}

// Argument `i` of a kernel whose parameter has type T.
template <class T>
T kernel_arg(const py::tuple& args, size_t i, const char* kernel) {
    static_assert(std::is_pointer_v<T> || std::is_integral_v<T>, "kernel parameters are pointers or integers");
    constexpr bool is_signed = std::is_pointer_v<T> ? false : std::is_signed_v<T>;
    constexpr size_t bytes = std::is_pointer_v<T> ? 8 : sizeof(T);
    const py::handle a = args[i];
    const py::object dtype = py::getattr(a, "dtype", py::none());
    const bool scalar = !dtype.is_none() && py::len(a.attr("shape")) == 0;
    if (!scalar || dtype.attr("kind").cast<char>() != (is_signed ? 'i' : 'u') ||
        dtype.attr("itemsize").cast<size_t>() != bytes)
        throw py::type_error(std::string(kernel) + ": argument " + std::to_string(i) + " must be a numpy " +
                             numpy_name(is_signed, bytes) + (std::is_pointer_v<T> ? " (a data pointer)" : "") +
                             ", got " + std::string(py::str(py::type::of(a).attr("__name__"))) + " " +
                             std::string(py::str(a)));
    if constexpr (std::is_pointer_v<T>) return reinterpret_cast<T>(a.attr("item")().cast<unsigned long long>());
    else return a.attr("item")().cast<T>();
}

template <class... A, size_t... I>
std::tuple<A...> kernel_args(const py::tuple& args, const char* kernel, std::index_sequence<I...>) {
    return std::tuple<A...>{kernel_arg<A>(args, I, kernel)...};
}

// Runs `kernel` over `grid` blocks of `block` threads, blocks spread over the threads of `pool`
// (none: this thread alone; no kernel depends on another block: no barriers, no atomics), each
// block on one host thread from start to end, whose thread_local variables are the block's shared
// memory (cuda_host.h). With `warps` each warp's lanes run as fibers that meet where the kernel
// makes them (bindings/host_warps.h), else thread after thread.
template <class... A>
void launch(void (*kernel)(A...), const char* name, u32 grid, u32 block, const py::tuple& args,
            cule::bindings::ThreadPool* pool, bool warps) {
    if (args.size() != sizeof...(A))
        throw py::type_error(std::string(name) + " takes " + std::to_string(sizeof...(A)) + " arguments, got " +
                             std::to_string(args.size()));
    if (grid == 0 || block == 0 || block > 1024)
        throw py::value_error(std::string(name) + ": a launch needs 1.. blocks of 1..1024 threads, got " +
                              std::to_string(grid) + " x " + std::to_string(block));
    const std::tuple<A...> values = kernel_args<A...>(args, name, std::index_sequence_for<A...>{});
    auto run_block = [&](u32 b) {
        gridDim = {grid, 1, 1};
        blockDim = {block, 1, 1};
        blockIdx = {b, 0, 0};
        if (!warps) {
            for (u32 t = 0; t < block; ++t) {
                threadIdx = {t, 0, 0};
                std::apply(kernel, values);
            }
            return;
        }
        for (u32 first = 0; first < block; first += 32) {
            // the lanes share this host thread's threadIdx: each sets it again when it resumes
            auto lane = [&](unsigned l) { std::apply(kernel, values); };
            auto resumed = [&](unsigned l) { threadIdx = {first + l, 0, 0}; };
            cule::host_warps::Warp().run(std::min(32u, block - first), lane, resumed);
        }
    };
    py::gil_scoped_release release;
    if (pool == nullptr) {
        for (u32 b = 0; b < grid; ++b) run_block(b);
        return;
    }
    pool->for_each((int)grid, [&](int b, int) { run_block((u32)b); });
}

}  // namespace

PYBIND11_MODULE(_cuda_host, m) {
    m.doc() = "kernels/cuda/kernels.cu executed on the host, thread by thread, for testing the CUDA backend";
    py::class_<cule::bindings::ThreadPool>(m, "ThreadPool", py::module_local())
        .def(py::init<int>(), py::arg("threads"))
        .def_property_readonly("size", &cule::bindings::ThreadPool::size);
#define CULE_DEF(name)                                                                                     \
    m.def(#name, [](u32 grid, u32 block, const py::tuple& args, cule::bindings::ThreadPool* pool, bool warps) { \
        launch(name, #name, grid, block, args, pool, warps);                                               \
    }, py::arg("grid"), py::arg("block"), py::arg("args"), py::arg("pool") = nullptr, py::arg("warps") = false);
    CULE_FOR_EACH_KERNEL(CULE_DEF)
#undef CULE_DEF
    py::list names;
#define CULE_NAME(name) names.append(#name);
    CULE_FOR_EACH_KERNEL(CULE_NAME)
#undef CULE_NAME
    m.attr("KERNEL_NAMES") = py::tuple(names);
#if defined(CULE_COUNT_MEMORY)
    cule::memory_count::define(m);
    define_memory_parts(m);
#endif
}
