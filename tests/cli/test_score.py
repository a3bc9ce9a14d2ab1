"""``miai score FILE.sgf``: the final position of a record counted with the status estimate."""

from __future__ import annotations

from pathlib import Path

import pytest

from miai.ai.status import estimate_status
from miai.cli.main import main
from miai.coords import Color
from miai.render import diagram
from miai.rules import Rules, Scoring
from miai.sgf import game_from_record, load_game, read_file
from tests.samples import SAMPLES


def sample(name: str) -> Path:
    return SAMPLES / name


def run_score(capsys, *argv):
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_of_a_9x9_record(capsys):
    path = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    code, out, err = run_score(capsys, str(path))
    assert code == 0 and err == ""
    game, record = load_game(path, strict=False)
    est = estimate_status(game, seed=1)
    score = est.score
    marks = {p: "b" if o is Color.BLACK else "w" for p, o in est.territory.items() if o and game.board[p] is None}
    repairs = [f"Read with {len(record.repairs)} repair{'s' if len(record.repairs) != 1 else ''}:"] + [f"  - {r}" for r in record.repairs]
    expected = "\n".join(
        [
            str(path),
            "9x9, 36 moves; Black: MoGoTiTan, White: teytaud",
            "Rules: chinese komi=6.5",
            *(repairs if record.repairs else []),
            diagram(game.board, last_move=game.last_move, dead=est.dead, marks=marks),
            "Map: x o dead stones (miai's estimate), b w territory.",
            "Dead black: A6 B6 C6 (83%); D7 (83%)",
            str(score),
            f"Count: {str(score.result)}. White wins by {-score.margin:g} points.",
            "Recorded result: W+R. White wins by resignation.",
            "",
        ]
    )
    assert out == expected
    assert "4(O)w O O X . . . . 4" in out  # the last move, W A4; A5 B4 White's territory
    assert "6 x x x O O X . . . 6" in out  # the dead black stones


def test_score_of_a_game_that_ended_with_two_passes(capsys):
    path = sample("gnugo-selfplay-tt-passes.sgf")
    code, out, err = run_score(capsys, str(path))
    assert code == 0
    game, _ = load_game(path, strict=False)
    assert "19x19, 178 moves; Black: Unknown, White: GNU Go 3.0.0 (level 10) gmp\n" in out
    assert "Rules: japanese komi=5.5\n" in out
    assert str(estimate_status(game, seed=1).score) in out
    assert "Recorded result" not in out  # the record has no RE


def test_json_output(capsys):
    import json

    path = sample("gnugo-selfplay-tt-passes.sgf")
    code, out, _ = run_score(capsys, str(path), "--json")
    assert code == 0
    data = json.loads(out)
    game, _ = load_game(path, strict=False)
    est = estimate_status(game, seed=1)
    assert data["result"] == str(est.score.result) and data["size"] == 19
    assert len(data["dead"]) == len(est.dead) and data["score"]["white"]["komi"] == 5.5
    assert {c["status"] for c in data["chains"]} <= {"alive", "dead", "seki"}
    assert sum(len(c["stones"]) for c in data["chains"]) == len(game.board.stones(Color.BLACK)) + len(
        game.board.stones(Color.WHITE)
    )
    assert data["score"]["black"]["territory"] == est.score.black.territory


def test_tromp_taylor_counts_stones_as_they_stand(capsys):
    path = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    code, out, _ = run_score(capsys, str(path), "--rules", "tromp-taylor")
    assert code == 0 and "no stone is removed as dead" in out
    record = read_file(path)
    assert str(game_from_record(record, Rules.preset("tromp-taylor").replace(komi=6.5), strict=False).score()) in out


def test_rules_option_keeps_the_records_komi_unless_told(capsys):
    path = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    code, out, _ = run_score(capsys, str(path), "--rules", "japanese")
    assert code == 0
    assert "Rules: japanese, komi 6.5\n" in out and "territory scoring" in out
    record = read_file(path)
    expected = estimate_status(game_from_record(record, Rules.preset("japanese"), strict=False), seed=1).score
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
    assert f"Read with {len(record.repairs)} repair{'s' if len(record.repairs) != 1 else ''}:\n  - {record.repairs[0]}\n" in out
    assert f"  - {record.repairs[9]}\n  ... and {len(record.repairs) - 10} more\n" in out


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", ["línea 1, columna 51: ']' suelto omitido", "1 pase escrito como [tt]", "komi 7,5 (el de las reglas"]),
        ("it", ["riga 1, colonna 51: ']' isolato saltato", "1 passaggio scritto come [tt]", "komi 7,5 (quello predefinito"]),
        ("pt", ["linha 1, coluna 51: ']' solto ignorado", "1 passe escrito como [tt]", "komi 7,5 (o predefinido"]),
    ],
)
def test_repairs_are_said_in_the_terminals_language(capsys, tmp_path, lang, said):
    path = tmp_path / "broken.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[]PlayerBlack[Ana]PW[Bea];B[ee]];W[tt];B[cc]W[dd];B[zz])")
    code, out, _ = run_score(capsys, str(path), "--lang", lang)
    assert code == 0
    listed = [line for line in out.splitlines() if line.startswith("  - ")]
    assert len(listed) == 6 and all(any(s in line for line in listed) for s in said), listed
    assert not any("skipped" in line or "dropped" in line or "read as" in line for line in listed), listed


def test_score_of_an_endless_file_is_a_clear_error(capsys):
    code, out, err = run_score(capsys, "/dev/zero")  # read until MemoryError before
    assert code == 1 and out == ""
    assert err.startswith("miai score: /dev/zero: ") and "the record is larger than 16777216 bytes (16 MiB)" in err
