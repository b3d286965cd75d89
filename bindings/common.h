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
inline i32 screen_bytes(const Display& display) { return 2 * display_pixels(display); }

// A cartridge's state by name: its bank, a Superchip's RAM, the DPC's registers.
inline py::dict cart_fields(const Cart& c) {
    py::dict d;
    d["bank"] = c.bank[0];
    if (cart_has_superchip(c.scheme)) d["ram"] = py::bytes((const char*)c.ram, (size_t)CART_RAM_BYTES);
    if (c.scheme == CART_DPC) {
        const Dpc& p = c.dpc;
        auto list = [](const auto* v, u32 n) {
            py::list l;
            for (u32 i = 0; i < n; ++i) l.append((int)v[i]);
            return l;
        };
        d["top"] = list(p.top, 8); d["bottom"] = list(p.bottom, 8); d["flag"] = list(p.flag, 8);
        d["counter"] = list(p.counter, 8); d["music"] = list(p.music, 3); d["random"] = p.random;
        d["music_cycles"] = p.music_cycles; d["music_fraction"] = bits_as_double(p.music_fraction);
    }
    return d;
}

}  // namespace cule::bindings
