"""tools/playout_line.py: positions along a line of play, the playouts' first replies there,
and a watched chain's fate from its owner's side.

The record is a 9×9 game whose last move, White's C3, puts itself in atari among three
black stones (B3, D3 and C4; its last liberty, C2, open): the playouts' capture heuristic
answers it at C2 nine times in ten, and a uniform move almost never would."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import playout_line
import pytest

from miai.ai.config import MctsConfig


def test_the_positions_follow_the_record_then_the_line_alternating(atari_record: Path):
    positions = playout_line.positions_along(atari_record, 4, ["C4", "C3", "C2"])
    assert [p["id"] for p in positions] == ["4", "5", "6", "7"]
    assert positions[0]["moves"] == [["B", "B3"], ["W", "G7"], ["B", "D3"], ["W", "G3"]]
    assert positions[-1]["moves"][4:] == [["B", "C4"], ["W", "C3"], ["B", "C2"]]


def test_a_line_move_that_cannot_be_played_is_refused_with_its_number(atari_record: Path):
    with pytest.raises(SystemExit, match="move 7, black C4"):
        playout_line.positions_along(atari_record, 6, ["C4"])
    with pytest.raises(SystemExit, match="--at 9: the game has 6 moves"):
        playout_line.positions_along(atari_record, 9, [])


def test_the_playouts_mostly_capture_the_stone_that_put_itself_in_atari(atari_record: Path):
    position = playout_line.positions_along(atari_record, 6, [])[0]
    replies = playout_line.first_replies(position, 400, MctsConfig(), seed=3)
    assert sum(replies.values()) == 400
    assert replies["C2"] >= 0.85 * 400
    # with the capture heuristic off, C2 is one move among the random ones
    plain = playout_line.first_replies(position, 400, MctsConfig(p_capture=0.0), seed=3)
    assert plain["C2"] < 0.5 * 400
    assert playout_line.shares(replies, 400, 1).startswith("C2 ")


def test_a_chain_s_fate_is_read_from_its_owner_s_side_and_a_captured_one_is_gone(atari_record: Path):
    before, after = playout_line.positions_along(atari_record, 6, ["C2"])
    own = np.zeros((9, 9))
    own[6, 1] = 0.5  # B3 (row 3 is the seventh from the top): Black's by half
    own[2, 6] = -0.8  # G7: White's by 0.8
    assert playout_line.chain_fates(before, own, ["B3", "G7", "C3"]) == ["B3 (1) +0.50", "G7 (1) +0.80", "C3 (1) +0.00"]
    assert playout_line.chain_fates(after, own, ["C3"]) == ["C3 gone"]
