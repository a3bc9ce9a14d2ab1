"""``miai learn``: the course in the terminal, judged as on the page; in tmux (a real terminal,
in Italian) and scripted (the whole course, wrong then right, in each language)."""

from __future__ import annotations

import re
import sys

import pytest

from miai import i18n
from miai.cli.learn import take_course
from miai.cli.terminal import Terminal
from miai.lessons.model import course
from tests.cli.test_play_tmux import TMUX, Screen


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_the_ko_lesson_in_italian_in_tmux():
    screen = Screen([sys.executable, "-m", "miai", "learn", "--lang", "it", "--lesson", "4"])
    try:
        screen.wait_for("Lezione 4 di 12: Il ko")
        screen.wait_for("> ")
        screen.type("E1")
        screen.wait_for("Le pietre sono ancora lì: hanno 1 libertà. Riprova.")
        screen.type("C3")
        screen.wait_for("Giusto!")
        screen.wait_for("Passo 2 di 3")
        screen.type("E1")
        screen.wait_for("E1 è una mossa regolare")
        screen.type("B3")
        shown = screen.wait_for("Vietato: riporterebbe la posizione")
        assert "(ko)" in shown  # the refusal in miai play's words, its rule named
    finally:
        screen.close()


def scripted_answers() -> list[str]:
    lines = []
    for lesson in course():
        for step in lesson.steps:
            lines += [step.wrong[0], step.right[0]]
    return lines


@pytest.mark.parametrize("lang", ["en", "es", "it", "pt"])
def test_the_whole_course_is_taken_in_the_terminal(lang):
    terminal = Terminal.scripted(scripted_answers(), width=120)
    with i18n.using(lang):
        assert take_course(terminal, lang) == 0
        right, again = i18n.gettext("Right!"), i18n.gettext("Try again.")
    said = terminal.transcript()
    steps = sum(len(lesson.steps) for lesson in course())
    assert said.count(right) == steps and said.count(again) == steps
    assert "miai play --size 9 --white ai --level 1" in said
    if lang != "en":
        assert "Try again" not in said and "Right!" not in said


def test_a_problem_in_the_terminal_refuted_then_solved_and_the_check():
    from miai.cli.learn import solve_problem
    from miai.coords import point_to_gtp
    from miai.problems import Verdict, load_problems

    problem = load_problems()[0]
    wrong = next(c for c in problem.start.replies if c.verdict is Verdict.WRONG)
    path, node = [], problem.start
    while True:
        child = node.right_replies[0]
        path.append(point_to_gtp(child.move.point))
        if not child.replies:
            break
        node = child.replies[0]
    terminal = Terminal.scripted(["Z9", point_to_gtp(wrong.move.point), *path])
    with i18n.using("es"):
        assert solve_problem(terminal, problem, 1, 1)
    said = terminal.transcript()
    assert "Esa no: la máquina responde en" in said and "¡Resuelto!" in said


def test_learn_check_checks_the_lessons_and_the_problems(capsys):
    from miai.cli.main import main

    assert main(["learn", "check"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"12 lessons, \d+ steps checked: 0 faults", out) and "problems checked: 0 faults" in out
