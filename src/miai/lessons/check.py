"""``miai learn check``: every lesson file read and every step judged against its own stated
answers, so that a teacher's new lesson is known to be right before anyone takes it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from miai.i18n import translator
from miai.lessons.judges import Outcome, judge
from miai.lessons.model import DATA, Lesson, LessonError, Step, read_lesson
from miai.lessons.positions import start


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a lesson file."""

    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


def check_step(step: Step) -> list[Finding]:
    """The step's position stands under its rules; each stated right answer is judged right
    (so the task is solvable) and each stated wrong answer wrong."""
    try:
        start(step)
    except LessonError as e:
        return [Finding(step.where, str(e))]
    found = []
    if not step.right:
        found.append(Finding(step.where, "no right answer is given (right = [...]): is the task solvable?"))
    if not step.wrong:
        found.append(Finding(step.where, "no wrong answer is given (wrong = [...])"))
    found += repeated_confirmations(step)
    for expected, answers in ((Outcome.RIGHT, step.right), (Outcome.WRONG, step.wrong)):
        for answer in answers:
            verdict = judge(step, answer.split())
            if verdict.outcome is not expected:
                why = f" ({verdict.why.value})" if verdict.why else ""
                found.append(Finding(step.where, f"{answer!r} is judged {verdict.outcome.value}{why}, not {expected.value}"))
    return found


def repeated_confirmations(step: Step) -> list[Finding]:
    """A ``done`` text that opens with the word the course already says before it ("Right!",
    in the page and the terminal alike) would read "Right! Right: ..."."""
    found = []
    for lang, text in (step.done or {}).items():
        word = translator(lang).gettext("Right!").strip("¡!")
        if re.match(rf"{re.escape(word)}\b", text, re.IGNORECASE):
            found.append(Finding(step.where, f"done.{lang} opens with {word!r}, which the course already says before it"))
    return found


def check_lesson(lesson: Lesson) -> list[Finding]:
    return [f for step in lesson.steps for f in check_step(step)]


def check_files(directory: Path = DATA) -> tuple[int, int, list[Finding]]:
    """``(lessons, steps, findings)`` for every lesson file of ``directory``."""
    findings: list[Finding] = []
    lessons = steps = 0
    for path in sorted(directory.glob("*.toml")):
        try:
            lesson = read_lesson(path)
        except LessonError as e:
            findings.append(Finding(path.name, str(e)))
            continue
        lessons += 1
        steps += len(lesson.steps)
        findings += check_lesson(lesson)
    return lessons, steps, findings
