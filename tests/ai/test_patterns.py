"""Learned spatial patterns: counting records, the table kept, its file, and the prior it
gives the search."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel import spatial as S
from miai._kernel import tree as T
from miai._kernel.board import BLACK, WHITE
from miai.ai.config import MctsConfig
from miai.ai.patterns import PatternTable, count_played, count_seen, learn, prediction_ranks
from miai.coords import Move
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import read_record
from tests._kernel.test_heavy import board_of, idx
from tests._kernel.test_spatial import diagram, hashes, states


def game_of(sgf: str):
    """The game a record holds (the learner reads games)."""
    return game_from_record(read_record(sgf), strict=False)


GAME = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[gc];B[cg];W[ce];B[dc];W[tt];B[gg])"
"""Six moves and a pass on 9×9."""


def test_every_move_is_one_played_pattern_at_each_size():
    played = count_played([game_of(GAME)])
    assert played.positions == 6  # the pass is not a pattern
    assert played.played.sum() == 6 * S.NSIZES
    assert (np.diff(played.keys) > 0).all()
    # the first move on the empty board: E5's patterns were first played there; its 3×3 of
    # empty points by every move (all in the open), its whole empty 9×9 board only there
    e5 = hashes(diagram(9), BLACK, "E5")
    for size, h in enumerate(e5, start=S.MIN_SIZE):
        k = np.searchsorted(played.keys, h)
        assert played.keys[k] == h and played.first_row[k] == 0 and played.first_size[k] == size
    assert played.played[np.searchsorted(played.keys, e5[0])] == 6
    assert played.played[np.searchsorted(played.keys, e5[-1])] == 1
    assert (played.states[0] == states(diagram(9), BLACK, "E5")).all()


def test_the_second_reading_counts_the_played_patterns_among_every_move_possible():
    game = game_of(GAME)
    played = count_played([game])
    seen = count_seen([game], played.keys)
    assert (seen >= played.played).all()  # a move played was a move possible
    # E5's largest shape, the empty 9×9 board's centre, is seen once: in the first position
    centre = hashes(diagram(9), BLACK, "E5")[-1]
    assert seen[played.keys == centre].item() == 1
    # every count as a plain reading of every move possible finds it, orientation by orientation
    every: list[np.ndarray] = []
    position = Game(game.size, game.rules)
    for entry in game.history:
        if isinstance(entry, Move) and entry.point is not None:
            grid, meta = position.board.grid, position.board.meta
            points = np.empty(grid.shape[1], np.int32)
            around = np.empty((grid.shape[1], S.NOFFSETS), np.int8)
            n = S.position_states(grid, meta, int(entry.color), points, around)
            oriented = np.empty((n, 8, S.NSIZES), np.int64)
            S.all_oriented_hashes(around[:n], oriented)
            every.append(oriented.min(axis=1).ravel())
        position.apply(entry)
    keys, counts = np.unique(np.concatenate(every), return_counts=True)
    assert (seen == counts[np.searchsorted(keys, played.keys)]).all()


def test_a_pattern_played_fewer_times_than_asked_is_not_kept():
    played = count_played([game_of(GAME)] * 2, min_played=2)
    assert (played.played >= 2).all() and played.played.sum() == 2 * 6 * S.NSIZES


def test_the_table_keeps_what_was_seen_often_enough_and_played_with_its_chance():
    table, counts = learn([game_of(GAME)] * 3, 10)
    which = counts.kept(10)
    assert len(table) == which.size > 0  # one occurrence kept for each pattern
    assert (np.isin(np.arange(counts.keys.size), which) == (counts.seen >= 10)).all()
    values = counts.value(which)
    assert np.allclose(values, counts.played[which] / counts.seen[which])
    assert sorted(table.values) == pytest.approx(sorted(values))
    # the empty board's centre, size 10: played once in each of the 3 games, seen once in each
    centre = hashes(diagram(9), BLACK, "E5")[-1]
    assert counts.seen[counts.keys == centre].item() == 3
    assert counts.played[counts.keys == centre].item() == 3
    assert centre not in counts.keys[which]  # seen 3 times: fewer than 10
    # a table that keeps it holds the shape itself: the empty board around E5, to size 10
    table, _ = learn([game_of(GAME)] * 3, 3)
    rows = np.flatnonzero(table.sizes == S.MAX_SIZE)
    centre_shape = states(diagram(9), BLACK, "E5")
    assert [table.values[r] for r in rows if (table.shapes[r] == centre_shape).all()] == [1.0]


def test_the_search_finds_a_shape_in_every_orientation():
    board = diagram(19, black="J10 K9", white="K10")
    turned = diagram(19, black="J8 H9", white="H8")  # half a turn
    record = "(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese];B[jj];W[kj];B[kk];W[lj])"  # J10, K10, K9, then L10
    table, _ = learn([game_of(record)], 1)
    keys, values = table.slots
    assert (keys != 0).sum() > len(table)  # the orientations of the asymmetric shapes
    scratch_states, scratch = np.empty(S.NOFFSETS, np.int8), np.empty(S.NSIZES, np.int64)
    found = []
    for diagram_, vertex in ((board, "L10"), (turned, "G8")):
        game, g, m = board_of(diagram_)
        found.append(S.pattern_value(g, m, idx(game, vertex), WHITE, keys, values, scratch_states, scratch))
    # at size 10 it was played once and seen twice: K11 shows the same shape mirrored
    assert found == [0.5, 0.5]


def test_handicap_games_are_left_out():
    handicap = "(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]AB[cc][gg];W[ee];B[ce])"
    table, counter = learn([game_of(handicap)], 1)
    assert counter.positions == 0 and len(table) == 0


def test_a_table_saved_reads_back(tmp_path):
    table, _ = learn([game_of(GAME)], 1)
    table.save(tmp_path / "t.npz")
    again = PatternTable.load(tmp_path / "t.npz")
    assert (again.shapes == table.shapes).all() and (again.sizes == table.sizes).all()
    assert np.allclose(again.values, table.values)
    assert (again.slots[0] == table.slots[0]).all()


def test_a_table_is_shapes_sizes_and_chances():
    table, _ = learn([game_of(GAME)], 1)
    with pytest.raises(ValueError, match="a size and a value per shape"):
        PatternTable(table.shapes, table.sizes, table.values[:-1])
    with pytest.raises(ValueError, match="a chance, from 0 to 1"):
        PatternTable(table.shapes, table.sizes, table.values + 1)
    with pytest.raises(ValueError, match="size is from 3 to 10"):
        PatternTable(table.shapes, np.full_like(table.sizes, 11), table.values)
    small = int(np.flatnonzero(table.sizes < S.MAX_SIZE)[0])
    wrong = table.shapes.copy()
    wrong[small, -1] = 0  # a point beyond the shape's size given a state
    with pytest.raises(ValueError, match="beyond it -1"):
        PatternTable(wrong, table.sizes, table.values)


def prior(board: str, vertex: str, table: PatternTable, weight: float) -> tuple[float, float]:
    """The prior visits and wins the tree's expansion gives Black's move at ``vertex``."""
    game, g, m = board_of(board)
    params = MctsConfig(prior_pattern=weight).tree_params(7.5)
    ti, tf, _ = tree = T.new_tree(10_000)
    knowledge = (H.PAT3, *table.slots, np.zeros(0))
    assert T.expand(tree, 0, g, m, BLACK, 0, 0, params, knowledge, np.zeros(g.shape[1], np.bool_))
    first, n = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
    for k in range(first, first + n):
        if ti[T.T_MOVE, k] == idx(game, vertex):
            return float(tf[T.T_PV, k]), float(tf[T.T_PW, k])
    raise AssertionError(f"{vertex} is not a child")


def test_the_prior_adds_won_visits_by_the_square_root_of_the_chance():
    board = diagram(9, black="E5", white="D4")
    mine = states(board, BLACK, "F4")
    shapes = np.full((2, S.NOFFSETS), -1, np.int8)
    shapes[0, :8] = mine[:8]  # the 3x3 square
    shapes[1, : S.SIZE_END[6]] = mine[: S.SIZE_END[6]]  # size 6, the larger one known
    table = PatternTable(shapes, np.array([3, 6], np.int8), np.array([0.81, 0.25]))
    off = prior(board, "F4", table, 0.0)
    on = prior(board, "F4", table, 20.0)
    assert on[0] == pytest.approx(off[0] + 20 * 0.5) and on[1] == pytest.approx(off[1] + 20 * 0.5)
    # a move whose shape the table does not know gets nothing
    assert prior(board, "A9", table, 20.0) == prior(board, "A9", table, 0.0)


def test_a_table_ranks_the_moves_it_was_learned_from_first():
    record = game_of(GAME)
    table, _ = learn([record], 1)
    ranks = prediction_ranks(table, [record])
    assert len(ranks) == 6
    # the first move: on the empty board the centre's large pattern was played, once in once
    assert ranks[0] == 1.0
    assert all(r >= 1.0 for r in ranks)
    assert prediction_ranks(PatternTable.empty(), [record])[0] == (81 + 1) / 2  # all tied


@pytest.fixture
def shipped(monkeypatch, tmp_path):
    """Point the engine's table at a file in ``tmp_path`` (the cache emptied around)."""
    from miai.ai import patterns

    path = tmp_path / "patterns19.npz"
    monkeypatch.setattr(patterns, "DEFAULT_TABLE", path)
    patterns.default_table.cache_clear()
    yield path
    patterns.default_table.cache_clear()


