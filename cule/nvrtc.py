"""Compiles the kernels/ sources with NVRTC (CUDA's run-time compiler) through ctypes.

No GPU and no CUDA toolkit are needed: the library comes from the `nvidia-cuda-nvrtc-cu12`
wheel (or a system libnvrtc). CI uses this to prove that the CUDA entry points compile for the
architectures we ship (sm_80, sm_90) on a machine without a GPU.
"""
from __future__ import annotations

import ctypes
import fcntl
import glob
import hashlib
import os
import re
import struct
from pathlib import Path

KERNELS = Path(__file__).resolve().parent / "kernels"
if not KERNELS.is_dir():   # editable install: the sources stay in the repository
    KERNELS = Path(__file__).resolve().parent.parent / "kernels"
CUDA_ENTRY = "cuda/kernels.cu"
# The flags every build of kernels/ shares (why each: setup.py), and NVRTC's options for the CUDA
# entry points, here and in cule/backends/cuda.py: the shared flags in NVRTC's spelling (g++'s
# -ffp-contract=off is its --fmad=false), without those for the host alone. The headers' directory
# (-I) is KERNELS's at each compile, so that another kernels/ (kernel_models/sass.py's
# use_kernels) is compiled whole.
COMPILE_FLAGS = tuple((KERNELS / "compile_flags.txt").read_text().split())
_IN_NVRTC = {"-std=c++17": "-std=c++17", "-ffp-contract=off": "--fmad=false"}
OPTIONS = ("--device-as-default-execution-space", *(_IN_NVRTC[f] for f in COMPILE_FLAGS if f in _IN_NVRTC))


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
    return _compile(arch, defines, source_name, cubin=False)[0].decode(errors="replace")


def compile_cubin(arch: str = "sm_90", defines: dict[str, object] | None = None, line_info: bool = False) -> bytes:
    """The entry points as machine code for `arch` (a CUBIN); with line_info, each instruction's
    source lines, inlining included, for a disassembler (kernel_models/sass.py)."""
    return _compile_cubin(arch, defines, line_info)[0]


def _compile_cubin(arch: str, defines: dict[str, object] | None, line_info: bool = False) -> tuple[bytes, str]:
    """The CUBIN and ptxas's report of it: -v costs nothing, and one module serves both."""
    return _compile(arch, defines, CUDA_ENTRY, cubin=True,
                    extra=["--ptxas-options=-v"] + (["-lineinfo"] if line_info else []))


def kernel_resources(arch: str = "sm_90", defines: dict[str, object] | None = None) -> dict[str, dict[str, int]]:
    """Registers per thread and stack bytes of each entry point, as compiled to machine code for
    `arch` (what limits a kernel's occupancy), read from the CUBIN's .nv.info attributes."""
    return _resources(compile_cubin(arch, defines))


_PTXAS = re.compile(r"Compiling entry function '(cule_\w+)'.*?(\d+) bytes spill stores, (\d+) bytes spill loads\n"
                    r"[^\n]*Used \d+ registers(?:[^\n]*?, (\d+) bytes smem)?", re.S)


def kernel_ptxas_report(arch: str = "sm_90", defines: dict[str, object] | None = None) -> dict[str, dict[str, int]]:
    """Per entry point, bytes of registers spilled to local memory (stored, loaded) and of static
    shared memory a block: ptxas's report (-v), which the CUBIN does not keep."""
    _, log = _compile_cubin(arch, defines)
    return {name: dict(spill_store_bytes=int(stores), spill_load_bytes=int(loads), shared_bytes=int(smem or 0))
            for name, stores, loads, smem in _PTXAS.findall(log)}


