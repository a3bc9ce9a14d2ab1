"""``miai diagram FILE.sgf``: a file written, text printed, and every user error exit 2 with a message."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from miai.cli.main import main
from miai.render import move_diagram
from miai.sgf import load_game
from tests.samples import SAMPLES

RECORD = SAMPLES / "kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf"


def run(capsys, *argv):
    code = main(["diagram", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_writes_an_svg_file(capsys, tmp_path):
    target = tmp_path / "figure.svg"
    code, out, err = run(capsys, str(RECORD), "--moves", "1-20", "--first-number", "1", "--svg", str(target))
    assert code == 0 and out == ""
    assert "moves 1-20" in err and str(target) in err
    game, _ = load_game(RECORD, strict=False)
    assert target.read_text() == move_diagram(game, 1, 20, first_number=1).svg()
    root = ET.fromstring(target.read_text())
    assert root.get("viewBox") and root.get("width") and root.get("height")


def test_prints_text_by_default_and_with_text(capsys):
    game, _ = load_game(RECORD, strict=False)
    expected = move_diagram(game, 5, 30, first_number=1, coordinates=False).text() + "\n"
    for extra in ([], ["--text"]):
        code, out, err = run(capsys, str(RECORD), "--moves", "5-30", "--first-number", "1", "--no-coordinates", *extra)
        assert (code, out, err) == (0, expected, "")


def test_all_moves_when_no_range_is_given(capsys):
    game, _ = load_game(RECORD, strict=False)
    code, out, _ = run(capsys, str(RECORD))
    assert code == 0 and out == move_diagram(game).text() + "\n"


def test_svg_to_standard_output(capsys):
    code, out, _ = run(capsys, str(RECORD), "--moves", "3-", "--svg", "-")
    assert code == 0 and ET.fromstring(out).get("width")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--moves", "1-999"], "the game has only 36 moves"),
        (["--moves", "0-5"], "at least 1"),
        (["--moves", "9-3"], "not after the last"),
        (["--moves", "one-two"], "not a range of moves"),
        (["--first-number", "0"], "--first-number must be at least 1"),
    ],
)
def test_a_bad_range_is_refused(capsys, tmp_path, argv, message):
    target = tmp_path / "no.svg"
    code, out, err = run(capsys, str(RECORD), *argv, "--svg", str(target))
    assert code == 2 and out == ""
    assert err.startswith("miai diagram: ") and message in err and err.count("\n") == 1
    assert not target.exists()


def test_a_bad_or_missing_file_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_text("this is no record")
    code, _, err = run(capsys, str(bad))
    assert code == 2 and err.startswith(f"miai diagram: {bad}: ") and "SGF" in err
    code, _, err = run(capsys, str(tmp_path / "missing.sgf"))
    assert code == 2 and "cannot read" in err and "missing.sgf" in err


def test_an_unwritable_target_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, str(RECORD), "--svg", str(tmp_path / "no-such-dir" / "x.svg"))
    assert code == 2 and "cannot write" in err


def test_the_legend_and_the_notes_in_the_language_asked_for(capsys):
    """The board as in English; whose numbers are odd, the moves played on a numbered point and
    the passes said in Spanish."""
    game, _ = load_game(RECORD, strict=False)
    figure = move_diagram(game, 5, 30, first_number=1)
    code, out, err = run(capsys, str(RECORD), "--moves", "5-30", "--first-number", "1", "--lang", "es")
    assert code == 0 and out.startswith(figure.board_text() + "\n")
    legend = out.splitlines()[len(figure.board_text().splitlines())]
    assert legend in ("Negro: números impares; Blanco: pares.", "Blanco: números impares; Negro: pares.")
    assert " at " not in out and ": pass" not in out
