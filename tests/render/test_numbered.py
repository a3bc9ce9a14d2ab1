"""Numbered figures of moves: numbers on the right stones, 'at' notes, plain earlier stones,
renumbering, passes, the SVG document, and the invariant that every move is shown once."""

from __future__ import annotations

import doctest
import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.board import Board
from miai.coords import GTP_COLUMNS, Color, Move, point_from_gtp
from miai.errors import ArgumentError, MiaiError
from miai.game import Game
from miai.render import AtNote, MoveRange, PassNote, move_diagram, numbered
from miai.sgf import load_game
from tests.samples import SAMPLES

SVG = "{http://www.w3.org/2000/svg}"
MODULE = numbered


def played(size: int, vertices: str, **kwargs) -> Game:
    game = Game(size, **kwargs)
    for vertex in vertices.split():
        game.play(vertex)
    return game


def p(vertex: str, size: int = 5):
    return point_from_gtp(vertex, size)


def board_before(game: Game, first: int) -> Board:
    """The position before move ``first``, by the checked game itself (undo from a copy)."""
    copy = game.copy()
    while copy.move_number >= first:
        copy.undo()
    return copy.board


def svg_tree(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    return root


def grid_from_labels(root: ET.Element) -> tuple[dict[str, float], dict[int, float]]:
    """Where the coordinates put each column (x) and row (y): read from the labels themselves,
    so the positions below are checked against what a reader sees, not the renderer's sums."""
    xs: dict[str, float] = {}
    ys: dict[int, float] = {}
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates")
    for text in group.iter(f"{SVG}text"):
        label = text.text or ""
        if label.isdigit():
            ys[int(label)] = float(text.get("y"))
        else:
            xs[label] = float(text.get("x"))
    return xs, ys


KO = "B4 C4 A3 D3 B2 C2 C3 B3 E1 E2 C3 A1 B1 B3"
"""Moves 1-6 build a ko shape; 7 Black takes, 8 White takes back, 9/10 and 12/13 are threats
and answers, 11 Black retakes on the point of 7, 14 White retakes on the point of 8."""


def test_module_doctests():
    assert doctest.testmod(MODULE).failed == 0


# ------------------------------------------------------------------ the figure
def test_ko_fight_retakes_are_listed_at_the_first_number():
    game = played(5, KO)
    figure = move_diagram(game, 7, first_number=1)
    assert figure.numbered[p("C3")].number == 1 and figure.numbered[p("C3")].color is Color.BLACK
    assert figure.numbered[p("B3")].number == 2 and figure.numbered[p("B3")].color is Color.WHITE
    assert [str(n) for n in figure.notes] == ["5 at 1", "8 at 2"]
    five, eight = figure.notes
    assert isinstance(five, AtNote) and five.point == p("C3") and five.color is Color.BLACK and five.move == 11
    assert isinstance(eight, AtNote) and eight.point == p("B3") and eight.color is Color.WHITE and eight.move == 14
    assert figure.text().splitlines()[-2:] == ["5 at 1", "8 at 2"]


def test_real_numbers_by_default():
    figure = move_diagram(played(5, KO), 7)
    assert figure.first_number == 7 and figure.last_number == 14
    assert figure.numbered[p("C3")].number == 7
    assert [str(n) for n in figure.notes] == ["11 at 7", "14 at 8"]


def test_a_stone_played_where_a_numbered_stone_was_captured():
    # 1 Black A1, 2 White B1, 3 Black C3, 4 White A2 takes 1; 5 Black E5; 6 White fills A1.
    game = played(5, "A1 B1 C3 A2 E5 A1")
    assert game.board[p("A1")] is Color.WHITE
    figure = move_diagram(game)
    assert figure.numbered[p("A1")].number == 1 and figure.numbered[p("A1")].color is Color.BLACK
    assert figure.notes == (AtNote(p("A1"), Color.WHITE, 6, 1, 6),)
    assert "6 at 1" in figure.text().splitlines()


def test_a_stone_played_where_a_plain_stone_was_captured_takes_its_point():
    # Before the figure: Black A1, White B1. In it: 3 White A2 takes A1, 4 Black C3, 5 White A1.
    game = played(5, "A1 B1 pass A2 C3 A1")
    figure = move_diagram(game, 4)
    assert figure.numbered[p("A1")].number == 6 and figure.numbered[p("A1")].color is Color.WHITE
    assert p("A1") not in figure.plain
    assert not any(isinstance(n, AtNote) for n in figure.notes)
    assert figure.plain == {p("B1"): Color.WHITE}


def test_earlier_stones_are_plain_and_exactly_the_position_before_the_range():
    game = played(9, "E5 C3 G7 C7 G3 D6 F4 E3 E4")
    for first in (1, 4, 9):
        figure = move_diagram(game, first)
        before = board_before(game, first)
        assert dict(figure.plain) == {q: before[q] for q in before if before[q] is not None}
        assert all(s.move >= first for s in figure.numbered.values())
    text = move_diagram(game, 4, first_number=1).text().splitlines()
    assert text[3] == "7  .  .  1  .  .  .  X  .  .  7"  # C7 (move 4) numbered 1; G7 (move 3) plain


def test_first_number_renumbers_every_move():
    game = played(9, "E5 C3 G7 C7 G3 D6 F4 E3 E4 pass")
    default = move_diagram(game, 3)
    renumbered = move_diagram(game, 3, first_number=1)
    assert {q: s.number - 2 for q, s in default.numbered.items()} == {q: s.number for q, s in renumbered.numbered.items()}
    assert [n.number for n in renumbered.notes] == [8] and [n.number for n in default.notes] == [10]
    shifted = move_diagram(game, 3, first_number=101)
    assert sorted(s.number for s in shifted.numbered.values()) == list(range(101, 108))


def test_passes_are_listed_with_their_colour():
    game = played(9, "E5 pass C3 D4 pass pass")
    figure = move_diagram(game)
    assert figure.notes == (PassNote(Color.WHITE, 2, 2), PassNote(Color.BLACK, 5, 5), PassNote(Color.WHITE, 6, 6))
    lines = figure.text().splitlines()
    assert lines[-3:] == ["2: pass", "5: pass", "6: pass"]
    root = svg_tree(figure.svg())
    words = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "note"]
    assert words == ["pass", "pass", "pass"]


