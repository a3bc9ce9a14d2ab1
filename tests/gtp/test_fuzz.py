"""No GTP command may answer ``? internal error``: bad input is a ``?`` that says what was
wrong, never a traceback.

tests/data/fuzz/gtp-internal-errors.gtp holds the commands that did (found among random
GTP lines): ``play b A²``, vertices and ids of thousands of digits, komi too large for a
float in ``kata-set-rules`` JSON, an SGF file naming an unknown character set. The
hypothesis test sends every command random arguments of the same kinds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai.ai.config import MctsConfig
from miai.gtp.engine import GtpEngine
from miai.gtp.protocol import Command

FUZZ = Path(__file__).resolve().parents[1] / "data" / "fuzz"


def watched_engine(size: int = 19) -> tuple[GtpEngine, list[tuple[Command, BaseException]]]:
    """An engine whose bugs are collected instead of printed (a fast player for genmove)."""
    engine = GtpEngine(size=size, ai_config=MctsConfig(playouts=16, max_seconds=0.05, seed=1))
    bugs: list[tuple[Command, BaseException]] = []
    engine.dispatcher.on_exception = lambda command, exc: bugs.append((command, exc))
    engine.log = lambda text: None
    return engine, bugs


def test_the_reproducers_answer_without_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FUZZ)  # the file loads an SGF file beside it
    engine, bugs = watched_engine()
    lines = (FUZZ / "gtp-internal-errors.gtp").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    answers = [engine.handle(line) for line in lines]
    assert not bugs, bugs
    for line, answer in zip(lines, answers):
        assert answer is not None and answer.endswith("\n\n")
        assert "internal error" not in answer, (line[:60], answer[:200])
        assert len(answer) < 300, (line[:60], answer[:300])  # no echo of a 5,000-digit word
    assert answers[0].startswith("? syntax error: not a GTP vertex: 'A\u00b2'")
    assert answers[1].startswith("? syntax error: vertex A99999999... is off the 19x19 board")
    assert answers[2] == "? syntax error: a command id has at most 18 digits, not 5000\n\n"
    assert answers[3].startswith("? komi must be a finite number")
    assert answers[4].startswith("? could not parse rules JSON")
    assert answers[5] == "= \n\n"  # CA[rot13] is no charset: guessed, with a repair note
    assert answers[6] == "= miai\n\n"


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("play b A\u0661", "? syntax error: not a GTP vertex"),  # an Arabic-Indic one is not A1
        ("kata-set-rules " + "[" * 100_000 + "]" * 100_000, "? unknown rules '[[["),  # not a JSON object: a name
        ('kata-set-rules {"ko": ' + "[" * 100_000 + "]" * 100_000 + "}", "? could not parse rules JSON"),
        ("komi 1e300", "? unacceptable komi: komi must be from -1000 to 1000, not 1e+300"),
        ("komi 1000.5", "? unacceptable komi"),
        ('kata-set-rules {"komi": 1e300}', "? unacceptable komi"),
        ("kata-set-rules japanese komi=1e300", "? unacceptable komi"),
        ("boardsize " + "9" * 5000, "? syntax error: the board size is out of range"),
        ("fixed_handicap " + "9" * 5000, "? syntax error: the number of stones is out of range"),
        ("time_left b 10 " + "9" * 5000, "? syntax error: the stones left must be at most"),
        ("boardsize \u0669", "? syntax error: the board size must be an integer"),  # int() took an Arabic-Indic nine
        ("komi \u0666.\u0665", "? syntax error: komi must be a number"),  # float() took ٦.٥
        ("set_free_handicap " + "A1 " * 30_000, "? bad vertex list: free handicap places a stone twice on A1"),
        ("level " + "9" * 5000, "? syntax error: the level is out of range"),
        ("lz-analyze b " + "9" * 5000, "? syntax error: the interval (centiseconds) is out of range"),
    ],
    ids=lambda value: value[:30],
)
def test_bad_arguments_are_refused_at_the_door(line: str, answer: str) -> None:
    engine, bugs = watched_engine()
    got = engine.handle(line)
    assert not bugs, bugs
    assert got is not None and got.startswith(answer), got[:200] if got else got
    assert len(got) < 300, got[:300]


def test_a_refused_komi_changes_nothing(engine: GtpEngine) -> None:
    engine.handle("komi 1e300")
    engine.handle('kata-set-rules {"komi": -5000}')
    assert engine.rules.komi == 7.5


# ---------------------------------------------------------------------- random arguments
COMMANDS = [
    "protocol_version", "name", "version", "known_command", "list_commands", "boardsize", "clear_board",
    "komi", "play", "undo", "gg-undo", "fixed_handicap", "place_free_handicap", "set_free_handicap", "is_legal",
    "captures", "showboard", "final_score", "final_status_list", "final_status", "estimate_score",
    "time_settings", "kgs-time_settings", "time_left", "kata-get-rules", "kata-set-rules", "kata-set-rule",
    "kgs-rules", "query_boardsize", "get_komi", "list_stones", "all_legal", "move_history", "genmove",
    "reg_genmove", "top_moves_black", "top_moves_white", "level", "lz-analyze",
]  # fmt: skip
"""Every command but those that touch files (loadsgf, printsgf FILE) and quit."""

digits = st.text("0123456789", min_size=1, max_size=30) | st.builds(lambda n: "9" * n, st.integers(100, 6000))
odd_digits = st.sampled_from(["\u00b2", "\u0661", "\u0669", "\uff11", "\u2460", "\u00bd", "\u0e53"])
word = st.one_of(
    digits,
    st.builds(lambda sign, d: sign + d, st.sampled_from(["-", "+", ""]), digits),
    st.sampled_from(["b", "w", "black", "white", "pass", "nan", "inf", "-inf", "1e400", "1e-400", "0", "-0", "none"]),
    st.builds(lambda c, d: c + d, st.sampled_from("ABCDEFGHJKLMNOPQRSTZaIi"), digits | odd_digits),
    st.builds(lambda d, o: d + o, digits, odd_digits),
    st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 50_000)),
    st.builds(json.dumps, st.dictionaries(st.sampled_from(["ko", "komi", "scoring", "tax", "x"]), st.integers() | st.floats() | st.text(max_size=5))),
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=12),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    lines=st.lists(
        st.tuples(st.sampled_from(COMMANDS), st.lists(word, max_size=4), st.one_of(st.none(), digits)), max_size=6
    )
)
def test_random_arguments_never_cause_an_internal_error(lines: list[tuple[str, list[str], str | None]]) -> None:
    engine, bugs = watched_engine(size=7)
    for name, args, ident in lines:
        line = " ".join(([ident] if ident else []) + [name, *args])
        answer = engine.handle(line)
        assert not bugs, (line[:100], bugs)
        assert answer is not None and answer.endswith("\n\n")
        assert "internal error" not in answer, (line[:100], answer[:200])
