"""Spatial patterns: the points around by distance, their symmetries, and the hashes that
make a shape, its rotations, reflections and colour swap one pattern."""

from __future__ import annotations

import numpy as np

from miai._kernel import spatial as S
from miai._kernel.board import BLACK, WHITE
from tests._kernel.test_heavy import board_of, idx


def states(diagram: str, c: int, vertex: str) -> np.ndarray:
    """The states around ``vertex`` for ``c`` to move."""
    game, g, m = board_of(diagram)
    out = np.empty(S.NOFFSETS, np.int8)
    S.states_around(g, m, idx(game, vertex), c, out)
    return out


def oriented(diagram: str, c: int, vertex: str) -> np.ndarray:
    """The hashes of the shape around ``vertex`` in each orientation (8 × sizes)."""
    out = np.empty((8, S.NSIZES), np.int64)
    S.oriented_hashes(states(diagram, c, vertex), out)
    return out


def hashes(diagram: str, c: int, vertex: str) -> list[int]:
    """The canonical hashes of every size around ``vertex`` for ``c`` to move: the least of
    the eight orientations' (what a learner counts)."""
    return [int(h) for h in oriented(diagram, c, vertex).min(axis=0)]


def as_is(diagram: str, c: int, vertex: str) -> list[int]:
    """The hashes of the shape as it is (what the search looks up)."""
    out = np.empty(S.NSIZES, np.int64)
    S.identity_hashes(states(diagram, c, vertex), out)
    return [int(h) for h in out]


def test_each_size_is_a_prefix_of_the_points_by_distance():
    assert S.SIZE_END[3] == 8  # the 3x3 square
    assert S.SIZE_END[4] == 12  # and the four points two lines away
    assert S.SIZE_END[S.MAX_SIZE] == S.NOFFSETS == 72
    distances = [S.gridcular(int(x), int(y)) for x, y in S.OFFSETS]
    assert distances == sorted(distances)


def test_the_symmetries_are_eight_permutations_that_keep_each_size():
    assert (S.SYMMETRY[0] == np.arange(S.NOFFSETS)).all()  # the first is the identity
    assert len({tuple(row) for row in S.SYMMETRY}) == 8
    for row in S.SYMMETRY:
        assert sorted(row) == list(range(S.NOFFSETS))
        for d in range(S.MIN_SIZE, S.MAX_SIZE + 1):
            assert (row[: S.SIZE_END[d]] < S.SIZE_END[d]).all()


def diagram(size: int, black: str = "", white: str = "") -> str:
    """A diagram of a board with the given stones (vertices separated by spaces)."""
    rows = [["."] * size for _ in range(size)]
    for stones, mark in ((black, "X"), (white, "O")):
        for v in stones.split():
            col = "ABCDEFGHJKLMNOPQRST".index(v[0])
            rows[size - int(v[1:])][col] = mark
    return "\n".join("".join(r) for r in rows)


# a hane on a 19x19 board, far from the edges: Black J10 and K9, White K10; White to play L10
HANE = diagram(19, black="J10 K9", white="K10")
# the same shape turned half a turn, elsewhere: Black J8 and H9, White H8; White to play G8
HANE_TURNED = diagram(19, black="J8 H9", white="H8")


def test_a_shape_turned_or_mirrored_is_the_same_pattern():
    assert hashes(HANE, WHITE, "L10") == hashes(HANE_TURNED, WHITE, "G8")
    # the turned shape as the board shows it is one of the original's orientations
    assert as_is(HANE_TURNED, WHITE, "G8") in oriented(HANE, WHITE, "L10").tolist()
    assert as_is(HANE, WHITE, "L10") == oriented(HANE, WHITE, "L10")[0].tolist()
    assert as_is(HANE, WHITE, "L10") != as_is(HANE_TURNED, WHITE, "G8")
    mirrored = diagram(19, black="K10 J9", white="J10")  # left and right swapped
    assert hashes(HANE, WHITE, "L10") == hashes(mirrored, WHITE, "H10")
    assert hashes(HANE, WHITE, "L10") != hashes(mirrored, WHITE, "G10")


def test_colours_are_the_movers_and_the_opponents():
    swapped = HANE.replace("X", "x").replace("O", "X").replace("x", "O")
    assert hashes(HANE, WHITE, "L10") == hashes(swapped, BLACK, "L10")
    assert hashes(HANE, WHITE, "L10") != hashes(HANE, BLACK, "L10")