def test_legend_says_whose_numbers_when_colours_do_not_alternate():
    game = Game(5)
    for move in (Move(Color.BLACK, p("A1")), Move(Color.BLACK, p("C3")), Move(Color.WHITE, p("E5"))):
        game.play(move)
    assert move_diagram(game).legend() == "Black: 1, 2. White: 3."
    assert move_diagram(played(5, "A1 B2 C3")).legend() == "Black: odd numbers, White: even."
    assert move_diagram(played(5, "A1 B2 C3"), 2).legend() == "Black: odd numbers, White: even."
    assert move_diagram(played(5, "A1 B2 C3"), 2, first_number=1).legend() == "White: odd numbers, Black: even."


def test_handicap_stones_are_plain_and_white_plays_first():
    game = played(9, "E5 C5 G5", handicap=2)
    figure = move_diagram(game)
    assert figure.plain == {q: Color.BLACK for q in game.handicap_points}
    assert figure.numbered[p("E5", 9)].color is Color.WHITE
    assert figure.legend() == "White: odd numbers, Black: even."


def test_setup_within_the_range_is_drawn_plain():
    game = played(5, "C3 C4")
    game.setup(black=[p("A1")], white=[p("E5")])
    game.play("D4")
    figure = move_diagram(game, 2)
    assert figure.plain[p("A1")] is Color.BLACK and figure.plain[p("E5")] is Color.WHITE
    assert figure.numbered[p("D4")].number == 3


def test_text_cells_grow_to_three_digits():
    game = played(5, "A1 B1")
    lines = move_diagram(game, first_number=99).text().splitlines()
    assert lines[0] == "    A   B   C   D   E"
    assert lines[5] == "1  99 100   .   .   .  1"


# ------------------------------------------------------------------ the range
@pytest.mark.parametrize(
    "first, last, message",
    [(0, 3, "at least 1"), (3, 2, "not after the last"), (1, 7, "only 6 moves"), (7, None, "at least 1 and not after")],
)
def test_a_range_outside_the_game_is_refused(first, last, message):
    game = played(5, "A1 B1 C1 D1 E1 A2")
    with pytest.raises(ArgumentError, match=message):
        move_diagram(game, first, last)


def test_a_game_without_moves_and_a_bad_first_number_are_refused():
    with pytest.raises(MiaiError, match="no moves"):
        move_diagram(Game(5))
    with pytest.raises(ArgumentError, match="at least 1, not 0"):
        move_diagram(played(5, "A1"), first_number=0)


@pytest.mark.parametrize(
    "text, expected",
    [("1-50", (1, 50)), ("51-", (51, 80)), (" 7 ", (7, 7)), ("3 - 9", (3, 9)), ("80", (80, 80))],
)
def test_move_range_parse(text, expected):
    r = MoveRange.parse(text, 80)
    assert (r.first, r.last) == expected


@pytest.mark.parametrize("text", ["", "a-b", "1-2-3", "-5", "1,5", "0-3", "5-4", "1-81"])
def test_move_range_parse_refuses(text):
    with pytest.raises(ArgumentError):
        MoveRange.parse(text, 80)


# -------------------------------------------------------------------- the SVG
def test_svg_is_well_formed_and_sized():
    figure = move_diagram(played(9, "E5 C3 G7"))
    root = svg_tree(figure.svg())
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert width > 0 and height >= width
    hoshi = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "hoshi"]
    assert len(hoshi) == 5
    lines = list(root.iter(f"{SVG}line"))
    assert len(lines) == 18


