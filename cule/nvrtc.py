"""Compiles the kernels/ sources with NVRTC (CUDA's run-time compiler) through ctypes.

No GPU and no CUDA toolkit are needed: the library comes from the `nvidia-cuda-nvrtc-cu12`
wheel (or a system libnvrtc). CI uses this to prove that the CUDA entry points compile for the
architectures we ship (sm_80, sm_90) on a machine without a GPU.
"""
from __future__ import annotations

import ctypes
import glob
import os
from pathlib import Path

KERNELS = Path(__file__).resolve().parent / "kernels"
if not KERNELS.is_dir():   # editable install: the sources stay in the repository
    KERNELS = Path(__file__).resolve().parent.parent / "kernels"
CUDA_ENTRY = "cuda_kernels.cu"


class NvrtcError(RuntimeError):
    pass


def _load_library() -> ctypes.CDLL:
    candidates = []
    try:
        import nvidia.cuda_nvrtc as pkg

        for root in pkg.__path__:
            candidates += sorted(glob.glob(os.path.join(root, "lib", "libnvrtc.so*")))
    except ImportError:
        pass
    candidates += ["libnvrtc.so", "libnvrtc.so.12", "libnvrtc.so.13"]
    for name in candidates:
        if "builtins" in name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise NvrtcError("NVRTC not found: pip install nvidia-cuda-nvrtc-cu12 (no GPU needed)")


def compile_ptx(arch: str = "compute_90", defines: dict[str, object] | None = None,
                source_name: str = CUDA_ENTRY) -> str:
    """Compiles kernels/<source_name> to PTX for `arch`; raises NvrtcError with the log."""
    lib = _load_library()
    source = (KERNELS / source_name).read_bytes()
    prog = ctypes.c_void_p()
    check = _checker(lib)
    check(lib.nvrtcCreateProgram(ctypes.byref(prog), source, source_name.encode(), 0, None, None), "create")
    # --fmad=false: frame resizing must round as OpenCV does (kernels/resize.h).
    options = [f"--gpu-architecture={arch}", f"-I{KERNELS}", "-std=c++17", "--device-as-default-execution-space",
               "--fmad=false"]
    options += [f"-D{k}={v}" for k, v in (defines or {}).items()]
    argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    try:
        status = lib.nvrtcCompileProgram(prog, len(options), argv)
        log = _read(lib, prog, lib.nvrtcGetProgramLogSize, lib.nvrtcGetProgramLog)
        if status != 0:
            raise NvrtcError(f"NVRTC failed for {arch}:\n{log}")
        return _read(lib, prog, lib.nvrtcGetPTXSize, lib.nvrtcGetPTX)
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


def _checker(lib):
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def check(status: int, what: str) -> None:
        if status != 0:
            raise NvrtcError(f"nvrtc {what}: {lib.nvrtcGetErrorString(status).decode()}")
    return check


def _read(lib, prog, size_fn, get_fn) -> str:
    size = ctypes.c_size_t()
    size_fn(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    get_fn(prog, buf)
    return buf.value.decode(errors="replace")


def version() -> tuple[int, int]:
    lib = _load_library()
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


if __name__ == "__main__":
    for arch in ("compute_80", "compute_90"):
        ptx = compile_ptx(arch)
        print(f"{arch}: {len(ptx)} bytes of PTX")
