"""tools/misread.py: the chains on which a judge's dead stones and miai's ownership
disagree (ownership given here: the tool's logic, not the search's reading)."""

from __future__ import annotations

import numpy as np
import pytest

import misread
from miai.coords import point_from_gtp
from miai.game import Game


def two_chains() -> Game:
    """9×9: a black chain of five on row 2 (A2–E2), a white chain of five on row 8 (A8–E8),
    and two lone stones."""
    game = Game(size=9)
    for b, w in zip(["A2", "B2", "C2", "D2", "E2", "J5"], ["A8", "B8", "C8", "D8", "E8", "J4"]):
        game.play(b)
        game.play(w)
    return game


def ownership(black_row: float, white_row: float) -> np.ndarray:
    """Black's ownership: ``black_row`` on row 2, ``white_row`` on row 8, 0 elsewhere."""
    own = np.zeros((9, 9))
    own[1, :] = black_row
    own[7, :] = white_row
    return own


def points(*names: str) -> set[tuple[int, int]]:
    return {p for p in (point_from_gtp(n, 9) for n in names) if p is not None}


def test_a_chain_the_judge_calls_dead_but_the_playouts_keep_is_a_misread():
    game = two_chains()
    found = misread.misreads(game.board, ownership(0.3, -0.9), points("C2"), min_stones=5, margin=0.0)
    assert [(m.chain.color.name, len(m.chain.stones), m.judge_dead) for m in found] == [("BLACK", 5, True)]
    assert found[0].ownership == pytest.approx(0.3)
    assert found[0].line() == "black   A2 (5 stones): judge dead, miai +0.30"


def test_a_chain_the_judge_leaves_alive_but_the_playouts_lose_is_a_misread():
    game = two_chains()
    # White's chain: Black owns its points in the playouts (+0.2 is -0.2 from White's side)
    found = misread.misreads(game.board, ownership(0.9, 0.2), set(), min_stones=5, margin=0.0)
    assert [(m.chain.color.name, m.judge_dead, round(m.ownership, 2)) for m in found] == [("WHITE", False, -0.2)]


def test_agreement_small_chains_and_the_margin_leave_nothing():
    game = two_chains()
    assert misread.misreads(game.board, ownership(0.9, -0.9), set(), min_stones=5, margin=0.0) == []
    assert misread.misreads(game.board, ownership(-0.8, -0.9), points("A2"), min_stones=5, margin=0.0) == []
    # the lone stones disagree (0 ownership, alive) but are below min_stones; within the margin, nothing
    assert misread.misreads(game.board, ownership(0.1, -0.9), points("A2"), min_stones=5, margin=0.2) == []
    assert len(misread.misreads(game.board, ownership(0.1, -0.9), points("A2"), min_stones=5, margin=0.05)) == 1


def test_a_dead_list_is_read_from_gtp_vertices_over_lines():
    assert misread.parse_dead("C3 D3\nE5\n", 9) == points("C3", "D3", "E5")
    assert misread.parse_dead("", 9) == set()


def test_an_unknown_knob_is_refused_before_anything_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        misread.main(["no-such.sgf", "--at", "10", "--judge", "no-such-engine", "--set", "bogus=1"])
    assert exit_.value.code == 2
    assert "no knob named 'bogus'" in capsys.readouterr().err


def test_a_move_number_past_the_end_of_the_game_is_refused(tmp_path, capsys):
    record = tmp_path / "short.sgf"
    record.write_text("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc])")
    with pytest.raises(SystemExit) as exit_:
        misread.main([str(record), "--at", "1", "3", "--judge", "no-such-engine"])
    assert exit_.value.code == 2
    assert "--at 3: the game has 2 moves" in capsys.readouterr().err
