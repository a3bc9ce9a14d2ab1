"""tools/move_quality.py: positions sampled from records, and each engine's loss in them
read from a judge's leads (engine and judge scripted here: the arithmetic, not strength)."""

from __future__ import annotations

import json

import move_quality
from miai.game import Game
from miai.sgf import game_to_sgf
from tests.judges import scripted_judge


def record(tmp_path, points):
    game = Game(9, komi=7.5)
    for point in points:
        game.play(point)
    path = tmp_path / "g.sgf"
    path.write_text(game_to_sgf(game))
    return path


def test_positions_are_every_nth_with_the_side_to_move(tmp_path):
    path = record(tmp_path, ["E5", "C3", "G7", "A1", "B2", "H8"])
    found = move_quality.sample_positions([path], every=2, first=1, last=5)
    assert [(p["id"], len(p["moves"]), p["to_move"]) for p in found] == [("g@1", 1, "W"), ("g@3", 3, "W"), ("g@5", 5, "W")]
    assert found[0]["moves"] == [["B", "E5"]]


def test_records_of_the_same_name_in_two_folders_give_positions_of_their_own(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = record(tmp_path / "a", ["E5", "C3"])
    second = record(tmp_path / "b", ["C3", "E5"])
    found = move_quality.sample_positions([first, second], every=1, first=1, last=1)
    assert [(p["id"], p["moves"]) for p in found] == [("a/g@1", [["B", "E5"]]), ("b/g@1", [["B", "C3"]])]


def test_the_judge_gives_each_reply_its_loss_and_pairs_are_compared(tmp_path, capsys):
    positions = move_quality.sample_positions([record(tmp_path, ["E5", "C3", "G7"])], every=1, first=1, last=2)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(positions))
    # After E5, White to move: lead +1; White's C3 leaves +1 (loses 0), A1 leaves +4 (loses 3).
    # After E5 C3, Black to move: lead +1; G7 leaves +1 (loses 0), A9 leaves -1 (loses 2).
    leads = {"E5": 1.0, "E5 C3": 1.0, "E5 A1": 4.0, "E5 C3 G7": 1.0, "E5 C3 A9": -1.0}
    good = {"name": "good", "engine": "x", "answers": {"g@1": {"move": "C3", "seconds": 1}, "g@2": {"move": "G7", "seconds": 1},
                                                       "other@7": {"move": "B2", "seconds": 9}}}  # not in this set: not read
    bad = {"name": "bad", "engine": "y", "answers": {"g@1": {"move": "A1", "seconds": 2}, "g@2": {"move": "A9", "seconds": 2}}}
    files = []
    for f in (good, bad):
        files.append(tmp_path / f"{f['name']}.json")
        files[-1].write_text(json.dumps(f))
    move_quality.main(["judge", str(pos), *map(str, files), "--judge", scripted_judge(tmp_path, leads), "--stretch", "5"])
    out = capsys.readouterr().out
    assert "good: 1.0 s a move; 2 of the 2 positions answered, 0 of them resigned or passed" in out
    assert "    0.00 (   2)       2.50 (   2)" in out
    assert "good less bad: -2.50 points a move (-3.48 to -1.52), 2 positions" in out


def test_a_resigned_position_is_left_out():
    pos = [{"id": "p", "to_move": "B"}]
    assert move_quality.losses(pos, {"p": {"move": "RESIGN"}}, {("p", ""): 0.0}) == {}


def test_files_that_answer_different_positions_are_not_paired(tmp_path, capsys):
    # The moves played in a game, one file for each side, answer alternate positions only.
    positions = move_quality.sample_positions([record(tmp_path, ["E5", "C3", "G7"])], every=1, first=1, last=2)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(positions))
    leads = {"E5": 1.0, "E5 C3": 1.0, "E5 C3 G7": 1.0}
    files = []
    for name, pid, move in (("white", "g@1", "C3"), ("black", "g@2", "G7")):
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(json.dumps({"name": name, "engine": "game", "answers": {pid: {"move": move, "seconds": 0}}}))
    move_quality.main(["judge", str(pos), *map(str, files), "--judge", scripted_judge(tmp_path, leads)])
    out = capsys.readouterr().out
    assert "white: 0.0 s a move; 1 of the 2 positions answered, 0 of them resigned or passed" in out
    assert "white less black: no position answered by both" in out


def test_positions_where_a_player_led_and_their_komi_shifted_against_it(tmp_path):
    path = record(tmp_path, ["E5", "C3", "G7", "A1", "B2", "H8"])
    line = {"index": 0, "black": "miai", "white": "pachi", "result": "B+R", "reason": "resignation", "detail": "",
            "sgf": "g.sgf", "winrates": {"miai": [[1, 0.5], [3, 0.7], [5, 0.9]], "pachi": [[2, 0.9], [4, 0.9]]}}
    (tmp_path / "results.jsonl").write_text(json.dumps(line) + "\n")
    every = move_quality.sample_positions([path], every=1, first=1, last=5)
    led = move_quality.leading_positions(every, [path], "miai", 0.65)
    # Black (miai) is to move after moves 2 and 4; it gave itself 0.5 at move 1 and 0.7 at move 3
    assert [p["id"] for p in led] == ["g@4"]
    assert [p["id"] for p in move_quality.leading_positions(every, [path], "miai", 0.4)] == ["g@2", "g@4"]
    assert move_quality.leading_positions(every, [path], "nobody", 0.0) == []
    worse = move_quality.shifted(every[:2], 10.0)
    assert [(p["to_move"], p["komi"]) for p in worse] == [("W", -2.5), ("B", 17.5)]
