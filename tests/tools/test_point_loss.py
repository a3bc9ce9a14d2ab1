"""tools/point_loss.py: each move's loss from its player's side, read from a judge's leads
(the judge scripted here: the tool's arithmetic and reading, not an engine's strength)."""

from __future__ import annotations

import point_loss
import pytest
from tests.judges import scripted_judge
from tests.runs import write_record, write_run

MOVES = ["E5", "C3", "G7", "A1"]


def run_with_one_game(tmp_path):
    run = write_run(tmp_path / "run", ("miai", "pachi"), ["W+R"])
    write_record(run, 1, MOVES)
    return run


def test_each_move_loses_what_its_player_lead_fell_by(tmp_path, capsys):
    # Black's lead: 0 at the start, +1 after E5 (Black gained), -2 after C3 (White gained 3),
    # +4 after G7 (Black gained 6), +9 after A1 (White lost 5).
    leads = {"": 0.0, "E5": 1.0, "E5 C3": -2.0, "E5 C3 G7": 4.0, "E5 C3 G7 A1": 9.0}
    run = run_with_one_game(tmp_path)
    point_loss.main([str(run), "--judge", scripted_judge(tmp_path, leads), "--stretch", "2", "--top", "1"])
    out = capsys.readouterr().out
    assert "miai lost -7.0 points, pachi lost 2.0 points" in out  # -1 - 6 for Black; -3 + 5 for White
    assert "run#1 move   4    pachi   A1 (judge:   D4)  lead   -4.0, lost   5.0" in out


def test_losses_sign_each_move_by_its_colour():
    leads = {0: (0.0, "D4"), 1: (-1.5, "C3"), 2: (2.5, "E5")}
    found = point_loss.losses("r", 1, {point_loss.Color.BLACK: "b", point_loss.Color.WHITE: "w"},
                              [("B", "E5"), ("W", "C3")], leads)
    assert [(x.player, x.loss, x.lead_before) for x in found] == [("b", 1.5, 0.0), ("w", 4.0, 1.5)]


def test_only_the_games_and_moves_asked_for_are_judged(tmp_path, capsys):
    leads = {"": 0.0, "E5": 1.0, "E5 C3": -2.0, "E5 C3 G7": 4.0, "E5 C3 G7 A1": 9.0}
    run = run_with_one_game(tmp_path)
    judge = scripted_judge(tmp_path, leads)
    point_loss.main([str(run), "--judge", judge, "--games", "run#1", "--moves", "2-3", "--top", "5"])
    out = capsys.readouterr().out
    assert "miai lost -6.0 points, pachi lost -3.0 points" in out  # G7 for Black, C3 for White
    listed = [line for line in out.splitlines() if line.startswith("  run#1 move")]
    assert sorted(line.split()[2] for line in listed) == ["2", "3"]  # moves 1 and 4 not judged


def test_an_unknown_game_or_a_bad_range_of_moves_is_refused(tmp_path, capsys):
    run = run_with_one_game(tmp_path)
    judge = scripted_judge(tmp_path, {})
    with pytest.raises(SystemExit, match="no game run#2 in these runs"):
        point_loss.main([str(run), "--judge", judge, "--games", "run#2"])
    with pytest.raises(SystemExit, match="no game has a move 5"):  # the game has four
        point_loss.main([str(run), "--judge", judge, "--moves", "5-9"])
    for bad in ("3-2", "0-4", "ten"):
        with pytest.raises(SystemExit):
            point_loss.main([str(run), "--judge", judge, "--moves", bad])
        assert "a range of moves" in capsys.readouterr().err
