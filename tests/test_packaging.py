"""The wheel ships kernels/ (NVRTC compiles it at run time) as the package cule.kernels and its
subpackages: every kernel source must be matched by the package-data patterns of pyproject.toml,
in a directory listed as a package."""
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")   # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def test_every_kernel_source_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    kernels = ROOT / "kernels"
    shipped = set()
    for package, patterns in config["package-data"].items():
        if package == "cule.kernels" or package.startswith("cule.kernels."):
            assert package in config["packages"], f"{package} has package data but is not a package"
            directory = kernels.joinpath(*package.split(".")[2:])
            shipped |= {p for pattern in patterns for p in directory.glob(pattern)}
    sources = {p for p in kernels.rglob("*") if p.suffix in {".h", ".cpp", ".cu"}}
    assert len(sources) > 60
    assert sources - shipped == set(), f"not shipped in the wheel: {sorted(sources - shipped)}"
    directories = {"cule.kernels" + "".join("." + part for part in p.parent.relative_to(kernels).parts) for p in sources}
    assert directories <= set(config["packages"]), "every directory of kernels/ must be a package (setuptools warns)"
