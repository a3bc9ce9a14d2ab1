"""Reading GTP arguments at the door (miai.gtp.words): ASCII numbers within bounds, and a
clear ``syntax error`` for everything else."""

from __future__ import annotations

import pytest

from miai.coords import Color
from miai.gtp.protocol import GtpError
from miai.gtp.words import color, gtp_vertices, integer, number, optional_seed, shown, vertex


@pytest.mark.parametrize(("word", "value"), [("0", 0), ("19", 19), ("-3", -3), ("+4", 4), ("007", 7), ("9" * 18, int("9" * 18))])
def test_integers(word: str, value: int) -> None:
    assert integer(word, "n") == value


@pytest.mark.parametrize(
    "word",
    ["", "x", "1.5", "1e3", "1_000", " 1", "\u0669", "\u00b2", "\uff11", "--1", "0x10", "1-"],
)
def test_not_integers(word: str) -> None:
    """``int()`` would take ``1_000``, `` 1``, ``٩`` (an Arabic-Indic nine) and ``１``."""
    with pytest.raises(GtpError, match=r"^syntax error: n must be an integer, not "):
        integer(word, "n")


def test_integer_bounds_and_length() -> None:
    assert integer("10", "the level", low=1, high=10) == 10
    with pytest.raises(GtpError, match=r"^syntax error: the level must be from 1 to 10, not '11'$"):
        integer("11", "the level", low=1, high=10)
    with pytest.raises(GtpError, match=r"^syntax error: the seed must be at least 0, not '-1'$"):
        integer("-1", "the seed", low=0)
    with pytest.raises(GtpError, match=r"^syntax error: n is out of range: '9{37}\.\.\.'$"):
        integer("9" * 5000, "n")  # int() refuses more than 4,300 digits with a ValueError


@pytest.mark.parametrize(("word", "value"), [("6.5", 6.5), ("-3", -3.0), ("1e1", 10.0), (".5", 0.5), ("5.", 5.0), ("+0", 0.0)])
def test_numbers(word: str, value: float) -> None:
    assert number(word, "komi") == value


@pytest.mark.parametrize("word", ["x", "1,5", "1_0.5", "\u0666.\u0665", "0x1p3", "1e", "e5", "", "1e99999", "9" * 100])
def test_not_numbers(word: str) -> None:
    with pytest.raises(GtpError, match=r"^syntax error: komi must be a number, not "):
        number(word, "komi")


@pytest.mark.parametrize("word", ["nan", "inf", "-inf", "Infinity", "1e400", "-1e309"])
def test_not_finite(word: str) -> None:
    with pytest.raises(GtpError, match=r"^syntax error: komi must be a (finite )?number, not "):
        number(word, "komi")


def test_colors_and_vertices() -> None:
    assert color("B") is Color.BLACK and color("white") is Color.WHITE
    with pytest.raises(GtpError, match="invalid color 'red'"):
        color("red")
    assert vertex("pass", 9) is None and vertex("j9", 9) == (8, 8)
    with pytest.raises(GtpError, match=r"^syntax error: not a GTP vertex: 'A\u00b2'"):
        vertex("A\u00b2", 9)


def test_optional_seed() -> None:
    assert optional_seed([], "x") == 1
    assert optional_seed(["42"], "x") == 42
    with pytest.raises(GtpError, match="^syntax error: expected usage$"):
        optional_seed(["1", "2"], "usage")


def test_shown_and_vertices() -> None:
    assert shown("abc") == "'abc'" and shown("a" * 100) == repr("a" * 37 + "...")
    assert gtp_vertices([(3, 3), (15, 15), (15, 3)]) == "D16 Q16 D4"
    assert gtp_vertices([]) == ""
