"""GNU Go's reading of a problem (docs/PROBLEMS.md), for the tests and the tool that makes
problems: does a move reach the goal, and what is the other side's best answer.

Life and death and capturing races are read with GNU Go's owl code (``owl_attack``,
``owl_defend``), the other capturing problems with its tactical reading (``attack``, ``defend``), on the problem's position set up by ``play`` commands under GNU Go's default
rules (Japanese, simple ko, no suicide: the problems' rules). Only a clean win counts: a
result of ko (codes 2 and 3) is not a success for the side that asked.
"""

from __future__ import annotations

import shutil

from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.gtp.controller import GtpController
from miai.problems.model import Goal, Kind, Problem, Theme

__all__ = ["GNUGO", "GnuGoReader"]

GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
"""GNU Go's program, or None when it is not installed."""

_OWL = {"attack": "owl_attack", "defend": "owl_defend"}
_TACTICAL = {"attack": "attack", "defend": "defend"}


class GnuGoReader:
    """One GNU Go process reading problems; ``with GnuGoReader() as r: ...``."""

    def __init__(self, program: str | None = None) -> None:
        argv = [program or GNUGO or "gnugo", "--mode", "gtp", "--quiet"]
        self._gtp = GtpController(argv, timeout=60)
        self.problem: Problem | None = None
        self.moves: list[Move] = []

    def __enter__(self) -> GnuGoReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self._gtp.close()

    # ------------------------------------------------------------------ the position
    def set_problem(self, problem: Problem) -> None:
        """Set up ``problem``'s position; no move played."""
        self.problem = problem
        self.moves = []
        self._gtp.send(f"boardsize {problem.size}")
        self._gtp.send("clear_board")
        for color, stones in ((Color.BLACK, problem.black), (Color.WHITE, problem.white)):
            for p in sorted(stones):
                self._gtp.send(f"play {color} {point_to_gtp(p)}")

    def play(self, move: Move) -> None:
        self._gtp.send(f"play {move.color} {move.gtp()}")
        self.moves.append(move)

    def undo(self) -> None:
        self._gtp.send("undo")
        self.moves.pop()

    def stone_at(self, point: Point) -> Color | None:
        text = self._gtp.send(f"color {point_to_gtp(point)}").strip().lower()
        return None if text == "empty" else Color.parse(text)

    def is_legal(self, move: Move) -> bool:
        return self._gtp.send(f"is_legal {move.color} {move.gtp()}").strip() == "1"

    # ------------------------------------------------------------------ the goal
    def _target(self) -> Point | None:
        """The first marked stone still on the board, or None when all were captured."""
        assert self.problem is not None
        for p in sorted(self.problem.targets):
            if self.stone_at(p) is not None:
                return p
        return None

    def _commands(self) -> dict[str, str]:
        assert self.problem is not None
        owl = self.problem.kind is Kind.LIFE_AND_DEATH or self.problem.theme is Theme.RACE
        return _OWL if owl else _TACTICAL

    def _player_attacks(self) -> bool:
        """Whether the player's goal is to take the marked stones (kill, capture)."""
        assert self.problem is not None
        return self.problem.goal in (Goal.KILL, Goal.CAPTURE)

    def reaches_goal(self, point: Point) -> bool:
        """Whether the player's move at ``point``, now, reaches the goal whatever the answer:
        after it, the computer cannot stop the player (read as the computer to move, by the
        same ``attack``/``defend`` reading :meth:`answer` uses, so the two never disagree)."""
        assert self.problem is not None
        move = Move(self.problem.to_play, point)
        if not self.is_legal(move):
            return False
        self.play(move)
        try:
            return not self.answer()[0]
        finally:
            self.undo()

    def player_wins(self) -> bool:
        """Whether the player, to move now, reaches the goal (cleanly, not by ko)."""
        target = self._target()
        if target is None:
            return self._player_attacks()
        name = self._commands()["attack" if self._player_attacks() else "defend"]
        return self._code(f"{name} {point_to_gtp(target)}") == 1

    def answer(self) -> tuple[bool, Point | None]:
        """The computer to move now: whether it can stop the player (a clean win or a ko of its
        own), and GNU Go's move for it (None when it needs none or has none)."""
        target = self._target()
        if target is None:
            return (not self._player_attacks(), None)
        name = self._commands()["defend" if self._player_attacks() else "attack"]
        words = self._gtp.send(f"{name} {point_to_gtp(target)}").split()
        code = int(words[0])
        assert self.problem is not None
        point = point_from_gtp(words[1], self.problem.size) if len(words) > 1 else None
        return (code != 0, point)

    def _code(self, command: str) -> int:
        return int(self._gtp.send(command).split()[0])
