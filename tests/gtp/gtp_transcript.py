"""Transcript helpers for the GTP tests: commands in, expected responses out.

A transcript is text where a line ``> command`` sends a command and the lines after it,
up to the next ``>``, are the expected response without its final empty line, e.g.::

    > 1 boardsize 9
    =1
    > play b Z9
    ? syntax error: vertex Z9 is off the 9x9 board

A response line may end in ``...`` to match only its beginning. Trailing spaces are
ignored (GTP puts a space after ``=`` even when the result is empty).
"""

from __future__ import annotations

from miai.gtp.engine import GtpEngine


def ask(engine: GtpEngine, command: str) -> str:
    """The response to ``command`` without the final blank line."""
    response = engine.handle(command)
    assert response is not None, f"no response to {command!r}"
    assert response.endswith("\n\n") and not response.endswith("\n\n\n"), repr(response)
    return response[:-2]


def check(engine: GtpEngine, transcript: str) -> None:
    """Play ``transcript`` against ``engine``; fail on the first response that differs."""
    steps: list[tuple[str, list[str]]] = []
    for raw in transcript.strip("\n").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith(">"):
            steps.append((line[1:].strip(), []))
        else:
            assert steps, f"response line before any command: {raw!r}"
            steps[-1][1].append(line)
    for command, expected in steps:
        got = [ln.rstrip() for ln in ask(engine, command).split("\n")]
        want = [ln.rstrip() for ln in expected]
        ok = len(got) == len(want) and all(
            g.startswith(w[:-3]) if w.endswith("...") else g == w for g, w in zip(got, want)
        )
        assert ok, f"command {command!r}:\n expected {want!r}\n      got {got!r}"
