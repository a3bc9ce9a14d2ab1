"""The course: every shipped lesson passes `miai learn check`, and the judges say why an answer
is wrong with the rules core's own reasons."""

from __future__ import annotations

from pathlib import Path

from miai.cli.main import main
from miai.errors import IllegalReason
from miai.lessons.check import check_files
from miai.lessons.judges import Outcome, Why, judge
from miai.lessons.model import course, find


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
