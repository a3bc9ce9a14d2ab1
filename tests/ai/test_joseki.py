"""The joseki book: corner shapes counted from records in every corner and both ways round, the
book kept, its file, what it answers, and the prior it gives the search."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai.ai import joseki
from miai.ai.config import MctsConfig
from miai.ai.joseki import JosekiBook, coverage, learn
from miai.coords import Color
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import read_record


def game_of(moves: str) -> Game:
    """A 19×19 even game of these SGF moves."""
    return game_from_record(read_record(f"(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]{moves})"), strict=False)


def point_of(sgf: str):
    """The point of an SGF move ("pd")."""
    return game_of(f";B[{sgf}]").moves[0].point


FOUR_FOUR = ";B[pd];W[dp]"
"""Two 4-4 points in opposite corners."""

SYMMETRIES = [
    lambda x, y: (x, y), lambda x, y: (18 - x, y), lambda x, y: (x, 18 - y), lambda x, y: (18 - x, 18 - y),
    lambda x, y: (y, x), lambda x, y: (18 - y, x), lambda x, y: (y, 18 - x), lambda x, y: (18 - y, 18 - x),
]  # fmt: skip
"""The eight symmetries of the 19×19 board, on SGF coordinates (0 to 18)."""


def sgf(x: int, y: int) -> str:
    return chr(ord("a") + x) + chr(ord("a") + y)


def test_the_empty_corner_is_one_shape_and_its_answer_has_its_chance_in_all_four_corners():
    book = learn([game_of(FOUR_FOUR)] * 5, moves=2)
    # each game: the empty board (4 corners, both ways round: 8 seen, 4-4 played twice), then
    # Black's stone in one corner and three empty ones (6 seen, 4-4 played twice)
    assert len(book) == 1 and book.points.tolist() == [3 * 10 + 3]
    assert book.chances[0] == pytest.approx(20 / 70)
    answers = book.answers(Game(19))
    assert set(answers) == {point_of(p) for p in ("dd", "dp", "pd", "pp")}
    assert all(v == pytest.approx(20 / 70) for v in answers.values())
    # seen in fewer games than asked, or answered less often: nothing kept
    assert len(learn([game_of(FOUR_FOUR)] * 5, moves=2, min_games=6)) == 0
    assert len(learn([game_of(FOUR_FOUR)] * 5, moves=2, min_played=21)) == 0


def test_a_corner_shape_is_known_in_every_corner_and_both_ways_round():
    # Black's 3-4 point in one corner, always answered by White's approach
    book = learn([game_of(";B[qd];W[oc]")] * 5, moves=2)
    for symmetry in SYMMETRIES:
        game = game_of(f";B[{sgf(*symmetry(16, 3))}]")
        assert game.to_move is Color.WHITE
        answers = book.answers(game)
        approach = point_of(sgf(*symmetry(14, 2)))
        # the approach, always played; the empty corners' 3-4 points, from the first move
        assert answers.pop(approach) == pytest.approx(1.0)
        assert sorted(answers.values()) == pytest.approx([5 / 70] * 6)


def test_shapes_are_the_mover_s_own_stones_and_the_opponent_s():
    # the same corner with colours swapped: White's 3-4 point, Black to move
    book = learn([game_of(";B[qd];W[oc]")] * 5, moves=2)
    swapped = game_of(";B[pp];W[qd]")
    assert swapped.to_move is Color.BLACK
    assert book.answers(swapped)[point_of("oc")] == pytest.approx(1.0)
    # Black's own 3-4 point with Black to move is another shape, not in the book
    own = game_of(";B[qd];W[dd]")
    assert point_of("oc") not in book.answers(own)


def test_the_book_answers_only_on_its_board_size():
    book = learn([game_of(FOUR_FOUR)] * 5, moves=2)
    assert book.answers(Game(13)) == {}
    assert len(learn([game_of(FOUR_FOUR)] * 5, size=13, moves=2)) == 0


def test_coverage_counts_the_moves_in_known_shapes_and_the_first_choices():
    games = [game_of(";B[pd];W[dp];B[qf]")] * 5
    book = learn(games, moves=2)
    found = coverage(book, games, moves=3)
    # the two 4-4 points were in the empty corner's shape and its first choice; the third
    # move, in Black's own corner, in a shape the book never saw
    assert (found.moves, found.known, found.first) == (15, 10, 10)


def test_a_book_saved_reads_back(tmp_path):
    book = learn([game_of(";B[qd];W[oc]")] * 5, moves=2)
    book.save(tmp_path / "book.npz")
    back = JosekiBook.load(tmp_path / "book.npz")
    assert back.size == 19 and back.side == 10 and len(back) == len(book)
    assert np.array_equal(back.keys, book.keys) and np.array_equal(back.points, book.points)
    assert np.allclose(back.chances, book.chances) and np.array_equal(back.zobrist, book.zobrist)


def test_a_book_is_shapes_with_their_answers_and_chances():
    book = learn([game_of(";B[qd];W[oc]")] * 5, moves=2)
    with pytest.raises(ValueError, match="one start per shape"):
        JosekiBook(19, book.zobrist, book.keys, book.starts[:-1], book.points, book.chances)
    with pytest.raises(ValueError, match="sorted without repeats"):
        JosekiBook(19, book.zobrist, book.keys[::-1].copy(), book.starts, book.points, book.chances)
    with pytest.raises(ValueError, match="local points of its 10 × 10 square"):
        JosekiBook(19, book.zobrist, book.keys, book.starts, book.points + 100, book.chances)
    with pytest.raises(ValueError, match="above 0 and at most 1"):
        JosekiBook(19, book.zobrist, book.keys, book.starts, book.points, book.chances * 2)
    with pytest.raises(ValueError, match="2 × side × side"):
        JosekiBook(9, book.zobrist, book.keys, book.starts, book.points, book.chances)


def root_priors(game: Game, book: T.Book, weight: float) -> dict[int, tuple[float, float]]:
    """The prior visits and wins the tree's expansion gives each move of the side to move."""
    board = game.board
    params = MctsConfig(prior_joseki=weight).tree_params(7.5)
    ti, tf, _ = tree = T.new_tree(10_000)
    knowledge = (H.PAT3, np.zeros(0, np.int64), np.zeros(0), np.zeros(0), book)
    forbidden = np.zeros(board.grid.shape[1], np.bool_)
    assert T.expand(tree, 0, board.grid, board.meta, int(game.to_move), 0, 0, params, knowledge, forbidden)
    first, n = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
    return {int(ti[T.T_MOVE, k]): (float(tf[T.T_PV, k]), float(tf[T.T_PW, k])) for k in range(first, first + n)}