def test_the_prior_on_without_a_table_is_an_error_that_says_so(shipped):
    from miai.ai import patterns
    from miai.ai.mcts import MctsPlayer
    from miai.errors import ConfigError
    from miai.game import Game

    with pytest.raises(ConfigError, match="prior_pattern=40 needs the table of learned patterns"):
        MctsPlayer(MctsConfig(prior_pattern=40, pattern_min_size=9, playouts=20, max_seconds=None)).search(Game(9))
    learn([game_of(GAME)], 1)[0].save(shipped)
    patterns.default_table.cache_clear()  # read once a process: the file came after
    config = MctsConfig(prior_pattern=40, pattern_min_size=9, playouts=20, max_seconds=None, seed=1)
    assert MctsPlayer(config).search(Game(9)).playouts == 20


def test_by_default_the_patterns_are_read_from_9x9_up(shipped):
    from miai.ai.mcts import MctsPlayer
    from miai.errors import ConfigError
    from miai.game import Game

    config = MctsConfig(playouts=20, max_seconds=None, seed=1)
    assert config.prior_pattern > 0 and config.pattern_min_size == 9
    assert MctsPlayer(config).search(Game(7)).playouts == 20  # no table needed: not read
    with pytest.raises(ConfigError, match="needs the table of learned patterns"):
        MctsPlayer(config).search(Game(9))


