"""What is wrong with the problem files, by the rules core alone (for ``miai learn check``).

The answers themselves are checked against GNU Go's reading by the tests
(tests/problems/test_answers.py); here every file must load, state a sound position and goal,
and every move of its solution tree must be legal in turn under the problems' rules.
"""

from __future__ import annotations

from pathlib import Path

from miai.coords import point_to_gtp
from miai.errors import MiaiError
from miai.game import Game
from miai.problems.judge import start_game
from miai.problems.loader import ProblemError, load_problem, problem_files
from miai.problems.model import Goal, Node, Problem, Verdict

__all__ = ["check_problem", "check_problems"]


def check_problems(folder: Path | None = None) -> list[str]:
    """One line per fault found in the problem files of ``folder`` (the shipped ones by default);
    an empty list when all are sound."""
    errors: list[str] = []
    for path in problem_files(folder):
        try:
            problem = load_problem(path.read_text(encoding="utf-8"), path.stem)
        except (ProblemError, OSError, UnicodeDecodeError) as exc:
            errors.append(f"{path.name}: {exc}")
            continue
        errors.extend(f"{path.name}: {fault}" for fault in check_problem(problem))
    return errors


def check_problem(problem: Problem) -> list[str]:
    """The faults of one loaded problem: its position, its goal and its tree."""
    try:
        game = start_game(problem)
    except MiaiError as exc:
        return [f"the position is not one the rules allow: {exc}"]
    faults = _goal_faults(problem)
    if not problem.start.right_replies:
        faults.append("no first move is marked right (TE)")
    faults.extend(_tree_faults(problem, game, problem.start, []))
    return faults


def _goal_faults(problem: Problem) -> list[str]:
    """The marked stones must exist and be of the colour the goal is about."""
    if not problem.targets:
        return ["no stone is marked (MA) as the goal's stones"]
    own = problem.goal in (Goal.LIVE, Goal.SAVE)
    stones = problem.stones(problem.to_play if own else problem.to_play.opponent)
    stray = sorted(problem.targets - stones)
    whose = "the player's" if own else "the opponent's"
    return [f"marked point {point_to_gtp(p)} is not one of {whose} stones" for p in stray]


def _tree_faults(problem: Problem, game: Game, node: Node, path: list[str]) -> list[str]:
    """Every move below ``node`` legal in turn; the player's moves marked, the computer's not;
    a wrong move followed by at most its refutation; a right move's line ending in a right move."""
    faults: list[str] = []
    player_moves = node is problem.start or node.verdict is None
    for child in node.replies:
        where = " ".join([*path, point_to_gtp(child.move.point)])
        if player_moves and child.verdict is None:
            faults.append(f"{where}: the player's move is marked neither right (TE) nor wrong (BM)")
        if not player_moves and child.verdict is not None:
            faults.append(f"{where}: the computer's move is marked {child.verdict.value}")
        if child.verdict is Verdict.WRONG and any(grand.replies for grand in child.replies):
            faults.append(f"{where}: the line goes on after the refutation of a wrong move")
        if not player_moves and node.verdict is Verdict.RIGHT and not child.right_replies:
            faults.append(f"{where}: no right answer to the computer's move")
        reason = game.legality(child.move)
        if reason is not None:
            faults.append(f"{where}: illegal ({reason.value})")
            continue
        after = game.copy()
        after.play(child.move)
        faults.extend(_tree_faults(problem, after, child, [*path, point_to_gtp(child.move.point)]))
    return faults
