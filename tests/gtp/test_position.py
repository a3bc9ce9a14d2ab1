"""GNU Go's questions about the position (miai.gtp.position), as transcripts.

tests/gtp/test_gnugo.py asks GNU Go the same questions on the same positions.
"""

from __future__ import annotations

from tests.gtp.gtp_transcript import ask, check

from miai.gtp.engine import GtpEngine
from miai.gtp.position import format_komi
from miai.rules import Rules


def test_query_boardsize_and_get_komi(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > query_boardsize
        = 9
        > get_komi
        = 7.5
        > boardsize 13
        =
        > komi 0
        =
        > 3 query_boardsize
        =3 13
        > get_komi
        = 0.0
        > komi -3
        =
        > get_komi
        = -3.0
        > komi 0.25
        =
        > get_komi
        = 0.25
        > query_boardsize 9
        ? syntax error: expected no arguments
        > get_komi 1
        ? syntax error: expected no arguments
        """,
    )


def test_get_komi_follows_the_rules_commands(engine: GtpEngine) -> None:
    ask(engine, 'kata-set-rules {"komi": 6}')
    assert ask(engine, "get_komi") == "= 6.0"
    assert format_komi(Rules.preset("japanese").komi) == "6.5"


def test_list_stones_is_what_kigo_draws(engine: GtpEngine) -> None:
    """Kigo asks ``list_stones black`` and ``list_stones white`` to draw the board."""
    check(
        engine,
        """
        > list_stones black
        =
        > play b E5
        =
        > play w C3
        =
        > play b G7
        =
        > play w D4
        =
        > list_stones black
        = G7 E5
        > list_stones white
        = D4 C3
        > list_stones WHITE
        = D4 C3
        > list_stones
        ? syntax error: expected list_stones <color>
        > list_stones red
        ? syntax error: invalid color 'red' (expected black or white)
        """,
    )


def test_list_stones_after_a_capture_and_with_handicap(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > fixed_handicap 2
        = G7 C3
        > play w A1
        =
        > play b B1
        =
        > play w E5
        =
        > play b A2
        =
        > list_stones black
        = G7 C3 A2 B1
        > list_stones white
        = E5
        > captures black
        = 1
        """,
    )


def test_all_legal(engine: GtpEngine) -> None:
    ask(engine, "boardsize 3")
    assert ask(engine, "all_legal black") == "= A3 B3 C3 A2 B2 C2 A1 B1 C1"
    ask(engine, "play b A2")
    ask(engine, "play b B1")
    assert ask(engine, "all_legal white") == "= A3 B3 C3 B2 C2 C1"  # A1 would be suicide
    assert ask(engine, "all_legal black") == "= A3 B3 C3 B2 C2 A1 C1"  # filling its own eye is legal
    for command in ("play w B2", "play w C1"):
        ask(engine, command)
    # Black's C2 captures C1 (and is legal although it has no empty neighbour)
    assert "C2" in ask(engine, "all_legal black").split()
    legal = ask(engine, "all_legal white")[2:].split()
    assert legal == [v for v in "A3 B3 C3 C2 A1".split() if ask(engine, f"is_legal w {v}") == "= 1"]
    assert ask(engine, "all_legal") == "? syntax error: expected all_legal <color>"


def test_all_legal_leaves_out_a_ko_retake() -> None:
    engine = GtpEngine(size=5)
    for command in ("play b B1", "play b A2", "play b B3", "play w C1", "play w C3", "play w D2", "play b C2", "play w B2"):
        assert ask(engine, command) == "= "
    # White took the ko at B2 by capturing C2: Black may not retake at once
    assert "C2" not in ask(engine, "all_legal black").split()
    assert "C2" in ask(engine, "all_legal white").split()
    assert ask(engine, "is_legal b C2") == "= 0"


def test_after_two_passes_play_resumes_and_the_questions_say_so(engine: GtpEngine) -> None:
    """Under Chinese rules two passes start the agreement on dead stones; a ``play`` then
    resumes the game (GNU Go plays on too), so ``is_legal`` and ``all_legal`` answer as
    ``play`` would."""
    check(
        engine,
        """
        > play b E5
        =
        > play w pass
        =
        > play b pass
        =
        > is_legal w D4
        = 1
        > is_legal w E5
        = 0
        > all_legal w
        = A9...
        > play w D4
        =
        """,
    )


def test_all_legal_is_empty_once_the_game_is_over() -> None:
    engine = GtpEngine(size=5, rules=Rules.preset("tromp-taylor"))
    for command in ("play b C3", "play w pass", "play b pass"):
        ask(engine, command)
    assert ask(engine, "all_legal w") == "= "
    assert ask(engine, "is_legal w A1") == "= 0"


def test_move_history(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > move_history
        =
        > play b E5
        =
        > play w pass
        =
        > play b d4
        =
        > move_history
        = black D4
        white PASS
        black E5
        > undo
        =
        > move_history
        = white PASS
        black E5
        > move_history now
        ? syntax error: expected no arguments
        """,
    )


def test_move_history_leaves_out_handicap_stones(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > set_free_handicap A1 B2
        =
        > play w E5
        =
        > move_history
        = white E5
        """,
    )
