# Set-up and checks. `make demo` and `make test` work on a fresh machine: they create .venv first.
PY ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
PIP := $(PYTHON) -m pip
SOURCES := pyproject.toml setup.py $(wildcard kernels/*.h kernels/*.cpp kernels/*/*.h kernels/*/*.cpp)
PYTEST_ARGS ?= -n auto

.PHONY: install demo test test-long games-report bench bench-gpu clean

install: $(VENV)/.installed

# torch 2.13.0 is pinned here (not in the package) so that a CPU-only machine takes its CPU build.
$(VENV)/.installed: $(SOURCES)
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PIP) install -q --upgrade pip setuptools wheel pybind11
	$(PYTHON) -c "import torch" 2>/dev/null || $(PIP) install -q torch==2.13.0
	$(PIP) install -q --no-build-isolation -e ".[test]"
	touch $@

demo: install
	$(PYTHON) -m cule.demo

test: install
	$(PYTHON) -m pytest -q $(PYTEST_ARGS)

# 20,000 frames x 3 seeds for every supported game against ale-py.
test-long: install
	$(PYTHON) -m pytest -q -m slow $(PYTEST_ARGS)

# docs/games.md from a differential run of every game cule runs (20,000 frames x 3 seeds).
games-report: install
	$(PYTHON) -m cule.tools.parity_report --frames 20000 --seeds 0 1 2 --jobs $$(nproc)

bench: install
	$(PYTHON) benchmarks/cpu_fps.py

# On a GPU machine: cule on the GPU against ale-py, AtariVectorEnv and EnvPool (those installed).
bench-gpu: install
	$(PYTHON) benchmarks/fps.py

clean:
	rm -rf $(VENV) build *.egg-info cule/*.so
