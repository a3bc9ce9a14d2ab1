"""The sentences of ``miai learn`` (the course in the terminal): a verdict of
:mod:`miai.lessons.judges` said in the person's language; a refused move in the words
``miai play`` uses (:func:`miai.cli.texts.illegal_move`)."""

from __future__ import annotations

from miai.cli.texts import color_name, illegal_move
from miai.coords import Color, Move, point_from_gtp
from miai.errors import IllegalMoveError
from miai.i18n import gettext as _
from miai.i18n import ngettext
from miai.lessons.judges import Verdict, Why
from miai.lessons.model import Step, Task


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
    return _("You have finished the course. Now play your first 9×9 game against the computer: miai play --size 9 --level 1")


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
