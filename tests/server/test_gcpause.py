"""The collector's settings for a server process (gcpause.py)."""

from __future__ import annotations

import gc
import weakref

from miai.server import gcpause


class Node:
    """Something that can sit in a reference cycle and be watched by a weak reference."""


def test_settle_freezes_what_exists_and_raises_the_young_threshold():
    before = gc.get_threshold()
    try:
        gcpause.settle(12_345)
        assert gc.get_freeze_count() > 0  # start-up's objects are out of every collection's scan
        assert gc.get_threshold() == (12_345, before[1], before[2])
        node = Node()
        node.cycle = node  # type: ignore[attr-defined]
        watch = weakref.ref(node)
        del node
        gc.collect()
        assert watch() is None  # a cycle made after settle() is still collected
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
