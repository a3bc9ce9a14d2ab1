"""tools/predictor_vs_pachi.py: Pachi's ranks read from ``gogui-pattern_best`` and paired with
miai's, move by move, against a stand-in for Pachi that always names the same moves."""

from __future__ import annotations

import predictor_vs_pachi

from miai.coords import Color, Move, point_from_gtp
from miai.game import Game
from miai.gtp.controller import GtpController

FAKE_PACHI = r'''
import sys
for line in sys.stdin:
    cmd = line.split()
    if cmd[0] == "gogui-pattern_best":
        print("= VAR b Q16\nLABEL D4 2\nLABEL Q4 3\nLABEL D16 7\nTEXT Matching Locally: Yes\n", flush=True)
    else:
        print("= \n", flush=True)
'''


def game_of(*moves: tuple[Color, str]) -> Game:
    game = Game(19)
    for colour, vertex in moves:
        game.play(Move(colour, point_from_gtp(vertex, 19)))
    return game


B, W = Color.BLACK, Color.WHITE


def test_pachi_ranks_are_read_from_the_var_and_label_lines(tmp_path):
    engine = tmp_path / "fake_pachi.py"
    engine.write_text(FAKE_PACHI)
    game = game_of((B, "Q16"), (W, "D4"), (B, "D16"), (W, "K10"))
    with GtpController(["python3", str(engine)], timeout=60) as pachi:
        assert predictor_vs_pachi.pachi_ranks(pachi, game) == [1, 2, 7, None]


def test_a_move_out_of_turn_is_not_asked_about(tmp_path):
    engine = tmp_path / "fake_pachi.py"
    engine.write_text(FAKE_PACHI)
    game = game_of((B, "Q16"), (B, "D4"), (W, "Q4"))  # Black twice: Pachi expects White's second move
    with GtpController(["python3", str(engine)], timeout=60) as pachi:
        assert predictor_vs_pachi.pachi_ranks(pachi, game) == [1, predictor_vs_pachi.UNASKED, 3]


def test_compare_counts_only_the_positions_asked_and_pairs_the_two_predictors(tmp_path):
    engine = tmp_path / "fake_pachi.py"
    engine.write_text(FAKE_PACHI)
    games = [game_of((B, "Q16"), (W, "D4"), (B, "K10"), (W, "K11"), (B, "C3")),
             game_of((B, "Q16"), (B, "D4"), (W, "Q4"))]  # fmt: skip
    report = predictor_vs_pachi.compare(games, f"python3 {engine}")
    lines = report.splitlines()
    assert lines[0] == "2 games, 7 positions"  # eight moves, one out of turn
    # Pachi names Q16 first (played twice) and ranks D4 and Q4 second and third (played once each)
    assert "Pachi's patterns: first choice 28.6%, among its first 5 57.1%" in lines[2]
    assert lines[1].startswith("  miai's predictor: first choice ")
    assert lines[3].startswith("  first choice, miai's less Pachi's: ")


def test_a_record_with_set_up_stones_is_left_out_with_a_message(tmp_path, monkeypatch, capsys):
    engine = tmp_path / "fake_pachi.py"
    engine.write_text(FAKE_PACHI)
    (tmp_path / "moves.sgf").write_text("(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp];B[pp])")
    (tmp_path / "setup.sgf").write_text("(;GM[1]FF[4]SZ[19]KM[7.5]AB[dd]AW[pp];B[pd];W[dp])")
    monkeypatch.setattr("sys.argv", ["predictor_vs_pachi.py", str(tmp_path), "--engine", f"python3 {engine}"])
    predictor_vs_pachi.main()
    out, err = capsys.readouterr()
    assert "1 records with set-up stones left out" in err
    assert out.startswith("1 games, 3 positions\n")
