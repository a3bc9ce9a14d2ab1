"""tools/playout_bias.py: the playouts' ownership set beside a judge's, the right way up.

The position is a 5×5 board where both sides have a group with two eyes (Black on the top
two lines, White on the bottom two) and the middle line is open: every playout ends with the
top ten points Black's and the bottom ten White's, whatever it does with the middle."""

from __future__ import annotations

import json

import numpy as np
import playout_bias

from miai.ai.config import MctsConfig

BLACK_STONES = ["A4", "B4", "C4", "D4", "E4", "B5", "D5", "E5"]
WHITE_STONES = ["A2", "B2", "C2", "D2", "E2", "B1", "D1", "E1"]
POSITION = {
    "id": "two-lives", "size": 5, "komi": 0.5, "to_move": "B",
    "moves": [m for pair in zip(BLACK_STONES, WHITE_STONES) for m in (["B", pair[0]], ["W", pair[1]])],
}


def test_the_playouts_ownership_reads_rows_from_the_top_as_the_judges_does():
    score, own = playout_bias.playouts(POSITION, 50, MctsConfig(), seed=1)
    assert own.shape == (5, 5)
    assert own[:2].tolist() == [[1.0] * 5] * 2  # the top two lines: Black's living group
    assert own[3:].tolist() == [[-1.0] * 5] * 2
    assert -5.5 <= score <= 4.5  # ten points each, the middle line shared somehow, less komi 0.5


def test_measure_counts_settled_points_the_playouts_give_the_other_side(tmp_path, capsys):
    truth = np.zeros((5, 5))
    truth[:2], truth[3:] = 1.0, -1.0
    for judged, misread in ((truth, "0.00"), (truth[::-1], "20.00")):  # the judge right, then upside down
        path = tmp_path / "judged.jsonl"
        path.write_text(json.dumps({"id": "two-lives", "lead": 0.0, "ownership": judged.ravel().tolist()}) + "\n")
        playout_bias.measure([POSITION], playout_bias.read_judged(path), 50, MctsConfig())
        out = capsys.readouterr().out
        assert f"settled points the playouts give the other side: {misread} a position" in out


def test_show_draws_where_the_playouts_and_the_judge_disagree():
    truth = np.zeros((5, 5))
    truth[:2], truth[3:] = -1.0, 1.0  # the judge upside down: every settled point disagrees
    text = playout_bias.show(POSITION, {"lead": 3.0, "ownership": truth.ravel().tolist()}, 50, MctsConfig())
    rows = {line.split()[0]: line.split()[1:6] for line in text.splitlines() if line.split()[0].isdigit()}
    assert rows["5"] == ["^", "x", "^", "x", "x"]  # Black's eyes given to Black more, its stones lower-case
    assert rows["1"] == ["v", "o", "v", "o", "o"]
    assert text.endswith("the judge's lead +3.0 (Black's side)")


FAKE_PACHI = r'''
import sys
cols = "ABCDE"
played = []
for line in sys.stdin:
    cmd = line.split()
    if cmd[0] == "play":
        played.append(cmd[2])
        print("= \n", flush=True)
    elif cmd[0] == "gogui-score_est":
        # Black owns the top two lines, White the bottom two; the score says how many moves it saw
        influence = " ".join(f"{c}{r} {0.5 if r >= 4 else -0.5 if r <= 2 else 0.0}" for r in range(1, 6) for c in cols)
        print(f"= INFLUENCE {influence}\nTEXT B+1.0   Playouts: W+{len(played)}.5\n", flush=True)
    else:
        print("= \n", flush=True)
'''


def test_pachi_step_reads_the_score_and_the_sides_of_gogui_score_est(tmp_path, capsys):
    engine = tmp_path / "fake_pachi.py"
    engine.write_text(FAKE_PACHI)
    truth = np.zeros((5, 5))
    truth[:2], truth[3:] = -1.0, 1.0  # the judge upside down: all twenty settled points disagree
    path = tmp_path / "judged.jsonl"
    path.write_text(json.dumps({"id": "two-lives", "lead": 2.0, "ownership": truth.ravel().tolist()}) + "\n")
    playout_bias.compare_pachi([POSITION], playout_bias.read_judged(path), f"python3 {engine}")
    out = capsys.readouterr().out
    # sixteen moves played: Pachi says W+16.5, Black's -16.5, 18.5 short of the judge's +2
    assert "mean -18.50 points, mean size 18.50" in out
    assert "settled points the playouts give the other side: 20.00 a position" in out
