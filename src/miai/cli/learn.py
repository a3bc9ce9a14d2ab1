"""``miai learn``: the course that teaches the rules of Go by playing, in the terminal (the same
lessons and judges as the page's /learn), and ``miai learn check``, which validates every
lesson file against the rules core."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from miai.cli import learn_texts as say
from miai.cli.language import add_language_option, use_language
from miai.cli.terminal import Terminal
from miai.coords import point_from_gtp
from miai.errors import MiaiError
from miai.game import Game
from miai.lessons.check import check_files
from miai.lessons.judges import Outcome, judge
from miai.lessons.model import DATA, Lesson, Step, course
from miai.lessons.positions import start
from miai.problems import Attempt, Problem, check_problems, load_problems, problem_files
from miai.problems import Outcome as ProblemOutcome
from miai.render.text import diagram


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("learn", help="learn to play Go: the rules, lesson by lesson (or check the lessons)")
    p.add_argument("what", nargs="?", choices=["check", "problems"],
                   help="check: validate every lesson and problem file against the rules; problems: solve problems")
    p.add_argument("--dir", help="check: the directory of lesson files (default: the course miai ships)")
    p.add_argument("--lesson", type=int, default=1, help="start at this lesson (from 1)")
    add_language_option(p, "the language of the lessons")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.what == "check":
        return check(Path(args.dir) if args.dir else DATA)
    lang = use_language(args)
    if args.what == "problems":
        return solve_problems(Terminal())
    return take_course(Terminal(), lang, first=args.lesson)


def check(directory: Path) -> int:
    """Print what is wrong with the lesson files and the problem files; 0 if nothing."""
    lessons, steps, findings = check_files(directory)
    for finding in findings:
        print(finding)
    print(f"{lessons} lessons, {steps} steps checked: {len(findings)} faults")
    faults = check_problems()
    for fault in faults:
        print(fault)
    print(f"{len(problem_files())} problems checked: {len(faults)} faults")
    return 1 if findings or faults else 0


def show(terminal: Terminal, game: Game, marks: dict[tuple[int, int], str] | None = None) -> None:
    terminal.say(diagram(game.board, last_move=game.last_move, marks=marks))


def record_marks(step: Step) -> dict[tuple[int, int], str]:
    """The record's moves as a numbered figure (numbers 1-9 as one character each)."""
    marks = {}
    for number, word in enumerate(step.record, start=1):
        point = point_from_gtp(word, step.size)
        if point is not None:
            marks[point] = str(number % 10)
    return marks


def take_step(terminal: Terminal, step: Step, lang: str) -> bool:
    """Ask until the answer is right; False when the input ends."""
    game = start(step)
    if step.record:
        show(terminal, game, record_marks(step))
    else:
        show(terminal, game)
    terminal.say(step.text[lang])
    terminal.say(say.how_to_answer(step))
    words = say.answer_words()
    given: list[str] = []
    while True:
        try:
            line = terminal.ask("> ")
        except EOFError:
            return False
        answer = given + [say.words_for(words, w) for w in line.split()]
        verdict = judge(step, [w for w in answer if w] if step.task.value == "dead" else answer)
        color = game.to_act or game.to_move
        if verdict.outcome is Outcome.RIGHT:
            show(terminal, verdict.game)
            rule = say.explain(verdict, step, color) + " " if verdict.reason else ""
            terminal.say(say.right() + " " + rule + (step.done[lang] if step.done else ""))
            return True
        if verdict.outcome is Outcome.MORE:
            given = answer
            terminal.say(say.keep_going())
            continue
        terminal.say(say.explain(verdict, step, color) + " " + say.try_again())
        given = []


def take_lesson(terminal: Terminal, lesson: Lesson, number: int, total: int, lang: str) -> bool:
    terminal.say(say.lesson_heading(number, total, lesson.title[lang]), style="bold")
    terminal.say(lesson.intro[lang])
    for i, step in enumerate(lesson.steps, start=1):
        terminal.say(say.step_heading(i, len(lesson.steps)))
        if not take_step(terminal, step, lang):
            return False
    return True


def take_course(terminal: Terminal, lang: str, *, first: int = 1) -> int:
    lessons = course()
    for number, lesson in enumerate(lessons, start=1):
        if number >= first and not take_lesson(terminal, lesson, number, len(lessons), lang):
            return 0
    terminal.say(say.course_done())
    return 0


def solve_problem(terminal: Terminal, problem: Problem, number: int, total: int) -> bool:
    """Ask moves until the problem is solved (a wrong move starts it again); False when the input ends."""
    terminal.say(say.problem_heading(number, total, problem.source), style="bold")
    attempt = Attempt(problem)
    show(terminal, attempt.game)
    terminal.say(say.goal(problem) + " " + say.marked(problem))
    while True:
        try:
            line = terminal.ask("> ").strip()
        except EOFError:
            return False
        try:
            point = point_from_gtp(line, problem.size)
        except MiaiError:
            point = None
        if point is None:
            terminal.say(say.problem_point())
            continue
        verdict = attempt.play(point)
        if verdict.outcome is ProblemOutcome.ILLEGAL:
            assert verdict.reason is not None
            terminal.say(say.illegal_in_problem(verdict.reason, point, attempt.game))
            continue
        show(terminal, attempt.game)
        if verdict.outcome is ProblemOutcome.SOLVED:
            terminal.say(say.solved())
            return True
        if verdict.outcome is ProblemOutcome.RIGHT:
            terminal.say(say.answered(verdict.reply))
            continue
        terminal.say(say.refuted(verdict.reply))
        attempt = Attempt(problem)
        show(terminal, attempt.game)


def solve_problems(terminal: Terminal) -> int:
    problems = load_problems()
    for number, problem in enumerate(problems, start=1):
        if not solve_problem(terminal, problem, number, len(problems)):
            break
    return 0
