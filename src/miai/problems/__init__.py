"""Life-and-death and capturing problems: data files, their loader and the judge of a move
(docs/PROBLEMS.md).

Each problem is an SGF file in ``miai/problems/data``: the position, who plays, the goal, and a
solution tree whose moves of the player's are marked right or wrong, each followed by the
computer's answer. :func:`load_problems` reads them; :func:`judge` (or an :class:`Attempt`) says
whether a move is right, wrong (and the computer's refutation) or solves the problem;
:func:`check_problems` lists what is wrong with the files, for ``miai learn check``.
"""

from miai.problems.check import check_problems
from miai.problems.judge import Attempt, Judgement, Outcome, judge, problem_rules, start_game
from miai.problems.loader import ProblemError, load_problem, load_problems, problem_files
from miai.problems.model import Goal, Kind, Level, Node, Problem, Theme, Verdict

__all__ = [
    "Attempt",
    "Goal",
    "Judgement",
    "Kind",
    "Level",
    "Node",
    "Outcome",
    "Problem",
    "ProblemError",
    "Theme",
    "Verdict",
    "check_problems",
    "judge",
    "load_problem",
    "load_problems",
    "problem_files",
    "problem_rules",
    "start_game",
]
