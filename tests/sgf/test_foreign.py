"""Tygem GIB and WBaduk NGF (:mod:`miai.sgf.foreign`) beyond what the sample files show."""

from __future__ import annotations

import pytest

from miai import Color, Move
from miai.errors import SgfError
from miai.sgf import load_game, read_record
from tests.samples import FUZZ, SAMPLES
from tests.sgf import has


def test_bad_gib_raises():
    with pytest.raises(SgfError, match="not a readable Tygem GIB file"):
        read_record(b"\\HS\n\\HE\n", filename="x.gib")




def gib_with(lines_before_end: list[str], name: str = "tygem-euc-kr.gib") -> bytes:
    """A sample GIB record with ``lines_before_end`` added before its last line (``\\GE``)."""
    data = (SAMPLES / name).read_bytes()
    end = data.rindex(b"\\GE")
    return data[:end] + "".join(line + "\n" for line in lines_before_end).encode("ascii") + data[end:]


def test_gib_closing_passes_are_read():
    # the record's 49 STO moves end with Black's (move line 50): White passes, Black passes
    data = gib_with(["SKI 0 51", "SKI 0 52"])
    r = read_record(data, filename="passes.gib")
    assert len(r.moves) == 51
    assert [(m.color, m.is_pass) for m in r.moves[-3:]] == [(Color.BLACK, False), (Color.WHITE, True), (Color.BLACK, True)]
    assert has(r, "2 pass(es) read from GIB SKI lines")
    game, _ = load_game(data)
    assert game.move_number == 51 and game.consecutive_passes == 2


def test_gib_pass_in_the_middle_and_a_given_colour():
    data = (SAMPLES / "tygem-euc-kr.gib").read_bytes()
    lines = data.split(b"\n")
    tenth = [i for i, ln in enumerate(lines) if ln.startswith(b"STO")][9]
    lines[tenth:tenth] = [b"SKI 0 11 1"]  # a pass by the colour the line gives, Black (after Black's 9th move)
    r = read_record(b"\n".join(lines), filename="middle.gib")
    assert len(r.moves) == 50
    assert r.moves[8:11] == [Move(Color.BLACK, r.moves[8].point), Move(Color.BLACK, None), Move(Color.WHITE, r.moves[10].point)]
    assert read_record(r.to_sgf()).moves == r.moves


def test_gib_komi_of_5000_digits_is_ignored():
    data = (FUZZ / "gib-gongje-5000-digits.gib").read_bytes()
    r = read_record(data, filename="gongje.gib")  # ValueError from int() before
    assert r.komi is None and has(r, "GAMEGONGJE=", "is not a komi: ignored")
