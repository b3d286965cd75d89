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
#include <tuple>
#include <type_traits>
#include <utility>

#include "bindings/cuda_host.h"   // after every standard header
#include "cuda/kernels.cu"

namespace py = pybind11;

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
// (none: this thread alone; no kernel depends on another block: no shared memory, no barriers, no
// atomics). With `warps` each warp's lanes run as fibers that meet where the kernel makes them
// (bindings/host_warps.h), else thread after thread.
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
}
