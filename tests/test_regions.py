"""regions(): the connected parts of a set of points, against a slow reference."""

from __future__ import annotations

import random

import pytest

from miai.coords import Point
from miai.regions import regions


def reference(points: set[Point]) -> set[frozenset[Point]]:
    """Components by repeated merging of adjacent groups (slow, obviously right)."""
    groups = [{p} for p in points]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a in groups[i] for b in groups[j]):
                    groups[i] |= groups.pop(j)
                    merged = True
                    break
            if merged:
                break
    return {frozenset(g) for g in groups}


@pytest.mark.parametrize("seed", range(20))
def test_regions_are_the_connected_components(seed):
    rnd = random.Random(seed)
    size = rnd.randint(2, 9)
    points = {(r, c) for r in range(size) for c in range(size) if rnd.random() < 0.45}
    found = regions(points, size)
    assert set(found) == reference(points)
    assert len(found) == len(set(found))
    lowest = [min(region) for region in found]
    assert lowest == sorted(lowest)  # in the order of their lowest point, row by row


def test_edge_cases():
    assert regions([], 5) == []
    assert regions([(2, 2)], 5) == [frozenset({(2, 2)})]
    corner = [(0, 4), (4, 0)]  # opposite corners of a 5x5 board do not touch
    assert regions(corner, 5) == [frozenset({(0, 4)}), frozenset({(4, 0)})]
    assert regions(iter([(0, 0), (0, 1), (0, 1)]), 3) == [frozenset({(0, 0), (0, 1)})]
