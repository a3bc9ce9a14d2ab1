"""fixed_handicap compared with GNU Go, the reference implementation of GTP v2."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from gtp_transcript import ask

from miai.coords import Color, point_to_gtp
from miai.gtp.engine import GtpEngine
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
