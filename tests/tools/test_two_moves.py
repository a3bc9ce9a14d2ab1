"""tools/two_moves.py: the chains whose fate a choice between two moves decides, by a judge
(scripted here: the tool's reading, not an engine's strength) and by miai's playouts.

The record is a 9×9 game whose last move, White's C3, puts itself in atari among Black's B3,
D3 and C4: Black's C2 captures it, and a move far away (J9) lets White save it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import playout_line
import pytest
import two_moves

from tests.judges import scripted_judge
from tests.tools.atari import ATARI_MOVES


def ownership(**points: float) -> np.ndarray:
    """A 9×9 ownership (Black's side, rows from the top, as KataGo's) zero but at ``points``."""
    own = np.zeros((9, 9))
    for vertex, value in points.items():
        own[9 - int(vertex[1:]), "ABCDEFGHJ".index(vertex[0])] = value
    return own


def test_a_chain_s_fate_is_read_from_its_owner_s_side_rows_from_the_top(atari_record: Path):
    before = playout_line.positions_along(atari_record, 6, [])[0]
    first, second = ownership(C3=1.0, G7=-0.9), ownership(C3=-1.0, G7=-0.9)  # C3: captured, then alive
    decided = two_moves.decided_chains(before, first, second, 0.5)
    assert [two_moves.label(chain) for chain in decided] == ["W C3 (1)"]  # G7 the same after both: not listed
    assert two_moves.fate(decided[0], first) == -1.0
    assert two_moves.fate(decided[0], second) == 1.0


def test_the_largest_stakes_come_first_and_small_differences_are_left_out(atari_record: Path):
    before = playout_line.positions_along(atari_record, 6, [])[0]
    first = ownership(B3=1.0, D3=1.0, G3=-0.2, G7=0.6)
    second = ownership(B3=-1.0, D3=0.2, G3=-0.4, G7=-0.6)  # swings: B3 2.0, D3 0.8, G3 0.2, G7 1.2
    decided = two_moves.decided_chains(before, first, second, 0.5)
    assert [two_moves.label(chain) for chain in decided] == ["B B3 (1)", "W G7 (1)", "B D3 (1)"]


def test_the_map_marks_the_points_that_change_owner_by_the_threshold():
    rows = two_moves.difference_map(ownership(C3=0.9, J9=-0.3), ownership(C3=-0.9, J9=0.3, A1=0.4), 0.5)
    assert rows[0] == " 9 . . . . . . . . -"
    assert rows[6] == " 3 . . + . . . . . ."
    assert rows[8] == " 1 . . . . . . . . ."  # A1's difference, 0.4, is below the threshold
    assert rows[9] == "   A B C D E F G H J"


def test_the_report_sets_the_judge_beside_the_playouts(atari_record: Path, tmp_path: Path, capsys):
    after = " ".join(ATARI_MOVES)
    captured = ownership(C3=1.0, C2=1.0).ravel().tolist()
    saved = ownership(C3=-1.0, C2=-1.0).ravel().tolist()
    judge = scripted_judge(tmp_path, {f"{after} C2": 6.0, f"{after} J9": -3.0},
                           {f"{after} C2": captured, f"{after} J9": saved})
    two_moves.main([str(atari_record), "--at", "6", "C2", "J9", "--playouts", "50", "--judge", judge])
    out = capsys.readouterr().out
    assert "after 6 moves: C2 against J9" in out
    assert "judge: Black's lead +6.0 after C2, -3.0 after J9" in out
    assert "playouts: Black's mean score" in out
    listed = [line for line in out.splitlines() if line.startswith("  W C3 (1)")]
    assert len(listed) == 1 and "judge -1.00 / +1.00; playouts -1.00 / " in listed[0]  # captured by C2 in every playout
    judge_map = out.split("judge: + where C2")[1].split("playouts: + where C2")[0].splitlines()
    assert judge_map[7] == " 3 . . + . . . . . ." and judge_map[8] == " 2 . . + . . . . . ."


def test_a_move_that_cannot_be_played_is_refused_with_its_reason(atari_record: Path):
    with pytest.raises(SystemExit, match="move 7, black C3"):
        two_moves.main([str(atari_record), "--at", "6", "C3", "J9"])


def test_a_line_is_played_before_the_two_moves(atari_record: Path, capsys):
    two_moves.main([str(atari_record), "A9", "J1", "--at", "4", "--line", "C4", "C3", "--playouts", "20"])
    assert "after 6 moves: A9 against J1" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="move 6, white B3"):  # the line alternates from Black after 4 moves
        two_moves.main([str(atari_record), "A9", "J1", "--at", "4", "--line", "C4", "B3"])