def test_svg_without_coordinates_has_no_labels_and_is_smaller():
    game = played(9, "E5 C3 G7")
    with_coords = svg_tree(move_diagram(game).svg())
    without = svg_tree(move_diagram(game, coordinates=False).svg())
    assert not [g for g in without.iter(f"{SVG}g") if g.get("class") == "coordinates"]
    assert float(without.get("width")) < float(with_coords.get("width"))


def numbers_on_board(root: ET.Element) -> list[ET.Element]:
    notes = next((g for g in root.iter(f"{SVG}g") if g.get("class") == "notes"), None)
    in_notes = set(notes.iter(f"{SVG}text")) if notes is not None else set()
    return [t for t in root.iter(f"{SVG}text") if (t.get("class") or "").startswith("number") and t not in in_notes]


def test_every_number_sits_on_its_stone_in_a_real_record():
    game, _ = load_game(SAMPLES / "kgs-cgoban2-handicap5-empty-passes.sgf", strict=False)
    first, last = 51, 150
    figure = move_diagram(game, first, last, first_number=1)
    root = svg_tree(figure.svg())
    xs, ys = grid_from_labels(root)
    circles = {(float(c.get("cx")), float(c.get("cy"))): c for c in root.iter(f"{SVG}circle") if "stone" in c.get("class", "")}
    # What a book shows: the first stone of the range on each point, numbered from 1.
    expected: dict[tuple[float, float], tuple[str, Color]] = {}
    for number, move in enumerate(game.moves[first - 1 : last], start=1):
        if move.point is not None:
            row, col = move.point
            expected.setdefault((xs[GTP_COLUMNS[col]], ys[row + 1]), (str(number), move.color))
    texts = numbers_on_board(root)
    assert len(texts) == len(expected) == len(figure.numbered)
    for text in texts:
        where = (float(text.get("x")), float(text.get("y")))
        number, color = expected[where]
        assert text.text == number
        stone = circles[where]
        assert str(color) in stone.get("class").split()
        # the number in the contrasting colour
        assert text.get("fill") == ("#ffffff" if color is Color.BLACK else "#000000")
        assert stone.get("fill") == ("#000000" if color is Color.BLACK else "#ffffff")


def test_plain_stones_carry_no_number():
    game = played(9, "E5 C3 G7 C7 G3")
    root = svg_tree(move_diagram(game, 4).svg())
    plain = [c for c in root.iter(f"{SVG}circle") if "plain" in c.get("class", "").split()]
    numbered = numbers_on_board(root)
    assert len(plain) == 3 and len(numbered) == 2
    plain_at = {(c.get("cx"), c.get("cy")) for c in plain}
    assert not plain_at & {(t.get("x"), t.get("y")) for t in numbered}


def test_svg_notes_draw_the_at_list_as_numbered_stones():
    root = svg_tree(move_diagram(played(5, KO), 7, first_number=1).svg())
    notes = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "notes")
    texts = [t.text for t in notes.iter(f"{SVG}text")]
    assert texts == ["5", "at", "1", "8", "at", "2"]
    board_height = float(next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "board").get("height"))
    assert all(float(c.get("cy")) > board_height for c in notes.iter(f"{SVG}circle"))
    assert all(float(c.get("cy")) + float(c.get("r")) <= float(root.get("height")) for c in notes.iter(f"{SVG}circle"))


@pytest.mark.parametrize("first_number", [97, 997, 9997])
def test_long_numbers_fit_inside_their_stones(first_number):
    game = played(9, "E5 C3 G7")
    root = svg_tree(move_diagram(game, first_number=first_number).svg())
    circles = {(c.get("cx"), c.get("cy")): float(c.get("r")) for c in root.iter(f"{SVG}circle")}
    for text in numbers_on_board(root):
        radius = circles[(text.get("x"), text.get("y"))]
        # digits of a sans-serif font are at most ~0.6 em wide
        assert len(text.text) * 0.6 * float(text.get("font-size")) < 2 * radius * 0.9


# ------------------------------------------------------------------ invariant
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(5, 7), st.integers(1, 60))
def test_every_move_of_the_range_is_shown_exactly_once(seed, size, length):
    rng = random.Random(seed)
    game = Game(size)
    while game.move_number < length and game.phase.value == "play":
        legal = game.legal_moves()
        game.play(rng.choice(legal) if legal and rng.random() < 0.95 else None)
    total = game.move_number
    if total == 0:
        return
    first = rng.randint(1, total)
    last = rng.randint(first, total)
    figure = move_diagram(game, first, last, first_number=1)
    shown = sorted([s.move for s in figure.numbered.values()] + [n.move for n in figure.notes])
    assert shown == list(range(first, last + 1))
    first_on = {}
    for number, move in enumerate(game.moves[first - 1 : last], start=first):
        if move.point is not None:
            first_on.setdefault(move.point, number)
    assert {q: s.move for q, s in figure.numbered.items()} == first_on
    for note in figure.notes:
        if isinstance(note, AtNote):
            assert figure.numbered[note.point].number == note.at < note.number
    assert not set(figure.plain) & set(figure.numbered)
