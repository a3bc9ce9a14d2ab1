"""A reading of many games split between processes, each reading a consecutive slice of them.

The processes are forked after the games are read, so they share them without pickling a game;
only the slices' bounds and the readings' results travel between processes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from miai.game import Game

T = TypeVar("T")

_SHARED: list[tuple[Callable[[list[Game]], Any], list[Game]]] = []
"""The reading and the games of the call under way (set before the processes fork)."""


def _read_slice(bounds: tuple[int, int]) -> Any:
    read, games = _SHARED[0]
    return read(games[bounds[0] : bounds[1]])


def read_in_slices(read: Callable[[list[Game]], T], games: list[Game], jobs: int) -> list[T]:
    """``read`` of ``jobs`` consecutive slices of ``games`` (fewer when there are fewer games),
    in order, each in a process forked from this one; a single slice is read in this process."""
    jobs = max(1, min(jobs, len(games)))
    edges = np.linspace(0, len(games), jobs + 1).astype(int)
    bounds = [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]
    _SHARED[:] = [(read, games)]
    try:
        if jobs == 1:
            return [read(games)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(_read_slice, bounds)
    finally:
        _SHARED.clear()
