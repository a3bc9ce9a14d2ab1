"""``miai score FILE.sgf``: the final position of a record counted, stones as they stand."""

from __future__ import annotations

from pathlib import Path

import pytest

from miai.cli.main import main
from miai.render import diagram
from miai.rules import Rules, Scoring
from miai.sgf import game_from_record, load_game, read_file

SAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "sgf-samples"


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"sample records not found at {SAMPLES} (the shared corpus next to the repository)")
    return path


def run_score(capsys, *argv):
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_of_a_9x9_record(capsys):
    path = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    code, out, err = run_score(capsys, str(path))
    assert code == 0 and err == ""
    game, record = load_game(path, strict=False)
    score = game.score()
    repairs = [f"Read with {len(record.repairs)} repair(s):"] + [f"  - {r}" for r in record.repairs]
    expected = "\n".join(
        [
            str(path),
            "9x9, 36 moves; Black: MoGoTiTan, White: teytaud",
            "Rules: chinese komi=6.5",
            *(repairs if record.repairs else []),
            diagram(game.board, last_move=game.last_move),
            "Stones count as they stand: miai does not estimate dead stones yet,",
            "so dead stones still on the board are counted as alive.",
            str(score),
            f"Count: {score.result}. White wins by {-score.margin:g} points.",
            "Recorded result: W+R. White wins by resignation.",
            "",
        ]
    )
    assert out == expected
    assert "4(O). O O X . . . . 4" in out  # the last move, W A4


def test_score_of_a_game_that_ended_with_two_passes(capsys):
    path = sample("gnugo-selfplay-tt-passes.sgf")
    code, out, err = run_score(capsys, str(path))
    assert code == 0
    game, _ = load_game(path, strict=False)
    assert "19x19, 178 moves; Black: Unknown, White: GNU Go 3.0.0 (level 10) gmp\n" in out
    assert "Rules: japanese komi=5.5\n" in out
    assert str(game.score()) in out
    assert "Recorded result" not in out  # the record has no RE


def test_rules_option_keeps_the_records_komi_unless_told(capsys):
    path = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    code, out, _ = run_score(capsys, str(path), "--rules", "japanese")
    assert code == 0
    assert "Rules: japanese, komi 6.5\n" in out and "territory scoring" in out
    record = read_file(path)
    expected = game_from_record(record, Rules.preset("japanese"), strict=False).score()
    assert expected.scoring is Scoring.TERRITORY and str(expected) in out
    code, out, _ = run_score(capsys, str(path), "--rules", "japanese komi=0.5")
    assert "Rules: japanese komi=0.5\n" in out


def test_handicap_record(capsys):
    path = sample("kgs-cgoban2-handicap5-empty-passes.sgf")
    code, out, _ = run_score(capsys, str(path))
    assert code == 0
    assert "Rules: japanese komi=0.5, handicap 5\n" in out


def test_unreadable_files_are_errors(capsys, tmp_path):
    code, out, err = run_score(capsys, str(tmp_path / "missing.sgf"))
    assert code == 1 and out == ""
    assert err == f"miai score: cannot read {tmp_path / 'missing.sgf'}: No such file or directory\n"
    bad = tmp_path / "bad.sgf"
    bad.write_text("no game here", encoding="utf-8")
    code, out, err = run_score(capsys, str(bad))
    assert code == 1 and err.startswith(f"miai score: {bad}: ")
    code, out, err = run_score(capsys, str(sample("gnugo-selfplay-tt-passes.sgf")), "--rules", "martian")
    assert code == 1 and "unknown ruleset 'martian'" in err


def test_repairs_are_listed_and_capped(capsys):
    code, out, _ = run_score(capsys, str(sample("sgfc-evil-test-many-errors.sgf")))
    assert code == 0
    record = read_file(sample("sgfc-evil-test-many-errors.sgf"))
    assert len(record.repairs) > 10
    assert f"Read with {len(record.repairs)} repair(s):\n  - {record.repairs[0]}\n" in out
    assert f"  - {record.repairs[9]}\n  ... and {len(record.repairs) - 10} more\n" in out
