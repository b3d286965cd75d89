"""Where a loop's time goes, phase by phase, measured without making a GPU wait.

    timer = PhaseTimer(env.device)
    env.phase_timer = timer            # the env times "emulation" and "rendering" itself
    with timer("inference"):
        actions = policy(obs)
    ...
    print(timer.report())              # one synchronisation, here

On a GPU each phase is bracketed by CUDA events on the current stream, so a phase's time is
the device time between its start and end (kernels and any gap the host leaves); on the CPU it
is wall time.
"""
from __future__ import annotations

import time
from collections import defaultdict
from contextlib import contextmanager

import torch


class PhaseTimer:
    def __init__(self, device: str | torch.device):
        self.on_gpu = torch.device(device).type == "cuda"
        self._seconds: dict[str, float] = defaultdict(float)
        self._calls: dict[str, int] = defaultdict(int)
        self._events: list[tuple[str, torch.cuda.Event, torch.cuda.Event]] = []

    @contextmanager
    def __call__(self, phase: str):
        self._calls[phase] += 1
        if self.on_gpu:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            yield
            end.record()
            self._events.append((phase, start, end))
        else:
            t = time.perf_counter()
            yield
            self._seconds[phase] += time.perf_counter() - t

    def seconds(self) -> dict[str, float]:
        """Total seconds per phase so far (waits for the GPU's recorded events once)."""
        if self._events:
            self._events[-1][2].synchronize()
            for phase, start, end in self._events:
                self._seconds[phase] += start.elapsed_time(end) / 1000.0
            self._events.clear()
        return dict(self._seconds)

    def report(self) -> str:
        """One line: each phase's share of the timed total, its seconds and calls."""
        seconds = self.seconds()
        total = sum(seconds.values()) or 1.0
        return "  ".join(f"{phase} {100 * s / total:.0f}% ({s:.2f}s/{self._calls[phase]})"
                         for phase, s in sorted(seconds.items(), key=lambda kv: -kv[1]))

    def reset(self) -> None:
        self.seconds()
        self._seconds.clear()
        self._calls.clear()
