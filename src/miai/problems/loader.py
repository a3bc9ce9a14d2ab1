"""Problems read from their SGF files (docs/PROBLEMS.md gives the format).

:func:`load_problem` turns one file's text into a :class:`~miai.problems.model.Problem` or
raises :class:`ProblemError` saying what is wrong; :func:`load_problems` reads every file of a
folder (by default the problems shipped in ``miai/problems/data``), the easiest first.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TypeVar

from miai.coords import Color, Move, Point, point_from_sgf
from miai.errors import InvalidMoveError, MiaiError
from miai.problems.model import Goal, Level, Node, Problem, Theme, Verdict
from miai.sgf.grammar import SgfNode, scan
from miai.sgf.properties import point_list
from miai.sgf.repairs import Repair

__all__ = ["ProblemError", "load_problem", "load_problems", "problem_files"]

E = TypeVar("E", Goal, Level, Theme)


class ProblemError(MiaiError, ValueError):
    """A problem file that does not say what a problem must say."""


def problem_files(folder: Path | None = None) -> list[Path]:
    """The ``.sgf`` files of ``folder`` (the shipped problems by default), sorted by name."""
    where = folder if folder is not None else Path(str(resources.files("miai.problems") / "data"))
    return sorted(where.glob("*.sgf"))


def load_problems(folder: Path | None = None) -> list[Problem]:
    """Every problem of ``folder`` (the shipped ones by default), the easiest first: by level,
    then in the order of the file names."""
    problems = [load_problem(path.read_text(encoding="utf-8"), path.stem) for path in problem_files(folder)]
    levels = list(Level)
    return sorted(problems, key=lambda p: levels.index(p.level))


def load_problem(text: str, problem_id: str) -> Problem:
    """The problem an SGF text states; raises :class:`ProblemError` on anything missing or wrong."""
    repairs: list[Repair] = []
    trees = scan(text, repairs)
    if len(trees) != 1:
        raise ProblemError(f"{problem_id}: one game tree expected, found {len(trees)}")
    if repairs:
        raise ProblemError(f"{problem_id}: the SGF needed repairs: {'; '.join(repairs)}")
    root = trees[0]
    try:
        return _problem(root, problem_id)
    except (InvalidMoveError, ValueError) as exc:
        if isinstance(exc, ProblemError):
            raise
        raise ProblemError(f"{problem_id}: {exc}") from exc


def _problem(root: SgfNode, problem_id: str) -> Problem:
    size = int(_required(root, "SZ", problem_id))
    to_play = Color.parse(_required(root, "PL", problem_id))
    goal = _enum(Goal, _required(root, "GO", problem_id), "GO", problem_id)
    level = _enum(Level, _required(root, "LV", problem_id), "LV", problem_id)
    theme_text = root.get("TH")
    theme = _enum(Theme, theme_text, "TH", problem_id) if theme_text else None
    view = _view(point_list(root.properties.get("VW", []), size), size)
    start = Node(Move(to_play.opponent, None), None, _children(root, to_play, size, problem_id))
    return Problem(
        id=problem_id,
        size=size,
        black=frozenset(point_list(root.properties.get("AB", []), size)),
        white=frozenset(point_list(root.properties.get("AW", []), size)),
        to_play=to_play,
        goal=goal,
        targets=frozenset(point_list(root.properties.get("MA", []), size)),
        level=level,
        theme=theme,
        view=view,
        source=_required(root, "SO", problem_id),
        start=start,
    )


def _required(node: SgfNode, pid: str, problem_id: str) -> str:
    value = node.get(pid)
    if not value:
        raise ProblemError(f"{problem_id}: the root has no {pid}[]")
    return value.strip()


def _enum(kind: type[E], text: str, pid: str, problem_id: str) -> E:
    try:
        return kind(text.strip().lower())
    except ValueError:
        known = ", ".join(e.value for e in kind)
        raise ProblemError(f"{problem_id}: {pid}[{text}] is none of {known}") from None


def _view(points: list[Point], size: int) -> tuple[Point, Point]:
    """The smallest rectangle holding ``points``; the whole board when there are none."""
    if not points:
        return (0, 0), (size - 1, size - 1)
    rows = [p[0] for p in points]
    cols = [p[1] for p in points]
    return (min(rows), min(cols)), (max(rows), max(cols))


def _children(node: SgfNode, to_play: Color, size: int, problem_id: str) -> tuple[Node, ...]:
    """The nodes below ``node``, whose moves must all be ``to_play``'s (recursive: a solution
    tree is a few dozen moves deep at most)."""
    return tuple(_node(child, to_play, size, problem_id) for child in node.children)


def _node(sgf: SgfNode, color: Color, size: int, problem_id: str) -> Node:
    move = sgf.move
    if move is None:
        raise ProblemError(f"{problem_id}: a node of the solution tree holds no move")
    letter, where = move
    if letter != color.letter:
        raise ProblemError(f"{problem_id}: {letter}[{where}] where {color.letter} was to play")
    if where == "":
        raise ProblemError(f"{problem_id}: a pass in the solution tree")
    point = point_from_sgf(where, size)
    verdict = _verdict(sgf, problem_id, where)
    return Node(Move(color, point), verdict, _children(sgf, color.opponent, size, problem_id))


def _verdict(sgf: SgfNode, problem_id: str, where: str) -> Verdict | None:
    right, wrong = "TE" in sgf, "BM" in sgf
    if right and wrong:
        raise ProblemError(f"{problem_id}: the move at {where} is marked both right (TE) and wrong (BM)")
    return Verdict.RIGHT if right else Verdict.WRONG if wrong else None