def _compile(arch: str, defines: dict[str, object] | None, source_name: str, cubin: bool,
             extra: list[str] | None = None) -> tuple[bytes, str]:
    """The PTX or CUBIN, and NVRTC's log. With CULE_NVRTC_CACHE, a directory, each module is
    compiled once for all the processes that share it: a module takes NVRTC tens of seconds, and
    the test run's workers ask for the same ones (tests/conftest.py)."""
    options = [f"--gpu-architecture={arch}", f"-I{KERNELS}", *OPTIONS]
    options += [f"-D{k}={v}" for k, v in (defines or {}).items()] + (extra or [])
    cache = os.environ.get("CULE_NVRTC_CACHE")
    if not cache:
        return _run_nvrtc(arch, source_name, options, cubin)
    key = hashlib.sha256(repr((_sources_digest(), source_name, options, cubin)).encode()).hexdigest()[:32]
    made, log = Path(cache) / f"{key}.out", Path(cache) / f"{key}.log"
    made.parent.mkdir(parents=True, exist_ok=True)
    with open(made.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # held while another process compiles the same module
        if not made.exists():
            out, text = _run_nvrtc(arch, source_name, options, cubin)
            log.write_text(text)
            made.with_suffix(".part").write_bytes(out)
            made.with_suffix(".part").replace(made)
        return made.read_bytes(), log.read_text()


def _sources_digest() -> str:
    """Every file under KERNELS (what an entry point can include), by path and bytes. Not the CUDA
    backend's source_digest: that one names the sources results were made from, in the result
    files, so it keeps its definition; it reads the headers and the entry point of the kernels/
    it was imported with, where a compile here follows KERNELS (sass.use_kernels) and its files."""
    h = hashlib.sha256()
    for f in sorted(p for p in KERNELS.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(KERNELS)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def _run_nvrtc(arch: str, source_name: str, options: list[str], cubin: bool) -> tuple[bytes, str]:
    lib = _load_library()
    source = (KERNELS / source_name).read_bytes()
    prog = ctypes.c_void_p()
    check = _checker(lib)
    check(lib.nvrtcCreateProgram(ctypes.byref(prog), source, source_name.encode(), 0, None, None), "create")
    argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    try:
        status = lib.nvrtcCompileProgram(prog, len(options), argv)
        log = _read(lib, prog, lib.nvrtcGetProgramLogSize, lib.nvrtcGetProgramLog)
        log = log.rstrip(b"\0").decode(errors="replace")
        if status != 0:
            raise NvrtcError(f"NVRTC failed for {arch}:\n{log}")
        if cubin:
            return _read(lib, prog, lib.nvrtcGetCUBINSize, lib.nvrtcGetCUBIN), log
        return _read(lib, prog, lib.nvrtcGetPTXSize, lib.nvrtcGetPTX).rstrip(b"\0"), log
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


def _checker(lib):
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def check(status: int, what: str) -> None:
        if status != 0:
            raise NvrtcError(f"nvrtc {what}: {lib.nvrtcGetErrorString(status).decode()}")
    return check


def _read(lib, prog, size_fn, get_fn) -> bytes:
    size = ctypes.c_size_t()
    size_fn(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    get_fn(prog, buf)
    return buf.raw[:size.value]


# .nv.info attributes (format EIFMT_SVAL: symbol index, value): registers and stack frame size.
_EIFMT_SVAL, _EIATTR_FRAME_SIZE, _EIATTR_REGCOUNT = 0x04, 0x12, 0x2F


def _resources(elf: bytes) -> dict[str, dict[str, int]]:
    """Per-kernel attributes of a 64-bit little-endian CUDA ELF (CUBIN)."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]

    def string(table: int, offset: int) -> str:
        start = sections[table][4] + offset
        return elf[start:elf.index(b"\0", start)].decode()

    symtab = next(s for s in sections if s[1] == 2)   # SHT_SYMTAB
    symbols = [string(symtab[6], struct.unpack_from("<I", elf, symtab[4] + j * 24)[0])
               for j in range(symtab[5] // 24)]
    out: dict[str, dict[str, int]] = {}
    for s in sections:
        if string(shstrndx, s[0]) != ".nv.info":
            continue
        data, i = elf[s[4]:s[4] + s[5]], 0
        while i + 4 <= len(data):
            fmt, attr, size = data[i], data[i + 1], struct.unpack_from("<H", data, i + 2)[0]
            if fmt != _EIFMT_SVAL:   # other formats carry their value in the size field
                i += 4
                continue
            symbol, value = struct.unpack_from("<II", data, i + 4)
            if attr in (_EIATTR_REGCOUNT, _EIATTR_FRAME_SIZE):
                key = "registers" if attr == _EIATTR_REGCOUNT else "stack_bytes"
                out.setdefault(symbols[symbol], {})[key] = value
            i += 4 + size
    return out


def version() -> tuple[int, int]:
    lib = _load_library()
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


if __name__ == "__main__":
    for arch in ("compute_80", "compute_90"):
        ptx = compile_ptx(arch)
        print(f"{arch}: {len(ptx)} bytes of PTX")
    print("sm_90 machine code, per thread:")
    for name, r in sorted(kernel_resources("sm_90").items()):
        print(f"  {name:18s} {r.get('registers', 0):4d} registers {r.get('stack_bytes', 0):6d} bytes of stack")
