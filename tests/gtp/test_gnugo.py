"""fixed_handicap, loadsgf and GNU Go's extensions compared with GNU Go, the reference
implementation of GTP v2."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from tests.gtp.gtp_transcript import ask

from miai.coords import Color, point_to_gtp
from miai.gtp.engine import GtpEngine
from miai.rules import Rules
from tests.samples import SAMPLES

GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo; CI installs it)"),
]

SIZES = range(7, 20)
STONES = range(2, 10)


@pytest.fixture(scope="module")
def gnugo_answers() -> dict[tuple[int, int], str]:
    """GNU Go's answer to ``fixed_handicap n`` on every size, from one GTP session."""
    script = []
    for size in SIZES:
        for n in STONES:
            script += [f"boardsize {size}", "clear_board", f"{size * 100 + n} fixed_handicap {n}"]
    script.append("quit")
    out = subprocess.run(
        [GNUGO, "--mode", "gtp", "--quiet"], input="\n".join(script) + "\n", capture_output=True, text=True, timeout=60
    ).stdout
    answers = {}
    for block in out.split("\n\n"):
        block = block.strip()
        head, _, rest = block.partition(" ")
        if len(head) > 1 and head[1:].isdigit():
            key = int(head[1:])
            answers[(key // 100, key % 100)] = f"{head[0]} {rest}".strip() if head[0] == "=" else "?"
    assert len(answers) == len(SIZES) * len(STONES), out
    return answers


@pytest.mark.parametrize("size", SIZES)
def test_fixed_handicap_matches_gnugo(size: int, gnugo_answers: dict[tuple[int, int], str]) -> None:
    engine = GtpEngine(size=size)
    for n in STONES:
        ask(engine, "clear_board")
        ours = ask(engine, f"fixed_handicap {n}")
        theirs = gnugo_answers[(size, n)]
        if theirs == "?":
            assert ours.startswith("? invalid number of stones"), (size, n, ours)
        else:
            assert ours == theirs, (size, n)


# ---------------------------------------------------------------------- loadsgf against GNU Go
RECORDS = [
    ("gnugo-selfplay-tt-passes.sgf", (1, 2, 50, 120, None)),
    ("glgo-gb2312-no-CA-ha9-tt-passes.sgf", (1, 30, 200, None)),
    ("manyfaces-latin1-no-CA-crlf-tt-passes.sgf", (100, 250, None)),
    ("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf", (5, None)),
    ("jago-gb2312-comment-consecutive-black-crlf.sgf", (3, 4, 100, None)),
]


def _gnugo_positions(path, numbers) -> list[tuple[str, str, str, str]]:
    script = []
    for n in numbers:
        script += [f"loadsgf {path}" + (f" {n}" if n else ""), "list_stones black", "list_stones white"]
        script += ["captures black", "captures white"]
    script.append("quit")
    out = subprocess.run(
        [GNUGO, "--mode", "gtp", "--quiet"], input="\n".join(script) + "\n", capture_output=True, text=True, timeout=60
    ).stdout
    answers = [block.strip()[1:].strip() for block in out.split("\n\n") if block.strip()]
    rows = []
    for k in range(len(numbers)):
        _, black, white, cb, cw = answers[5 * k : 5 * k + 5]
        rows.append((black, white, cb, cw))
    return rows


@pytest.mark.parametrize(("name", "numbers"), RECORDS)
def test_loadsgf_positions_match_gnugo(name: str, numbers: tuple) -> None:
    """`loadsgf FILE N` gives the same stones and captures as GNU Go's."""
    path = SAMPLES / name
    engine = GtpEngine()
    for n, theirs in zip(numbers, _gnugo_positions(path, numbers)):
        assert ask(engine, f"loadsgf {path}" + (f" {n}" if n else "")) == "= "
        game = engine.game
        ours = tuple(
            " ".join(point_to_gtp(p) for p in sorted(game.board.stones(c), key=lambda p: (-p[0], p[1])))
            for c in (Color.BLACK, Color.WHITE)
        ) + (str(game.captures(Color.BLACK)), str(game.captures(Color.WHITE)))
        assert ours == theirs, (name, n)


# ---------------------------------------------------------------------- GNU Go's extensions
VERTICES = r"(?:[A-HJ-Z]\d{1,2}(?: [A-HJ-Z]\d{1,2})*)?"
FORMATS = {
    "query_boardsize": r"\d+",
    "get_komi": r"-?\d+\.\d+",
    "list_stones": VERTICES,
    "all_legal": VERTICES,
    "move_history": r"(?:(?:black|white) (?:[A-HJ-Z]\d{1,2}|PASS))(?:\n(?:black|white) (?:[A-HJ-Z]\d{1,2}|PASS))*",
    "final_status": r"alive|dead|seki|black_territory|white_territory|dame",
    "final_status_list": rf"(?:{VERTICES}(?:\n{VERTICES})*)?",
    "estimate_score": r"[BW]\+\d+\.\d \(upper bound: -?\d+\.\d, lower: -?\d+\.\d\)",
    "top_moves_black": r"(?:[A-HJ-Z]\d{1,2} \d+\.\d\d(?: [A-HJ-Z]\d{1,2} \d+\.\d\d)*)?",
    "top_moves_white": r"(?:[A-HJ-Z]\d{1,2} \d+\.\d\d(?: [A-HJ-Z]\d{1,2} \d+\.\d\d)*)?",
}
"""What GNU Go 3.8 answers, as patterns; ours must fit the same patterns."""

QUESTIONS = [
    "query_boardsize", "get_komi", "list_stones black", "list_stones white", "captures black", "captures white",
    "all_legal black", "all_legal white", "move_history", "final_status E5", "final_status A1 3", "estimate_score",
    "final_status_list dead 3", "final_status_list alive", "top_moves_black", "top_moves_white",
    "undo 0", "move_history", "list_stones black", "list_stones white",
    "gg-undo 3", "move_history", "list_stones black", "list_stones white", "all_legal white",
]  # fmt: skip
EXACT = {"query_boardsize", "captures", "list_stones", "all_legal", "move_history", "undo", "gg-undo"}
"""The questions whose answers do not depend on a player's judgement: the same word for word."""


def _gnugo_session(commands: list[str]) -> list[str]:
    """GNU Go's answers (``=`` or ``?`` and the text) to ``commands``, one per command."""
    out = subprocess.run(
        [GNUGO, "--mode", "gtp", "--quiet", "--level", "1", "--seed", "7"],
        input="\n".join(commands) + "\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    answers = [block for block in out.split("\n\n") if block.strip()]
    assert len(answers) == len(commands) + 1, out
    return [a.rstrip() for a in answers[:-1]]


@pytest.mark.parametrize(("size", "moves"), [(9, 30), (13, 16)])
def test_extensions_answer_as_gnu_go_does(size: int, moves: int) -> None:
    """GNU Go plays itself for a few moves; then both engines are asked the same questions
    about the same position: the same answers where they are facts, the same format where
    they are judgements (status, score estimates, move values)."""
    questions = QUESTIONS if size == 9 else [q for q in QUESTIONS if not q.startswith("final_status")]  # slow in GNU Go
    setup = [f"boardsize {size}", "clear_board", "komi 6.5"]
    game = [f"genmove {'black' if k % 2 == 0 else 'white'}" for k in range(moves)]
    answers = _gnugo_session(setup + game + questions)
    played = answers[len(setup) : len(setup) + moves]
    theirs = answers[len(setup) + moves :]
    engine = GtpEngine(size=size, rules=Rules.preset("japanese"))  # simple ko and no suicide, as GNU Go
    from miai.ai.config import MctsConfig

    engine.ai_config = MctsConfig(playouts=50, max_seconds=None, seed=1)
    assert ask(engine, "komi 6.5") == "= "
    for k, answer in enumerate(played):
        vertex = answer[2:].strip()
        if vertex == "resign":
            break
        assert ask(engine, f"play {'black' if k % 2 == 0 else 'white'} {vertex}") == "= ", (k, vertex)
    for question, their in zip(questions, theirs):
        ours = ask(engine, question)
        assert ours[0] == their[0] == "=", (question, ours, their)
        name = question.split()[0]
        if name in EXACT:
            assert ours.rstrip() == their, question
        else:
            assert re.fullmatch(FORMATS[name], their[2:].strip()), (question, their)
            assert re.fullmatch(FORMATS[name], ours[2:]), (question, ours)
