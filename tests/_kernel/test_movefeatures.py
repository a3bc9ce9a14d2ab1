"""The features of a candidate move (:mod:`miai._kernel.movefeatures`), read on small diagrams."""

from __future__ import annotations

import numpy as np

from miai._kernel import movefeatures as F
from miai._kernel.board import BLACK, WHITE
from miai._kernel.ladder import new_scratch
from tests._kernel.test_heavy import board_of, idx
from tests._kernel.test_spatial import diagram

NO_TABLE = (np.zeros(0, np.int64), np.zeros(0, np.float64))


def features(text: str, c: int, vertex: str, last: str = "", last2: str = "", chance: float = -1.0) -> np.ndarray:
    game, g, m = board_of(text)
    out = np.empty(F.NGROUPS, np.int64)
    gs, ms, work, budget = new_scratch(g, m)
    F.move_features(g, m, idx(game, vertex), c, idx(game, last) if last else 0, idx(game, last2) if last2 else 0,
                    chance, gs, ms, work, budget, out)
    return out


def test_levels_count_and_offsets():
    assert F.LEVELS.shape == (F.NGROUPS,) and (F.LEVELS > 0).all()
    assert F.OFFSETS[0] == 0 and (np.diff(F.OFFSETS) == F.LEVELS[:-1]).all()


def test_captures_by_size():
    one = diagram(9, black="D5 F5 E6", white="E5")
    assert features(one, BLACK, "E4")[F.F_CAPTURE] == 1
    assert features(one, WHITE, "E4")[F.F_CAPTURE] == 0
    three = diagram(9, black="C5 C4 C3 E5 E4 E3 D6", white="D5 D4 D3")
    assert features(three, BLACK, "D2")[F.F_CAPTURE] == 2


def test_saving_a_chain_in_atari_and_ataris_by_whether_the_ladder_works():
    # the white stone on E5 is in atari (Black D5 F5 E6); White extends to E4
    text = diagram(9, black="D5 F5 E6", white="E5")
    assert features(text, WHITE, "E4")[F.F_EXTEND] == 1
    # a black stone on the edge with two liberties: White's atari from B2 drives it into the
    # corner, where it dies
    edge = diagram(9, black="A2", white="A3")
    assert features(edge, WHITE, "B2")[F.F_ATARI] == 1
    # an atari of a stone in the open, which can run away: not a ladder that works
    open_ = diagram(9, black="E5", white="E6 D5")
    assert features(open_, WHITE, "F5")[F.F_ATARI] == 2
    assert features(open_, WHITE, "A9")[F.F_ATARI] == 0


def test_self_atari_of_a_chain_of_two():
    text = diagram(9, black="A2", white="B2 B1 C1 B3 A4")
    assert features(text, BLACK, "A3")[F.F_SELFATARI] == 1
    assert features(text, BLACK, "A3")[F.F_EXTEND] == 0
    assert features(text, BLACK, "E5")[F.F_SELFATARI] == 0


def test_distances_to_the_last_two_moves_and_the_line():
    text = diagram(9, black="E5", white="C3")
    f = features(text, BLACK, "E6", last="C3", last2="E5")
    assert f[F.F_DIST1] == 2 + 3 + 3 and f[F.F_DIST2] == 2  # (dx 2, dy 3): 2+3+3; next to E5: 2
    assert features(text, BLACK, "J9", last="A1")[F.F_DIST1] == F.FAR
    assert features(text, BLACK, "E6")[F.F_DIST1] == 0  # no last move
    empty = diagram(9)
    assert [features(empty, BLACK, v)[F.F_LINE] for v in ("A5", "B5", "C5", "D5", "E5", "J5")] == [0, 1, 2, 3, 4, 0]


def test_the_3x3_code_is_the_movers_view():
    black = features(diagram(9, black="D5", white="F5"), BLACK, "E5")[F.F_PAT3]
    white = features(diagram(9, black="F5", white="D5"), WHITE, "E5")[F.F_PAT3]
    assert black == white != features(diagram(9, black="F5", white="D5"), BLACK, "E5")[F.F_PAT3]


def test_the_spatial_level_is_the_largest_known_patterns_chance_in_half_powers_of_two():
    assert features(diagram(9), BLACK, "E5", chance=0.5)[F.F_SPATIAL] == 3
    assert [F.spatial_level(x) for x in (-1.0, 0.0, 1.0, 0.75, 0.5, 2.0 ** -30)] == [0, F.SPATIAL_BINS, 1, 1, 3, F.SPATIAL_BINS]


def test_a_positions_features_are_those_of_its_playable_moves():
    game, g, m = board_of(diagram(5, black="A2 B1 B2", white="D4"))
    points = np.empty(g.shape[1], np.int32)
    levels = np.empty((g.shape[1], F.NGROUPS), np.int32)
    gs, ms, work, budget = new_scratch(g, m)
    n = F.position_features(g, m, BLACK, 0, 0, *NO_TABLE, gs, ms, work, budget, points, levels)
    assert n == 25 - 4 - 1  # four stones, and Black's own eye at A1 left out
    assert idx(game, "A1") not in set(points[:n])
    one = np.empty(F.NGROUPS, np.int64)
    k = list(points[:n]).index(idx(game, "C3"))
    F.move_features(g, m, idx(game, "C3"), BLACK, 0, 0, -1.0, gs, ms, work, budget, one)
    assert (levels[k] == one).all()
