"""tools/lead_track.py: a player's lead along its games, read from a judge (scripted here: the
tool's reading and arithmetic, not an engine's strength)."""

from __future__ import annotations

import lead_track
import pytest
from miai.match.results import load_results
from tests.judges import scripted_judge
from tests.runs import write_record, write_run

MOVES = ["E5", "C3", "G7", "A1"]
LEADS = {"": 0.0, "E5": 1.0, "E5 C3": 8.0, "E5 C3 G7": 12.0, "E5 C3 G7 A1": -3.0}
"""Black's lead after each move of the game: miai (Black) leads by 12, then falls behind."""


def run_with_one_game(tmp_path, winrates, outcome="W+R"):
    """A run of one game that miai (Black) lost (or ended with ``outcome``), with miai's own
    win rates at its moves."""
    run = write_run(tmp_path / "run", ("miai", "pachi"), [outcome])
    (result,) = load_results(run / "results.jsonl")
    result.winrates = {"miai": winrates}
    (run / "results.jsonl").write_text(result.json_line())
    write_record(run, 1, MOVES)
    return run


def test_a_game_lost_from_ahead_is_counted_and_its_peak_found(tmp_path, capsys):
    run = run_with_one_game(tmp_path, [[1, 0.5], [3, 0.65]])
    judge = scripted_judge(tmp_path, LEADS)
    lead_track.main([str(run), "--player", "miai", "--judge", judge, "--every", "1", "--at", "2", "9"])
    out = capsys.readouterr().out
    assert "run#1 B lost   4 moves  2:   +8.0  9:    -    peak  +12.0 at   3, low   -3.0, last ahead at 3" in out
    assert "miai lost 1 of 1; 1 of them after leading by 5 points or more: run#1" in out
    assert "miai won 0; 0 of them after trailing by 5 points or more: -" in out
    # After moves 1 and 2 miai's next move is move 3 (win rate 0.65): leads 1 and 8, mean 4.5.
    assert "0.60-0.70         2      +4.5    +4.5" in out


def test_a_drawn_game_is_neither_won_nor_lost(tmp_path, capsys):
    run = run_with_one_game(tmp_path, [[1, 0.5]], outcome="0")
    judge = scripted_judge(tmp_path, LEADS)
    lead_track.main([str(run), "--player", "miai", "--judge", judge, "--every", "1", "--at", "2"])
    out = capsys.readouterr().out
    assert "run#1 B draw   4 moves" in out
    assert "miai lost 0 of 1; 0 of them after leading by 5 points or more: -" in out
    assert "miai won 0; 0 of them" in out
    assert "no winner in 1: run#1" in out


def test_leads_are_turned_to_the_players_side(tmp_path):
    run = run_with_one_game(tmp_path, [[2, 0.7]])
    (result,) = load_results(run / "results.jsonl")
    track = lead_track.track("g", result, "pachi", 3, {1: (-2.0, "D4"), 2: (6.0, "D4"), 3: (1.0, "D4")})
    assert track.colour is lead_track.Color.WHITE and track.won
    assert track.leads == {1: 2.0, 2: -6.0, 3: -1.0}
    assert track.peak() == (1, 2.0) and track.low() == -6.0 and track.last_ahead() == 1
    assert track.winrates == {}  # the win rates given are miai's


def test_the_players_own_win_rate_is_its_next_move():
    track = lead_track.Track("g", lead_track.Color.WHITE, True, 3, {1: 2.0}, {2: 0.7, 4: 0.6})
    assert track.own_winrate(0) == 0.7 and track.own_winrate(1) == 0.7 and track.own_winrate(2) == 0.6
    assert track.own_winrate(4) is None


def test_the_turns_read_are_every_nth_the_chosen_ones_and_the_last():
    assert lead_track.turns_to_read(25, 10, [5, 100]) == [5, 10, 20, 25]
    assert lead_track.turns_to_read(20, 10, []) == [10, 20]


def test_a_player_who_did_not_play_or_a_bad_step_is_refused(tmp_path):
    run = run_with_one_game(tmp_path, [])
    judge = scripted_judge(tmp_path, LEADS)
    with pytest.raises(SystemExit, match="'gnugo' did not play game 1 \\(miai against pachi\\)"):
        lead_track.main([str(run), "--player", "gnugo", "--judge", judge])
    with pytest.raises(SystemExit, match="--every must be 1 or more, not 0"):
        lead_track.main([str(run), "--player", "miai", "--judge", judge, "--every", "0"])
