import pytest


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
