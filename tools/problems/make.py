"""Make problem files from diagrams, with GNU Go reading the solution tree (docs/PROBLEMS.md).

    PYTHONPATH=src:. python3 -m tools.problems.make [ID ...]

Each spec of ``tools/problems/specs.py`` is a diagram of the bottom-left corner (``X``/``O``
stones, ``x``/``o`` the marked ones, ``.`` empty), who plays and the goal; this tool writes
``src/miai/problems/data/<id>.sgf`` with the tree GNU Go reads: every right move at each of the
player's turns, the plausible wrong ones with GNU Go's refutation, and after a right move the
computer's most demanding resistance (the answer that leaves the player the fewest right moves).
The tests (tests/problems/test_answers.py) read the written trees again.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from miai.coords import Color, Move, Point, neighbors, point_to_sgf
from miai.errors import MiaiError
from miai.game import Game
from miai.problems.judge import start_game
from miai.problems.model import Goal, Level, Node, Problem, Theme, Verdict
from miai.testing.gnugo_reader import GnuGoReader
from tools.problems.specs import SPECS, Spec

DATA = Path(__file__).resolve().parents[2] / "src" / "miai" / "problems" / "data"
SOURCE = "miai: made for this collection; the answers read by GNU Go 3.8 and checked by the tests"
MAX_FIRST_RIGHTS = 3
"""A position with more right first moves than this is no problem (the goal stands anyway)."""
MAX_LINES = 2
"""At a turn with more right moves, those beyond the first two end the problem there."""
LEAF_CHOICES = 3
"""After a right move, when every answer of the computer's leaves the player this many right
moves or more, the problem is solved there."""


def problem_of(spec: Spec) -> Problem:
    """The problem a spec states, with an empty tree."""
    black: set[Point] = set()
    white: set[Point] = set()
    marked: set[Point] = set()
    rows = [line.replace(" ", "") for line in spec.diagram.strip().splitlines()]
    for i, line in enumerate(rows):
        row = len(rows) - 1 - i
        for col, ch in enumerate(line):
            if ch in "Xx":
                black.add((row, col))
            elif ch in "Oo":
                white.add((row, col))
            if ch in "xo":
                marked.add((row, col))
    height, width = len(rows), max(len(r) for r in rows)
    view = ((0, 0), (min(height, spec.size) - 1, min(width, spec.size) - 1))
    return Problem(
        id=spec.id, size=spec.size, black=frozenset(black), white=frozenset(white),
        to_play=spec.to_play, goal=spec.goal, targets=frozenset(marked), level=spec.level,
        theme=spec.theme, view=view, source=spec.source or SOURCE,
        start=Node(Move(spec.to_play.opponent, None), None),
    )


class Builder:
    """Reads one problem's tree with GNU Go, on a game kept in step with the reader."""

    def __init__(self, reader: GnuGoReader, problem: Problem, max_plies: int) -> None:
        self.reader = reader
        self.problem = problem
        self.max_plies = max_plies
        reader.set_problem(problem)

    def empties(self, game: Game, color: Color) -> list[Point]:
        """The points in view where ``color`` may play now."""
        return [p for p in game.legal_moves(color) if self.problem.in_view(p)]

    def plausible(self, game: Game) -> set[Point]:
        """Liberties of the marked stones and the points next to them."""
        libs: set[Point] = set()
        for t in self.problem.targets:
            if game.board[t] is None:
                continue
            for stone in game.board.chain(t):
                libs |= {q for q in neighbors(stone, game.size) if game.board[q] is None}
        return libs | {q for p in libs for q in neighbors(p, game.size) if game.board[q] is None}

    def play(self, game: Game, move: Move) -> Game:
        after = game.copy()
        after.play(move)
        self.reader.play(move)
        return after

    def rights(self, game: Game) -> list[Point]:
        return [p for p in self.empties(game, self.problem.to_play) if self.reader.reaches_goal(p)]

    def player_turn(self, game: Game, plies: int) -> tuple[Node, ...]:
        """The player's moves at this turn: the right ones with their lines, the wrong ones that
        need an explicit refutation."""
        color = self.problem.to_play
        rights = self.rights(game)
        if plies == 0 and not 1 <= len(rights) <= MAX_FIRST_RIGHTS:
            raise RuntimeError(f"{len(rights)} right first moves: not a problem")
        nodes = [self.right_line(game, p, plies) if i < MAX_LINES else Node(Move(self.problem.to_play, p), Verdict.RIGHT)
                 for i, p in enumerate(rights)]
        key = rights[0] if rights else None
        for p in self.empties(game, color):
            if p in rights:
                continue
            wrong = self.wrong_node(game, p, key, explicit=p in self.plausible(game))
            if wrong is not None:
                nodes.append(wrong)
        return tuple(nodes)

    def wrong_node(self, game: Game, point: Point, key: Point | None, *, explicit: bool) -> Node | None:
        """A wrong move with its refutation: GNU Go's answer if it refutes; the default answer
        (the key point) if that refutes and the move is not listed as plausible."""
        move = Move(self.problem.to_play, point)
        after = self.play(game, move)
        try:
            stops, answer = self.reader.answer()
            if not stops:
                raise RuntimeError(f"{self.problem.id}: {move} is not a right move but GNU Go finds no answer")
            if key is not None and not explicit and self.refutes(after, key):
                return None
            if answer is not None and self.refutes(after, answer):
                return Node(move, Verdict.WRONG, (Node(Move(move.color.opponent, answer), None),))
            if key is not None and self.refutes(after, key):
                return Node(move, Verdict.WRONG, (Node(Move(move.color.opponent, key), None),))
            for p in self.empties(after, move.color.opponent):
                if self.refutes(after, p):
                    return Node(move, Verdict.WRONG, (Node(Move(move.color.opponent, p), None),))
            raise RuntimeError(f"{move} is wrong by GNU Go's reading, but no answer of the computer's refutes it")
        finally:
            self.reader.undo()

    def refutes(self, game: Game, point: Point) -> bool:
        move = Move(self.problem.to_play.opponent, point)
        if game.legality(move) is not None:
            return False
        self.play(game, move)
        try:
            return not self.reader.player_wins()
        finally:
            self.reader.undo()

    def right_line(self, game: Game, point: Point, plies: int) -> Node:
        """A right move and, unless it ends the problem, the computer's resistance and the
        player's moves after it."""
        move = Move(self.problem.to_play, point)
        after = self.play(game, move)
        try:
            if plies + 2 >= self.max_plies or self.reader._target() is None:
                return Node(move, Verdict.RIGHT)
            resistance = self.resistance(after)
            if resistance is None:
                return Node(move, Verdict.RIGHT)
            reply = Move(move.color.opponent, resistance)
            then = self.play(after, reply)
            try:
                below = self.player_turn(then, plies + 2)
            finally:
                self.reader.undo()
            return Node(move, Verdict.RIGHT, (Node(reply, None, below),))
        finally:
            self.reader.undo()

    def resistance(self, game: Game) -> Point | None:
        """The computer's answer that leaves the player the fewest right moves (fewer than
        LEAF_CHOICES), nearest the marked stones; None when no answer needs a precise reply."""
        best: tuple[int, int, Point] | None = None
        targets = sorted(self.problem.targets)
        for p in self.empties(game, self.problem.to_play.opponent):
            after = self.play(game, Move(self.problem.to_play.opponent, p))
            try:
                threat = self.reader.answer()[0]
                count = len(self.rights(after)) if threat else 0
                if threat and count == 0:
                    raise RuntimeError(f"{self.problem.id}: the computer's {p} refutes a right move")
            finally:
                self.reader.undo()
            if not threat:
                continue  # the goal stands even if the player ignores it: no resistance
            distance = min(abs(p[0] - t[0]) + abs(p[1] - t[1]) for t in targets)
            if count < LEAF_CHOICES and (best is None or (count, distance) < best[:2]):
                best = (count, distance, p)
        return best[2] if best else None


