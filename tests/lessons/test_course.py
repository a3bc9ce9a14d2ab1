"""The course: every shipped lesson passes `miai learn check`, and the judges say why an answer
is wrong with the rules core's own reasons."""

from __future__ import annotations

from pathlib import Path

import pytest

from miai.cli.main import main
from miai.coords import point_to_gtp
from miai.errors import IllegalReason
from miai.lessons.check import check_files
from miai.lessons.judges import Outcome, Why, judge
from miai.lessons.model import Task, course, find
from miai.lessons.positions import start


def test_every_shipped_lesson_checks_against_the_rules():
    lessons, steps, findings = check_files()
    assert lessons >= 12 and steps >= 24
    assert findings == []


def test_the_check_command_reports_and_fails_on_a_wrong_stated_answer(tmp_path: Path, capsys):
    assert main(["learn", "check"]) == 0
    assert "12 lessons" in capsys.readouterr().out
    bad = (Path(course()[1].id + ".toml"))
    text = (Path(__file__).parents[2] / "src/miai/lessons/data" / bad).read_text()
    (tmp_path / "02-capture.toml").write_text(text.replace('right = ["C2"]', 'right = ["E5"]'))
    assert main(["learn", "check", "--dir", str(tmp_path)]) == 1
    assert "'E5' is judged wrong (still-there), not right" in capsys.readouterr().out


def test_a_refused_move_carries_the_games_reason_and_the_repeated_move():
    superko = find("05-superko", 1)
    assert superko is not None
    verdict = judge(superko, ["C4"])
    assert verdict.outcome is Outcome.RIGHT and verdict.reason is IllegalReason.SUPERKO and verdict.repeats_move == 0
    suicide = find("03-suicide", 1)
    assert suicide is not None
    occupied = judge(suicide, ["B3"])
    assert occupied.outcome is Outcome.WRONG and occupied.why is Why.ILLEGAL and occupied.reason is IllegalReason.OCCUPIED


def test_any_capturing_move_is_right_not_only_the_stated_one():
    atari = find("02-capture", 1)
    assert atari is not None
    assert {judge(atari, [v]).outcome for v in ("D3", "C2")} == {Outcome.RIGHT}
    assert judge(atari, ["B2"]).why is Why.NOT_ATARI


def test_a_handicap_is_placed_stone_by_stone_and_then_white_plays():
    step = find("11-handicap", 1)
    assert step is not None
    assert judge(step, ["G7"]).outcome is Outcome.MORE
    done = judge(step, ["G7", "C3", "G3", "C7"])
    assert done.outcome is Outcome.RIGHT and done.winner == "white"


MOVE_TASKS = (Task.PLAY, Task.CAPTURE, Task.ATARI, Task.FORBIDDEN, Task.END)


@pytest.mark.parametrize("step", [s for lesson in course() for s in lesson.steps if s.task in MOVE_TASKS], ids=lambda s: s.where)
def test_on_every_point_the_judge_agrees_with_the_games_legality(step):
    """Not only the stated answers: for every point of the board, a move the game refuses is
    judged by the game's reason, and a move it allows never comes back as refused."""
    game = start(step)
    for point in game.board:
        vertex = point_to_gtp(point)
        reason = game.legality(vertex)
        verdict = judge(step, [vertex])
        if reason is None:
            assert verdict.why is not Why.ILLEGAL, vertex
        else:
            assert verdict.reason is reason, vertex
            assert (verdict.outcome is Outcome.RIGHT) == (step.task is Task.FORBIDDEN and reason.value == step.reason), vertex


def test_no_lesson_text_is_left_in_english_in_another_language():
    for lesson in course():
        texts = [lesson.title, lesson.intro] + [t for s in lesson.steps for t in (s.text, s.done) if t]
        for text in texts:
            for lang in ("es", "it", "pt"):
                assert text[lang] != text["en"], (lesson.id, text["en"])


def test_the_check_finds_a_done_text_that_repeats_the_courses_own_right(tmp_path: Path, capsys):
    """The page and the terminal say "Right!" before a step's ``done`` text: a text opening
    with the same word, in any language, is reported (it would read "¡Correcto! Correcto: ...")."""
    text = (Path(__file__).parents[2] / "src/miai/lessons/data/11-handicap.toml").read_text()
    (tmp_path / "11-handicap.toml").write_text(text.replace('done.es = "Los cuatro', 'done.es = "Correcto: los cuatro'))
    assert main(["learn", "check", "--dir", str(tmp_path)]) == 1
    assert "done.es opens with 'Correcto', which the course already says before it" in capsys.readouterr().out
