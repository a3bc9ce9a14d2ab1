"""The problem files' check (miai.problems.check_problems, for ``miai learn check``) and the
loader's refusals: every shipped file is sound, and each kind of fault is reported."""

from __future__ import annotations

import pytest

from miai.problems import Goal, Kind, Level, ProblemError, check_problems, load_problem, load_problems

GOOD = """(;FF[4]GM[1]CA[UTF-8]SZ[9]SO[test]GO[kill]LV[beginner]TH[vital-point]PL[B]VW[af:fi]
AB[ag][bg][cg][dg][eg][eh][ei]AW[ah][bh][ch][dh][di]MA[ah]
(;B[bi]TE[1])(;B[ci]BM[1];W[bi]))"""


def test_the_shipped_problems_are_sound():
    assert check_problems() == []


def test_there_are_sixty_problems_or_more_of_both_kinds_and_every_level():
    problems = load_problems()
    assert len(problems) >= 60
    assert {p.kind for p in problems} == set(Kind)
    assert {p.level for p in problems} == set(Level)
    assert {p.goal for p in problems} == set(Goal)
    assert all(p.source for p in problems)


def test_a_file_states_its_problem():
    problem = load_problem(GOOD, "x")
    assert (problem.size, problem.goal, problem.level, problem.source) == (9, Goal.KILL, Level.BEGINNER, "test")
    assert problem.view == ((0, 0), (3, 5))
    assert problem.targets == {(1, 0)}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("GO[kill]", "GO[win]"), r"GO\[win\] is none of"),
        (("PL[B]", ""), "no PL"),
        (("SO[test]", ""), "no SO"),
        (("(;B[ci]BM[1];W[bi])", "(;W[ci]BM[1])"), "where B was to play"),
        (("(;B[bi]TE[1])", "(;B[bi]TE[1]BM[1])"), "both right"),
    ],
)
def test_the_loader_refuses_a_file_that_misses_or_garbles_a_property(change, says):
    with pytest.raises(ProblemError, match=says):  # a regular expression
        load_problem(GOOD.replace(*change), "x")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("(;B[bi]TE[1])", "(;B[bi])"), "marked neither right"),
        (("MA[ah]", "MA[ag]"), "not one of the opponent's stones"),
        (("MA[ah]", ""), "no stone is marked"),
        (("(;B[ci]BM[1];W[bi])", "(;B[ah]BM[1];W[bi])"), "illegal (occupied)"),
        (("(;B[bi]TE[1])", "(;B[bi]TE[1];W[ci])"), "no right answer"),
        (("(;B[bi]TE[1])", "(;B[bi]BM[1])"), "no first move is marked right"),
    ],
)
def test_the_check_reports_each_fault(tmp_path, change, says):
    (tmp_path / "broken.sgf").write_text(GOOD.replace(*change), encoding="utf-8")
    (tmp_path / "fine.sgf").write_text(GOOD, encoding="utf-8")
    errors = check_problems(tmp_path)
    assert errors and all(e.startswith("broken.sgf: ") for e in errors)
    assert any(says in e for e in errors), errors


def test_the_problems_come_easiest_first():
    levels = [p.level for p in load_problems()]
    assert levels == sorted(levels, key=list(Level).index)
