// What every part of the CPU module shares: machine states travel as raw bytes (numpy uint8),
// so pools and snapshots are plain arrays.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "env/env.h"

namespace cule::bindings {
namespace py = pybind11;

using Bytes = py::array_t<u8, py::array::c_style>;

// Both frame buffers of a machine of `display`.
inline i32 screen_bytes(const Display& display) { return 2 * (i32)display.height * SCREEN_WIDTH; }

}  // namespace cule::bindings
