"""The wheel ships kernels/ (NVRTC compiles it at run time) as the package cule.kernels and its
subpackages: every kernel source must be matched by the package-data patterns of pyproject.toml,
in a directory listed as a package. Every build of kernels/ takes the flags declared once in
kernels/compile_flags.txt. And the repository tracks no large file."""
import subprocess
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
    sources = {p for p in kernels.rglob("*") if p.suffix in {".h", ".cpp", ".cu"} or p.name == "compile_flags.txt"}
    assert len(sources) > 60
    assert sources - shipped == set(), f"not shipped in the wheel: {sorted(sources - shipped)}"
    directories = {"cule.kernels" + "".join("." + part for part in p.parent.relative_to(kernels).parts) for p in sources}
    assert directories <= set(config["packages"]), "every directory of kernels/ must be a package (setuptools warns)"


def test_the_version_is_pyprojects():
    import importlib.metadata

    import cule
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cule.__version__ == version == importlib.metadata.version("cule")


def test_the_gpu_extras_bring_nvrtc():
    # CuPy's wheels hold no NVRTC (cupy.RawModule compiles the kernels with it): without the wheel
    # a machine with only a driver could not compile them.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(r.startswith("cupy-cuda12x") for r in extras["cuda12"])
    assert any(r.startswith("nvidia-cuda-nvrtc-cu12") for r in extras["cuda12"])
    assert any(r.startswith("cupy-cuda13x") for r in extras["cuda13"])
    assert any(r.startswith("nvidia-cuda-nvrtc>=13") for r in extras["cuda13"])


@pytest.mark.slow
def test_the_wheel_builds_without_deprecation_warnings_and_holds_the_sources(tmp_path):
    """`pip wheel .` as a user runs it, on a copy of the sources (the checkout's build/ untouched):
    2 to 4 minutes on 2 cores, compiling the three extensions."""
    import shutil
    import subprocess
    import sys
    import zipfile

    source = tmp_path / "cule"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for name in ("cule", "kernels", "bindings"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                            "-w", str(tmp_path / "wheels"), str(source)], capture_output=True, text=True)
    output = build.stdout + build.stderr
    assert build.returncode == 0, output[-5000:]
    assert "deprecat" not in output.lower(), [line for line in output.splitlines() if "eprecat" in line]
    (wheel,) = (tmp_path / "wheels").glob("cule-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    kernels = {"cule/kernels/" + p.relative_to(ROOT / "kernels").as_posix() for p in (ROOT / "kernels").rglob("*")
               if p.suffix in {".h", ".cpp", ".cu"} or p.name == "compile_flags.txt"}
    assert len(kernels) > 60 and kernels <= names, sorted(kernels - names)
    assert {"cule/py.typed", "cule/__init__.py", "cule/wrappers.py"} <= names
    assert {n.split(".")[0] for n in names if n.endswith(".so")} == {"cule/_core", "cule/_cuda_host", "cule/_probes"}


def test_no_tracked_file_is_over_1_mb():
    # No checkpoints or other large binaries in git: every clone downloads them, and every copy of
    # the tree to a GPU machine carries them. A run's checkpoint is made again by its command.
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    sizes = {name: (ROOT / name).stat().st_size for name in listed.decode().split("\0") if (ROOT / name).is_file()}
    assert len(sizes) > 100
    assert {name: size for name, size in sizes.items() if size > 1_000_000} == {}


def test_every_build_of_the_kernels_takes_the_shared_flags():
    """kernels/compile_flags.txt, declared once: NVRTC gets them in its spelling, and each of the
    Makefile's extra builds (sanitizers, traces, timer waits, memory counts) passes them to g++ (setup.py reads
    the file itself)."""
    from cule import nvrtc

    flags = nvrtc.COMPILE_FLAGS
    assert {"-std=c++17", "-ffp-contract=off"} <= set(flags)
    assert {"-std=c++17", "--fmad=false"} <= set(nvrtc.OPTIONS)
    libs = ["build/sanitize/_core.so", "build/sanitize/_cuda_host.so", "build/trace/_core.so",
            "build/timer_wait/_core.so", "build/no_timer_wait/_core.so", "build/memory/_cuda_host.so"]
    run = subprocess.run(["make", "-n", "-B", "-o", ".venv/.installed", "-o", "install", *libs], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    commands = [line for line in run.stdout.replace("\\\n", " ").splitlines() if "bindings/module_" in line]
    assert len(commands) == len(libs) and all(" ".join(flags) in c for c in commands), commands