def to_sgf(problem: Problem) -> str:
    """The problem's file text."""
    size = problem.size
    pts = lambda points: "".join(f"[{point_to_sgf(p, size)}]" for p in sorted(points))  # noqa: E731
    (r0, c0), (r1, c1) = problem.view
    view = f"{point_to_sgf((r1, c0), size)}:{point_to_sgf((r0, c1), size)}"
    head = (
        f"(;FF[4]GM[1]CA[UTF-8]SZ[{size}]\nSO[{problem.source}]\n"
        f"GO[{problem.goal.value}]LV[{problem.level.value}]"
        + (f"TH[{problem.theme.value}]" if problem.theme else "")
        + f"PL[{problem.to_play.letter}]VW[{view}]\n"
        f"AB{pts(problem.black)}\nAW{pts(problem.white)}\nMA{pts(problem.targets)}\n"
    )
    return head + "".join(_tree(n, size, 0) for n in problem.start.replies) + ")\n"


def _tree(node: Node, size: int, depth: int) -> str:
    mark = {Verdict.RIGHT: "TE[1]", Verdict.WRONG: "BM[1]", None: ""}[node.verdict]
    text = f";{node.move.sgf(size)}{mark}"
    if len(node.replies) == 1:
        text += _tree(node.replies[0], size, depth + 1).removeprefix("(").removesuffix(")")
    elif node.replies:
        text += "".join(_tree(c, size, depth + 1) for c in node.replies)
    return ("\n" if depth == 0 else "") + "(" + text + ")"


def make(spec: Spec, reader: GnuGoReader) -> Problem:
    problem = problem_of(spec)
    builder = Builder(reader, problem, spec.max_plies)
    game = start_game(problem)
    replies = builder.player_turn(game, 0)
    return replace(problem, start=Node(problem.start.move, None, replies))


def main(ids: list[str]) -> None:
    chosen = [s for s in SPECS if not ids or s.id in ids]
    with GnuGoReader() as reader:
        for spec in chosen:
            try:
                problem = make(spec, reader)
            except (RuntimeError, MiaiError) as exc:
                print(f"{spec.id}: SKIPPED: {exc}", flush=True)
                (DATA / f"{spec.id}.sgf").unlink(missing_ok=True)
                continue
            (DATA / f"{spec.id}.sgf").write_text(to_sgf(problem), encoding="utf-8")
            rights = ", ".join(Move(problem.to_play, p).gtp() for p in problem.right_first_moves)
            print(f"{spec.id}: right first moves {rights or 'NONE'}", flush=True)


__all__ = ["Goal", "Level", "Theme", "main", "make", "problem_of", "to_sgf"]

if __name__ == "__main__":
    main(sys.argv[1:])
