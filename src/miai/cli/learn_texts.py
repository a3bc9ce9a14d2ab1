"""The sentences of ``miai learn`` (the course in the terminal): a verdict of
:mod:`miai.lessons.judges` said in the person's language; a refused move in the words
``miai play`` uses (:func:`miai.cli.texts.illegal_move`)."""

from __future__ import annotations

from miai.cli.texts import color_name, illegal_move
from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.errors import IllegalMoveError, IllegalReason
from miai.game import Game
from miai.i18n import gettext as _
from miai.i18n import ngettext
from miai.lessons.judges import Verdict, Why
from miai.lessons.model import Step, Task
from miai.problems import Goal, Problem


def lesson_heading(number: int, total: int, title: str) -> str:
    return _("Lesson {number} of {total}: {title}").format(number=number, total=total, title=title)


def step_heading(number: int, total: int) -> str:
    return _("Step {number} of {total}").format(number=number, total=total)


def how_to_answer(step: Step) -> str:
    """What to type for this step's task."""
    hints = {
        Task.DEAD: _("Type the dead stones (e.g. C5 F5), or none."),
        Task.AGREE: _("Type accept or refuse."),
        Task.COUNT: _("Type Black's points then White's (e.g. 12 7)."),
        Task.WINNER: _("Type black, white or draw."),
        Task.FIRST: _("Type black or white."),
        Task.HANDICAP: _("Type the points of the stones (e.g. C3 G7)."),
        Task.REPLAY: _("Type the moves in order (e.g. E5 C6)."),
        Task.END: _("Type a move or pass."),
    }
    return hints.get(step.task, _("Type a point (e.g. C3)."))


def right() -> str:
    return _("Right!")


def keep_going() -> str:
    return _("Right so far: go on.")


def try_again() -> str:
    return _("Try again.")


def course_done() -> str:
    return _("You have finished the course. Now play your first 9×9 game against the computer at its lowest level: miai play --size 9 --white ai --level 1. When you win, try --level 2.")


def words_for(language_words: dict[str, str], word: str) -> str:
    """An answer word typed in the person's language (negro, bianco...) as the judges' word."""
    return language_words.get(word.lower(), word)


def answer_words() -> dict[str, str]:
    """The words a person may type for the judges' English ones, in their language."""
    return {
        color_name(Color.BLACK).split()[-1].lower(): "black",
        color_name(Color.WHITE).split()[-1].lower(): "white",
        _("draw").lower(): "draw",
        _("accept").lower(): "accept",
        _("refuse").lower(): "refuse",
        _("none").lower(): "",
    }


def explain(verdict: Verdict, step: Step, color: Color) -> str:
    """Why the answer is wrong, with the rule's own words."""
    why = verdict.why
    if why is Why.ILLEGAL and verdict.reason is not None and verdict.vertex:
        error = IllegalMoveError(verdict.reason, "", repeats_move=verdict.repeats_move)
        return illegal_move(error, Move(color, point_from_gtp(verdict.vertex, verdict.game.size)), verdict.game)
    if why is Why.LEGAL:
        return _("{point} is a legal move: the rules allow it.").format(point=verdict.vertex)
    if why is Why.STILL_THERE:
        n = verdict.liberties or 0
        return ngettext("The stones are still there: they have {n} liberty.",
                        "The stones are still there: they have {n} liberties.", n).format(n=n)  # fmt: skip
    if why is Why.NOT_A_LIBERTY:
        return _("{point} is not a liberty: a liberty is an empty point next to the stone along a line.").format(point=verdict.vertex)
    if why is Why.NOT_ATARI:
        n = verdict.liberties or 0
        return ngettext("Not atari: the stones have {n} liberty.", "Not atari: the stones have {n} liberties.", n).format(n=n)
    if why is Why.PLAY_GOES_ON:
        return _("Play goes on: the game ends only after two passes in a row.")
    if why in (Why.DEAD_WRONG, Why.PROPOSAL_WRONG):
        parts = []
        if verdict.missed:
            parts.append(_("Dead but not marked: {points}.").format(points=" ".join(verdict.missed)))
        if verdict.alive:
            parts.append(_("Marked but alive: {points}.").format(points=" ".join(verdict.alive)))
        return " ".join(parts)
    if why is Why.PROPOSAL_RIGHT:
        return _("That proposal named exactly the dead stones: refusing it only makes play resume.")
    if why is Why.COUNT_WRONG:
        names = ", ".join(color_name(Color[c.upper()]) for c in verdict.colors)
        return _("Not quite: count again for {colors}.").format(colors=names)
    if why is Why.WINNER_WRONG:
        return _("No: add the komi to White's points and compare.")
    if why is Why.NOT_FIRST:
        return _("No: look at whose stones are already on the board.")
    if why is Why.NOT_HANDICAP:
        return _("Not a handicap point for this number of stones: {points}.").format(points=" ".join(verdict.points))
    if why is Why.NOT_THE_MOVE:
        return _("That is not move {number}: look for the stone numbered {number}.").format(number=verdict.number)
    return _("That answer cannot be read here.")


def problem_heading(number: int, total: int, source: str) -> str:
    return _("Problem {number} of {total} ({source})").format(number=number, total=total, source=source)


def goal(problem: Problem) -> str:
    """The problem's goal, from the goal and the colour (the files hold no sentence)."""
    black = problem.to_play is Color.BLACK
    goals = {
        Goal.KILL: (_("Black to play and kill."), _("White to play and kill.")),
        Goal.LIVE: (_("Black to play and live."), _("White to play and live.")),
        Goal.CAPTURE: (_("Black to play and capture the marked stones."), _("White to play and capture the marked stones.")),
        Goal.SAVE: (_("Black to play and save the marked stones."), _("White to play and save the marked stones.")),
    }
    return goals[problem.goal][0 if black else 1]


def marked(problem: Problem) -> str:
    return _("The marked stones: {points}.").format(points=" ".join(point_to_gtp(p) for p in sorted(problem.targets)))


def problem_point() -> str:
    return _("Type a point (e.g. C3).")


def illegal_in_problem(reason: IllegalReason, point: Point, game: Game) -> str:
    return illegal_move(IllegalMoveError(reason, ""), Move(game.to_move, point), game)


def solved() -> str:
    return _("Solved!")


def answered(reply: Move | None) -> str:
    return _("Good. The computer answers at {vertex}: go on.").format(vertex=point_to_gtp(reply.point if reply else None))


def refuted(reply: Move | None) -> str:
    if reply is None or reply.point is None:
        return _("Not this one: that move does not reach the goal.") + " " + try_again()
    return _("Not this one: the computer answers at {vertex} and wins.").format(vertex=point_to_gtp(reply.point)) + " " + try_again()
