"""The CUDA entry points compile with NVRTC for the architectures cule ships, on any machine:
NVRTC needs no GPU. A failure here means the kernels/ sources stopped being valid CUDA."""
import pytest

from cule import _core, nvrtc
from cule.backends.cuda import KERNEL_NAMES


@pytest.mark.parametrize("arch", ["compute_80", "compute_90"])
def test_cuda_entry_points_compile(arch):
    ptx = nvrtc.compile_ptx(arch)
    assert f".target sm_{arch[-2:]}" in ptx
    for name in KERNEL_NAMES:   # every kernel the CUDA backend launches
        assert f".entry {name}(" in ptx


def test_split_keeps_drawing_out_of_the_state_kernel():
    # Occupancy is set by registers per thread: the state-update kernel of the split must stay well
    # below the one-kernel step's 255 (the cap), the replay kernel far below both.
    r = nvrtc.kernel_resources("sm_90", {"CULE_GAME": 0})
    assert r["cule_step"]["registers"] > 0
    assert r["cule_step_logged"]["registers"] <= 160 < r["cule_step"]["registers"]
    assert r["cule_render"]["registers"] <= 96 and r["cule_render_by_clock"]["registers"] <= 96


def test_bad_source_reports_the_compiler_log(tmp_path, monkeypatch):
    (tmp_path / "broken.cu").write_text('extern "C" __global__ void k() { undefined_name(); }\n')
    monkeypatch.setattr(nvrtc, "KERNELS", tmp_path)
    with pytest.raises(nvrtc.NvrtcError, match="undefined_name"):
        nvrtc.compile_ptx("compute_80", source_name="broken.cu")


def test_a_module_is_compiled_once_until_a_source_changes(tmp_path, monkeypatch):
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "tiny.cu").write_text('#include "value.h"\nextern "C" __global__ void k(int* x) { *x = VALUE; }\n')
    (kernels / "value.h").write_text("#define VALUE 12345\n")
    monkeypatch.setattr(nvrtc, "KERNELS", kernels)
    monkeypatch.setenv("CULE_NVRTC_CACHE", str(tmp_path / "cache"))
    compiles = []
    monkeypatch.setattr(nvrtc, "_load_library", lambda real=nvrtc._load_library: compiles.append(1) or real())
    first = nvrtc.compile_ptx("compute_80", source_name="tiny.cu")
    assert "12345" in first
    assert nvrtc.compile_ptx("compute_80", source_name="tiny.cu") == first and len(compiles) == 1
    assert nvrtc.compile_ptx("compute_90", source_name="tiny.cu") != first and len(compiles) == 2
    (kernels / "value.h").write_text("#define VALUE 54321\n")   # an included header changes
    assert "54321" in nvrtc.compile_ptx("compute_80", source_name="tiny.cu") and len(compiles) == 3


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_the_warp_schedule_fits_its_warps_an_sm(arch):
    # the in-passes state kernel's launch bound (console.h, IN_PASSES_WARPS_PER_SM): an SM's 65,536
    # registers hold that many warps; what it spills lies outside the interpreter (test_sass.py)
    r = nvrtc.kernel_resources(arch, {"CULE_GAME": 0})["cule_step_in_passes"]
    assert r["registers"] * 32 * _core.IN_PASSES_WARPS_PER_SM <= 65536, r


def test_only_the_one_kernel_step_spills_registers():
    # ptxas's report: the one-kernel step at the 255-register cap spills; the split step's state
    # kernel and the render kernels keep everything in registers (the warp schedule's, bounded,
    # spills around the frame's loop: test_the_warp_schedule_fits_its_warps_an_sm). Only the warp
    # schedule's has shared memory: its block's TIA slots (console.h, LaneTiles) and RAM tile
    # (console.h, warp_ram_tile).
    report = nvrtc.kernel_ptxas_report("sm_90", {"CULE_GAME": 0})
    assert set(KERNEL_NAMES) <= set(report)
    assert report["cule_step"]["spill_store_bytes"] > 0 and report["cule_step"]["spill_load_bytes"] > 0
    for name in ("cule_step_logged", "cule_render", "cule_render_by_clock"):
        assert report[name]["spill_store_bytes"] == report[name]["spill_load_bytes"] == 0, name
    block = _core.STEP_BLOCK_LANES * _core.TIA_SLOT_BYTES + _core.RAM_BYTES * _core.WARP_LANES
    assert {name: r["shared_bytes"] for name, r in report.items() if r["shared_bytes"]} == {"cule_step_in_passes": block}
