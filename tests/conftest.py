import os

import pytest
import torch


def pytest_configure(config):
    """Under pytest-xdist every core already runs a worker: torch's own threads would spin
    against the other workers (a test of the CUDA backend on the host ran 7x slower), in the
    worker and in the processes its tests start (the examples, the benchmarks)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        torch.set_num_threads(1)
        os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(scope="session", autouse=True)
def nvrtc_modules_compiled_once(tmp_path_factory):
    """The NVRTC modules the tests ask for, compiled once for all the run's workers
    (cule/nvrtc.py): the directory every worker's own temporary directory lies in."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    os.environ.setdefault("CULE_NVRTC_CACHE", str(shared / "nvrtc-modules"))


def pytest_collection_modifyitems(config, items):
    """Tests marked `cuda` need an NVIDIA GPU and CuPy: skip them, saying why, when there is none."""
    try:
        import cupy

        has_gpu = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        has_gpu = False
    if has_gpu:
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU and CuPy")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)
