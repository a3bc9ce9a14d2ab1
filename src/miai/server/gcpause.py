"""Shorter garbage-collector pauses for a long-running server process.

CPython's cyclic collector stops the whole process while it scans, and a full collection scans
every tracked object. A ``miai serve`` process holds some 150,000 of them once started (the
compiled kernel's machinery, SQLAlchemy, Starlette) and several hundred thousand more with a
thousand connections, so on the 2-core machine of BENCHMARKS.md a full collection took
80–250 ms, five times in 40 s of play at 1,000 clients, and every move sent meanwhile waited:
they made the p99 (*several processes*, where the pauses were measured). Two standard
remedies:

- :func:`gc.freeze` once start-up is done: what exists then lives as long as the process, so it
  goes to the permanent generation and no collection scans it again;
- a larger young-generation threshold: with the default (700 allocations) the objects of the
  requests in flight are collected so often that many survive into the old generation, which
  fills and triggers full collections; with :data:`YOUNG_THRESHOLD` few do (none in those
  runs). Garbage is still collected, only less often; a young collection scans only the young
  objects (50–80 ms at most there, a few times a run).
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "settle"]

YOUNG_THRESHOLD = 50_000
"""Allocations (net of frees) of container objects between two young collections (CPython's default: 700)."""


def settle(young_threshold: int = YOUNG_THRESHOLD) -> None:
    """Call once the server has started: collect, freeze what is left (:func:`gc.freeze`) and
    raise the young generation's threshold. It changes the whole process's collector, so the
    process's owner calls it (``miai serve``), not the application (tests build many)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)