def test_the_prior_adds_won_visits_by_the_square_root_of_the_chance():
    book = learn([game_of(FOUR_FOUR)] * 5, moves=2)
    game = Game(19)
    off = root_priors(game, book.arrays, 0.0)
    on = root_priors(game, book.arrays, 100.0)
    bonus = 100 * (20 / 70) ** 0.5
    corners = {game.board.index(point_of(p)) for p in ("dd", "dp", "pd", "pp")}
    for move, (pv, pw) in on.items():
        extra = bonus if move in corners else 0.0
        assert pv == pytest.approx(off[move][0] + extra) and pw == pytest.approx(off[move][1] + extra)
    assert root_priors(game, T.NO_BOOK, 100.0) == off  # no book: nothing read


@pytest.fixture
def shipped(monkeypatch, tmp_path):
    """Point the engine's book at a file in ``tmp_path`` (the cache emptied around)."""
    path = tmp_path / "joseki19.npz"
    monkeypatch.setattr(joseki, "DEFAULT_BOOK", path)
    joseki.default_book.cache_clear()
    yield path
    joseki.default_book.cache_clear()


def test_the_prior_on_without_a_book_is_an_error_that_says_so(shipped):
    from miai.ai.mcts import MctsPlayer
    from miai.errors import ConfigError

    config = MctsConfig(prior_joseki=300, playouts=20, max_seconds=None, seed=1)
    with pytest.raises(ConfigError, match="prior_joseki=300 needs the joseki book"):
        MctsPlayer(config).search(Game(19))
    learn([game_of(FOUR_FOUR)] * 5, moves=2).save(shipped)
    joseki.default_book.cache_clear()  # read once a process: the file came after
    assert MctsPlayer(config).search(Game(19)).playouts == 20
    assert MctsPlayer(config).search(Game(9)).playouts == 20  # learnt on 19×19: not read on 9×9


def test_the_shipped_book_reads_and_answers_the_empty_board_with_corner_points():
    assert joseki.DEFAULT_BOOK.exists()  # package data: pyproject.toml's ai/data/*.npz
    book = joseki.default_book()  # checked as it is read
    assert len(book) > 1000 and book.size == 19
    answers = book.answers(Game(19))
    best = max(answers.values())
    # the 4-4 and 3-4 points: strong players open in the corners
    assert {p for p, v in answers.items() if v == best} == {point_of(p) for p in ("dd", "dp", "pd", "pp")}
    assert all(min(r, c, 18 - r, 18 - c) in (2, 3) for (r, c), v in answers.items() if v > best / 4)
