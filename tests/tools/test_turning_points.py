"""tools/turning_points.py: where a lost game turned, read from the figures the referee kept
(games written here: the tool's reading, not an engine's)."""

from __future__ import annotations

import json

import turning_points
from miai.match.results import GameResult, Reason
from miai.result import Result


def game(result: str, black: str = "miai", index: int = 0, **winrates: list[list[float]]) -> GameResult:
    """A refereed game between miai and pachi with the figures given by label."""
    white = "pachi" if black == "miai" else "miai"
    reason = Reason.RESIGNATION if result.endswith("+R") else Reason.SCORE
    return GameResult(index, black, white, Result.parse(result), reason, "", winrates=dict(winrates))


def test_the_opponent_is_sure_from_the_first_figure_of_its_last_run_above_the_line():
    figures = [[2, 0.70], [4, 0.60], [6, 0.66], [8, 0.90], [10, 0.99]]
    assert turning_points.sure_from(figures, 0.65) == 6
    assert turning_points.sure_from(figures + [[12, 0.64]], 0.65) is None
    assert turning_points.sure_from([], 0.65) is None


def test_the_largest_rise_names_the_players_move_between_the_two_figures():
    rise = turning_points.largest_rise([[2, 0.5], [4, 0.55], [6, 0.9], [8, 0.95]], {1: 0.5, 5: 0.61})
    assert rise == turning_points.Rise(move=5, before=0.55, after=0.9, player=0.61)
    assert turning_points.largest_rise([[2, 0.5]], {}) is None


def test_a_loss_the_player_saw_coming_is_neither_unseen_nor_a_collapse():
    g = game("W+12.5", miai=[[1, 0.5], [3, 0.42], [5, 0.2]], pachi=[[2, 0.5], [4, 0.8], [6, 0.9]])
    t = turning_points.turn(g, "miai", 0.65)
    assert (t.sure_from, t.player_then, t.player_best_after) == (4, 0.42, 0.2)
    assert not t.unseen and not t.collapsed(0.65)
    assert "sure from move   4, the player's figure then 0.42;" in turning_points.line(t, 0.65)


def test_a_player_who_thought_it_was_winning_after_the_turn_collapsed():
    g = game("B+30.5", black="pachi", pachi=[[1, 0.5], [3, 0.7], [5, 0.9]], miai=[[2, 0.55], [4, 0.8]])
    t = turning_points.turn(g, "miai", 0.65)
    assert (t.sure_from, t.player_then) == (3, 0.55)
    assert t.unseen and t.collapsed(0.65)
    assert turning_points.line(t, 0.65).count("unseen  collapse") == 1


def test_only_the_players_losses_are_read():
    assert turning_points.lost(game("W+R"), "miai")
    assert not turning_points.lost(game("B+R"), "miai")
    assert turning_points.lost(game("B+R", black="pachi"), "miai")
    assert not turning_points.lost(game("W+R"), "gnugo")
    assert not turning_points.lost(game("Void"), "miai")


def test_the_summary_counts_the_stretches_the_misreadings_and_the_collapses():
    turns = [
        turning_points.Turn(1, "W+R", 24, 0.40, None, 0.3),
        turning_points.Turn(2, "W+R", 27, 0.55, None, 0.9),
        turning_points.Turn(3, "W+R", 41, 0.30, None, 0.1),
        turning_points.Turn(4, "W+R", None, 0.50, None, None),
    ]
    assert turning_points.summary(turns, 0.65) == [
        "4 games lost; the opponent sure for good in 3",
        "from move 27 (median); by stretch of moves: 20-29: 2, 40-49: 1",
        "the player's figure then: below 0.5 in 2, 0.5 or more (unseen) in 1",
        "collapses (the player above 0.65 after that): 1",
    ]


def test_main_reads_every_run_given(tmp_path, capsys):
    for name, black in (("a", "miai"), ("b", "pachi")):
        run = tmp_path / name
        run.mkdir()
        line = {"index": 0, "black": black, "white": "pachi" if black == "miai" else "miai",
                "result": "W+R" if black == "miai" else "B+R", "reason": "resignation", "detail": "",
                "winrates": {"miai": [[1, 0.5]], "pachi": [[2, 0.8]]}}
        (run / "results.jsonl").write_text(json.dumps(line) + "\n")
    turning_points.main([str(tmp_path / "a"), str(tmp_path / "b"), "--player", "miai"])
    out = capsys.readouterr().out
    assert out.count("sure from move") == 2
    assert "2 games lost; the opponent sure for good in 2" in out