def test_the_levels_below_ten_read_the_patterns_on_19x19_only():
    assert [MctsConfig.for_level(n).pattern_min_size for n in (1, 5, 9, 10)] == [19, 19, 19, 9]
    assert MctsConfig.for_level(3, pattern_min_size=9).pattern_min_size == 9


def test_gtp_level_ten_after_a_lower_level_reads_the_patterns_on_9x9_again():
    from miai.gtp.engine import GtpEngine

    engine = GtpEngine(size=9)
    engine.handle("level 4")
    assert engine.ai_config.pattern_min_size == 19
    engine.handle("level 10")
    assert engine.ai_config.pattern_min_size == 9 and engine.ai_config.playouts == 1_000_000


def test_the_shipped_table_reads_and_the_search_can_use_it():
    from miai.ai.patterns import DEFAULT_TABLE, default_table

    assert DEFAULT_TABLE.exists()  # package data: pyproject.toml's ai/data/*.npz
    table = default_table()  # checked as it is read: shapes, sizes, chances
    assert len(table) > 1000
    keys, values = table.slots
    assert (keys != 0).sum() >= len(table)  # each shape once at least, most in 8 orientations
    # the empty board's corners and its centre are shapes every game starts from
    game, g, m = board_of(diagram(19))
    scratch_states, scratch = np.empty(S.NOFFSETS, np.int8), np.empty(S.NSIZES, np.int64)
    corner = S.pattern_value(g, m, idx(game, "D4"), BLACK, keys, values, scratch_states, scratch)
    assert 0 < corner <= 1
