# Set-up and checks. `make demo` and `make test` work on a fresh machine: they create .venv first.
PY ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
PIP := $(PYTHON) -m pip
KERNEL_SOURCES := $(shell find kernels bindings -name "*.h" -o -name "*.cpp" -o -name "*.cu") kernels/compile_flags.txt
# The flags every build of kernels/ shares (why each: setup.py, which reads them too).
COMPILE_FLAGS := $(shell cat kernels/compile_flags.txt)
SOURCES := pyproject.toml setup.py $(KERNEL_SOURCES)
PYTEST_ARGS ?= -n auto

.PHONY: install demo test test-long test-sanitize games-report bench bench-gpu simt-model memory-model clean

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

# Everything CI checks: the CUDA kernels under the sanitizers, then the rest of the suite (with
# the build that records traces, which runs timer waits at once as the GPU does, and the one that
# counts memory, for their tests): the sanitized run's tests run once, on the sanitizer builds.
test: install
	$(MAKE) --no-print-directory -j 2 $(SANITIZE_LIBS) $(TRACE_LIB) $(MEMORY_LIB)
	$(MAKE) --no-print-directory test-sanitize
	$(PYTHON) -m pytest -q $(PYTEST_ARGS) -k "not ($(SANITIZED_RUN))"

# Both compiled backends, the CPU one and the CUDA kernels executed on the host, built with
# AddressSanitizer and UndefinedBehaviorSanitizer (any report ends the process), under the host
# tests of the CUDA backend, a run of games of every cartridge scheme, the state fuzzers (tests
# marked sanitize) and both ways of shrinking observations on random frames. No -fwrapv, unlike
# Python's extension flags: signed overflow is undefined on the GPU too. Without use-after-scope
# checks (the kernels keep no pointers to locals past their scope): they took cule._core's build
# from about 2 to 4.5 minutes. CULE_QUICK_BUILD: no inlining forced for speed alone (types.h).
CXX ?= g++
SANITIZE_LIBS := build/sanitize/_core.so build/sanitize/_cuda_host.so
SANITIZE_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-address-use-after-scope \
	-fno-sanitize-recover=all -fno-omit-frame-pointer -DCULE_QUICK_BUILD
build/sanitize/_%.so: $(KERNEL_SOURCES) Makefile | install
	mkdir -p $(dir $@)
	$(CXX) $(COMPILE_FLAGS) -O1 -g -shared -fPIC -pthread $(SANITIZE_FLAGS) \
		$$($(PYTHON) -m pybind11 --includes) -Ikernels -I. bindings/module_$*.cpp -o $@

test-sanitize: $(SANITIZE_LIBS)
	CULE_CORE_LIB=$(abspath build/sanitize/_core.so) CULE_CUDA_HOST_LIB=$(abspath build/sanitize/_cuda_host.so) \
	LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libstdc++.so)" \
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
		$(PYTHON) -m pytest -q $(PYTEST_ARGS) tests/test_cuda.py tests/test_states.py tests/test_observe.py -m "sanitize or not slow" \
		-k "$(SANITIZED_RUN)"
# test-sanitize's tests among those of its files: all but the runs of every game (too slow there)
SANITIZED_RUN := (test_cuda.py or test_states.py or test_observe.py) and not every_game

# 20,000 frames x 3 seeds for every supported game against ale-py.
test-long: install
	$(PYTHON) -m pytest -q -m slow $(PYTEST_ARGS)

# docs/games.md from a differential run of every game cule runs (20,000 frames x 3 seeds).
games-report: install
	$(PYTHON) -m cule.tools.parity_report --frames 20000 --seeds 0 1 2 --jobs $$(nproc)

# On the CPU: cule against AtariVectorEnv and EnvPool (where installed) at v5 settings, then against
# ale-py's ALEInterface on full RGB frames. Each writes a new file in benchmarks/results/.
bench: install
	$(PYTHON) benchmarks/v5_fps.py
	$(PYTHON) benchmarks/cpu_fps.py

# On a GPU machine: cule on the GPU against ale-py, AtariVectorEnv and EnvPool (those installed).
bench-gpu: install
	$(PYTHON) benchmarks/fps.py

# The SIMT model of the GPU kernels, from instruction traces of a build that records them
# (kernels/testing/trace.h) and runs timer waits at once as the GPU's kernels do: lanes per pass
# and memory sectors per scheduling policy and layout. Untraced, it is the CPU backend with the
# GPU's timer waits, which tests/test_timer_wait.py plays against the plain one.
TRACE_LIB := build/trace/_core.so
$(TRACE_LIB): $(KERNEL_SOURCES) Makefile | install
	mkdir -p $(dir $@)
	$(CXX) $(COMPILE_FLAGS) -O3 -fvisibility=hidden -shared -fPIC -DCULE_TRACE -DCULE_TIMER_WAIT \
		$$($(PYTHON) -m pybind11 --includes) -Ikernels -I. bindings/module_core.cpp -o $@

# The CPU backend with and without the timer-polling loops run at once (Bus::wait_on_timer, which
# only the GPU's kernels run by default), with setup.py's compiler flags: what they save
# (benchmarks/timer_wait.py).
WAIT_LIBS := build/timer_wait/_core.so build/no_timer_wait/_core.so
$(WAIT_LIBS): build/%/_core.so: $(KERNEL_SOURCES) Makefile | install
	mkdir -p $(dir $@)
	$(CXX) $(COMPILE_FLAGS) -DNDEBUG -fwrapv -O3 -fvisibility=hidden -shared -fPIC \
		$(if $(filter timer_wait,$*),-DCULE_TIMER_WAIT) \
		$$($(PYTHON) -m pybind11 --includes) -Ikernels -I. bindings/module_core.cpp -o $@

simt-model: $(TRACE_LIB)
	$(PYTHON) kernel_models/simt_model.py

# The memory model of the GPU kernels: the CUDA kernels run on the host in a build whose every
# load and store is counted (bindings/memory_count.h: -fsanitize=thread's calls, no runtime),
# their global memory sectors per buffer and layout against ncu's.
MEMORY_LIB := build/memory/_cuda_host.so
$(MEMORY_LIB): $(KERNEL_SOURCES) Makefile | install
	mkdir -p $(dir $@)
	$(CXX) $(COMPILE_FLAGS) -O3 -fvisibility=hidden -fPIC -fsanitize=thread -DCULE_COUNT_MEMORY -c \
		$$($(PYTHON) -m pybind11 --includes) -Ikernels -I. bindings/module_cuda_host.cpp -o $(@:.so=.o)
	$(CXX) -shared $(@:.so=.o) -o $@   # without the sanitizer's runtime

memory-model: $(MEMORY_LIB)
	$(PYTHON) kernel_models/memory_model.py

clean:
	rm -rf $(VENV) build *.egg-info cule/*.so
