"""The wheel ships kernels/ (NVRTC compiles it at run time): every kernel source must be matched
by the package-data patterns of pyproject.toml."""
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")   # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def test_every_kernel_source_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["cule.kernels"]
    kernels = ROOT / "kernels"
    shipped = {p for pattern in patterns for p in kernels.glob(pattern)}
    sources = {p for p in kernels.rglob("*") if p.suffix in {".h", ".cpp", ".cu"}}
    assert len(sources) > 60
    assert sources - shipped == set(), f"not shipped in the wheel: {sorted(sources - shipped)}"
