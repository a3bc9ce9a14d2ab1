"""The end of the game over GTP (miai.gtp.counting): final_status, estimate_score and GNU
Go's optional seeds. tests/ai/test_status_gtp.py checks final_status_list on more positions."""

from __future__ import annotations

import re

import pytest
from tests.gtp.gtp_transcript import ask, check

from miai.gtp.engine import GtpEngine
from miai.rules import Rules

# Black's wall on row 5 and White's on row 6; a white stone dead at C2 in Black's area and
# a black one dead at G8 in White's (tests/ai/test_status.py: DEAD_INSIDE).
WALLS = [f"play b {c}5" for c in "ABCDEFGHJ"] + [f"play w {c}6" for c in "ABCDEFGHJ"] + ["play w C2", "play b G8"]


@pytest.fixture
def walls() -> GtpEngine:
    engine = GtpEngine(size=9, rules=Rules.preset("japanese"))  # komi 6.5
    for command in WALLS:
        assert ask(engine, command) == "= "
    return engine


def test_final_status_of_stones_and_points(walls: GtpEngine) -> None:
    check(
        walls,
        """
        > final_status E5
        = alive
        > final_status e6
        = alive
        > final_status C2
        = dead
        > final_status G8
        = dead
        > final_status E2
        = black_territory
        > final_status E8
        = white_territory
        > final_status E2 7
        = black_territory
        """,
    )


def test_final_status_arguments(walls: GtpEngine) -> None:
    check(
        walls,
        """
        > final_status
        ? syntax error: expected final_status <vertex> [<random seed>]
        > final_status pass
        ? syntax error: expected a point of the board, not pass
        > final_status Z1
        ? syntax error: vertex Z1 is off the 9x9 board
        > final_status E5 x
        ? syntax error: the random seed must be an integer, not 'x'
        > final_status E5 -1
        ? syntax error: the random seed must be at least 0, not '-1'
        > final_status E5 1 2
        ? syntax error: expected final_status <vertex> [<random seed>]
        """,
    )


def test_final_status_of_a_dame_point() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("japanese"))
    # two walls with an empty column between them: C1..C5 belong to nobody
    for command in [f"play b B{r}" for r in range(1, 6)] + [f"play w D{r}" for r in range(1, 6)]:
        ask(engine, command)
    assert ask(engine, "final_status C3") == "= dame"
    assert ask(engine, "final_status A3") == "= black_territory"
    assert ask(engine, "final_status E3") == "= white_territory"
    assert ask(engine, "final_status_list dame") == "= C5 C4 C3 C2 C1"


def test_estimate_score_in_gnu_gos_words(walls: GtpEngine) -> None:
    """The bounds are White's lead, as GNU Go prints them (negative: Black leads)."""
    assert ask(walls, "final_score") == "= B+2.5"
    assert ask(walls, "estimate_score") == "= B+2.5 (upper bound: -2.5, lower: -2.5)"
    assert ask(walls, "estimate_score 5") == "= B+2.5 (upper bound: -2.5, lower: -2.5)"
    assert ask(walls, "estimate_score x").startswith("? syntax error: the random seed must be an integer")
    ask(walls, "komi 11.5")
    assert ask(walls, "estimate_score") == "= W+2.5 (upper bound: 2.5, lower: 2.5)"
    ask(walls, "komi 9")
    assert ask(walls, "estimate_score") == "= W+0.0 (upper bound: 0.0, lower: 0.0)"  # GNU Go's word for a tie


def test_estimate_score_on_an_empty_board(engine: GtpEngine) -> None:
    assert ask(engine, "estimate_score") == "= W+7.5 (upper bound: 7.5, lower: 7.5)"


@pytest.mark.parametrize("seed", ["0", "3", "4294967296", "999999999999999999"])
def test_gnu_go_seeds_are_accepted(walls: GtpEngine, seed: str) -> None:
    """Controllers written for GNU Go send a random seed after final_score and
    final_status_list; on a clear position it changes nothing."""
    assert ask(walls, f"final_score {seed}") == "= B+2.5"
    assert ask(walls, f"final_status_list dead {seed}") == "= G8\nC2"
    assert ask(walls, f"final_status_list black_territory {seed}") == ask(walls, "final_status_list black_territory")


def test_seed_arguments_are_checked(walls: GtpEngine) -> None:
    check(
        walls,
        """
        > final_status_list dead x
        ? syntax error: the random seed must be an integer, not 'x'
        > final_status_list dead 1 2
        ? syntax error: expected final_status_list alive|dead|seki|black_territory|white_territory|dame [<random seed>]
        > final_status_list black_territory -5
        ? syntax error: the random seed must be at least 0, not '-5'
        > final_score 1e3
        ? syntax error: the random seed must be an integer, not '1e3'
        """,
    )
    huge = "9" * 5000
    assert re.fullmatch(r"\? syntax error: the random seed is out of range: '9+\.\.\.'", ask(walls, f"final_score {huge}"))


def test_final_status_list_orders_chains_as_gnu_go(walls: GtpEngine) -> None:
    """One chain per line, top row first, each chain's stones in the same order."""
    assert ask(walls, "final_status_list alive") == (
        "= A6 B6 C6 D6 E6 F6 G6 H6 J6\nA5 B5 C5 D5 E5 F5 G5 H5 J5"
    )
