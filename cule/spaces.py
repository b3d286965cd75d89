"""Observation spaces whose host memory does not grow with the number of envs.

gymnasium's Box holds four arrays of its full shape (low, high and the two boundedness masks), so
`batch_space` of a (4, 84, 84) uint8 Box keeps 113 KB per env: 7.4 GB for 65,536 envs before any
env exists. An Atari frame's bounds are one value for every element, so `UniformBox` holds them
once and hands out read-only broadcast views of the full shape: a Box to every reader (gymnasium's
wrappers and checks, SB3, TorchRL), in a few bytes.
"""
from __future__ import annotations

from copy import deepcopy
from typing import Any

import numpy as np
from gymnasium.spaces import Box
from gymnasium.vector.utils import batch_space

_BOUNDS = ("low", "high", "bounded_below", "bounded_above")


def _one(bound: np.ndarray) -> np.generic:
    """The one value every element of a bound (or mask) shares, read without a copy."""
    return bound.flat[0]


class UniformBox(Box):
    """A Box of `shape` whose every element lies in [low, high], the bounds held as scalars."""

    def __init__(self, low: int | float, high: int | float, shape: tuple[int, ...], dtype: Any,
                 seed: int | np.random.Generator | None = None):
        super().__init__(low, high, (), dtype, seed)   # gymnasium's checks, on 0-d arrays
        self._broadcast(tuple(int(n) for n in shape))

    def _broadcast(self, shape: tuple[int, ...]) -> None:
        self._shape = shape
        for name in _BOUNDS:
            setattr(self, name, np.broadcast_to(_one(getattr(self, name)), shape))

    def sample(self, mask: None = None, probability: None = None) -> np.ndarray:
        """Box.sample's distribution, drawn without Box's float64 array of the full shape (8x the sample)."""
        if mask is not None or probability is not None or self.dtype.kind not in "iu":
            return super().sample(mask, probability)
        low, high = int(_one(self.low)), int(_one(self.high))
        return self.np_random.integers(low, high, self.shape, dtype=self.dtype, endpoint=True)

    def __eq__(self, other: object, /) -> bool:
        if isinstance(other, UniformBox):   # without Box's temporaries of the full shape
            return (self.shape == other.shape and self.dtype == other.dtype
                    and all(_one(getattr(self, n)) == _one(getattr(other, n)) for n in _BOUNDS))
        return super().__eq__(other)

    def __getstate__(self) -> dict[str, Any]:   # a pickle holds the scalars, not the full arrays
        state = dict(self.__dict__)
        for name in _BOUNDS:
            state[name] = np.array(_one(state[name]))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._broadcast(self._shape)


@batch_space.register(UniformBox)
def _batch_uniform_box(space: UniformBox, n: int = 1) -> UniformBox:
    """gymnasium's `batch_space` for a UniformBox (its extension point for a space class): the
    Box it would give, bounds as scalars, so that vector envs and wrappers stay small too."""
    return UniformBox(_one(space.low).item(), _one(space.high).item(), (n, *space.shape), space.dtype,
                      seed=deepcopy(space.np_random))