def test_sizes_differ_where_the_shapes_differ():
    a = hashes(HANE, WHITE, "L10")
    # Q13 is 5 columns and 3 rows from L10: gridcular distance 5 + 3 + 5 = 13, beyond every size
    assert hashes(diagram(19, black="J10 K9 Q13", white="K10"), WHITE, "L10") == a
    # N12: 2 columns, 2 rows from L10, distance 6
    c = hashes(diagram(19, black="J10 K9 N12", white="K10"), WHITE, "L10")
    assert c[: 6 - S.MIN_SIZE] == a[: 6 - S.MIN_SIZE]  # sizes 3 to 5 do not reach it
    assert all(x != y for x, y in zip(c[6 - S.MIN_SIZE :], a[6 - S.MIN_SIZE :]))


def test_the_edge_is_part_of_the_shape():
    empty = "\n".join(["........."] * 9)
    centre, edge, corner = (hashes(empty, BLACK, v) for v in ("E5", "E1", "A1"))
    assert len({centre[0], edge[0], corner[0]}) == 3  # told apart already in the 3x3 square
    assert hashes(empty, BLACK, "A1") == hashes(empty, BLACK, "J9")  # a corner is a corner


def test_a_size_never_shares_a_hash_with_another():
    empty = "\n".join(["........."] * 9)
    assert len(set(hashes(empty, BLACK, "E5"))) == S.NSIZES


def slots(known: dict[int, float]) -> tuple[np.ndarray, np.ndarray]:
    return S.build_slots(np.array(list(known), np.int64), np.array(list(known.values()), np.float64))


def test_the_hash_table_finds_what_it_holds_and_nothing_else():
    rng = np.random.default_rng(7)
    held = rng.integers(-(2**63), 2**63 - 1, 1000, dtype=np.int64)
    held[:10] = np.arange(1, 11) * 4096  # the same low bits: they probe past each other
    keys, values = S.build_slots(held, np.arange(1000) / 1000)
    assert keys.size == 2048 and (keys != 0).sum() == 1000
    assert all(S.lookup(keys, values, h) == k / 1000 for k, h in enumerate(held))
    others = rng.integers(-(2**63), 2**63 - 1, 1000, dtype=np.int64)
    assert all(S.lookup(keys, values, h) == -1.0 for h in others if h not in set(held.tolist()))


def test_the_value_is_the_largest_known_patterns():
    game, g, m = board_of(HANE)
    h = as_is(HANE, WHITE, "L10")
    scratch_states = np.empty(S.NOFFSETS, np.int8)
    scratch = np.empty(S.NSIZES, np.int64)

    def value(known: dict[int, float]) -> float:
        keys, values = slots(known)
        return S.pattern_value(g, m, idx(game, "L10"), WHITE, keys, values, scratch_states, scratch)

    assert value({h[0]: 0.1, h[2]: 0.3}) == 0.3  # size 5 beats the 3x3
    assert value({h[0]: 0.1}) == 0.1
    assert value({h[0] ^ 1: 0.1}) == -1.0  # nothing known
    assert value({}) == -1.0


def test_a_positions_patterns_are_those_of_its_playable_moves():
    board = """
        .X.......
        X........
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        """
    game, g, m = board_of(board)
    points = np.empty(g.shape[1], np.int32)
    rows = np.empty((g.shape[1], S.NOFFSETS), np.int8)
    n = S.position_states(g, m, BLACK, points, rows)
    assert n == 81 - 2 - 1  # not the stones, not Black's own eye at A9
    assert idx(game, "A9") not in set(points[:n])
    k = list(points[:n]).index(idx(game, "E5"))
    assert (rows[k] == states(board, BLACK, "E5")).all()  # each row is its point's shape
    assert S.position_states(g, m, WHITE, points, rows) == 81 - 2 - 1  # A9 is suicide for White


def test_a_tables_hashes_are_each_shapes_orientations_at_its_own_size():
    rows = np.array([states(diagram(9, black="E5 D4", white="F6"), BLACK, "E6"),
                     states(diagram(9, black="A1", white="B2"), WHITE, "C3")])
    sizes = np.array([4, S.MAX_SIZE], np.int8)
    out = np.empty((2, 8), np.int64)
    S.sized_oriented_hashes(rows, sizes, out)
    every = np.empty((8, S.NSIZES), np.int64)
    for r in range(2):
        S.oriented_hashes(rows[r], every)
        assert (out[r] == every[:, sizes[r] - S.MIN_SIZE]).all()
    # and a canonical hash is the least of the eight, the same for every orientation
    canonical = np.empty((2, S.NSIZES), np.int64)
    S.all_canonical_hashes(rows, canonical)
    assert canonical[0, 4 - S.MIN_SIZE] == out[0].min() and canonical[1, -1] == out[1].min()
