"""Builds the pybind11 extensions (bindings/), compiled from the same kernels/ headers that NVRTC
compiles for the GPU. Everything else is declared in pyproject.toml."""
import os
from pathlib import Path

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

# The flags every build of kernels/ shares, declared once (the Makefile's builds and NVRTC,
# cule/nvrtc.py, read the same file): C++17; no fused multiply-adds, since frame resizing must
# round as OpenCV does (kernels/env/resize.h), on the host as on the GPU; no errno from maths
# functions, so that lrintf is one instruction, not a call; no warnings for CUDA's pragmas.
COMPILE_FLAGS = Path("kernels/compile_flags.txt").read_text().split()


# Every module includes the headers: an edited header rebuilds them all.
HEADERS = sorted(str(p) for folder in ("kernels", "bindings") for p in Path(folder).rglob("*")
                 if p.suffix in {".h", ".cu", ".txt"})


def extension(name: str, source: str) -> Pybind11Extension:
    return Pybind11Extension(name, [source], include_dirs=["kernels", "."], depends=HEADERS, cxx_std=None,
                             extra_compile_args=["-O3", *COMPILE_FLAGS])


setup(
    ext_modules=[
        # The core both backends import: the emulator built for the host, the CPU backend's VecEnv
        # (its threads are its own: bindings/thread_pool.h), states and their checks, the games.
        extension("cule._core", "bindings/module_core.cpp"),
        # The CUDA entry points executed on the host, thread by thread, blocks on the same kind of
        # threads: the CUDA backend on a machine without a GPU (tests, CI).
        extension("cule._cuda_host", "bindings/module_cuda_host.cpp"),
        # Single components driven one access at a time, for the tests only.
        extension("cule._probes", "bindings/module_probes.cpp"),
    ],
    cmdclass={"build_ext": build_ext},
    options={"build_ext": {"parallel": os.cpu_count()}},   # the modules at once, one a core
)
