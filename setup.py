"""Builds the CPU backend and the host-executed CUDA kernels, pybind11 extensions compiled from the
same kernels/ headers that NVRTC compiles for the GPU. Everything else is declared in
pyproject.toml."""
from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

cpu_backend = Pybind11Extension(
    "cule._cpu",
    ["kernels/module_cpu.cpp"],
    include_dirs=["kernels"],
    cxx_std=17,
    # No fused multiply-adds: frame resizing must round as OpenCV does (kernels/resize.h).
    extra_compile_args=["-O3", "-fopenmp", "-ffp-contract=off"],
    extra_link_args=["-fopenmp"],
)

# The CUDA entry points executed on the host, thread by thread: the CUDA backend on a machine
# without a GPU (tests, CI). The same flags: its observations must round as the GPU's do.
cuda_host = Pybind11Extension(
    "cule._cuda_host",
    ["kernels/module_cuda_host.cpp"],
    include_dirs=["kernels"],
    cxx_std=17,
    extra_compile_args=["-O3", "-fopenmp", "-ffp-contract=off", "-Wno-unknown-pragmas"],
    extra_link_args=["-fopenmp"],
)

setup(ext_modules=[cpu_backend, cuda_host], cmdclass={"build_ext": build_ext})
