"""Bytes to text (:mod:`miai.sgf.charset`): declared, valid UTF-8, repaired UTF-8, guessed."""

from __future__ import annotations

from miai.sgf import decode_sgf_bytes, read_record
from tests.samples import FUZZ
from tests.sgf import has


def test_declared_charset_after_other_properties():
    data = "(;PB[古力]CA[GB2312];B[aa])".encode("gb2312")
    r = read_record(data)
    assert r.black == "古力" and r.encoding == "gb18030" and r.repairs == []


def test_wrong_declared_charset_is_reported():
    data = "(;CA[UTF-8]PB[古力];B[aa])".encode("gb2312")
    r = read_record(data)
    assert r.black == "古力" and has(r, "CA[UTF-8] but byte") and has(r, "charset guessed")


def test_unknown_declared_charset_is_reported():
    r = read_record("(;CA[no-such-charset]PB[Zoë];B[aa])".encode("utf-8"))
    assert r.black == "Zoë" and has(r, "unknown charset CA[no-such-charset]")


def test_utf16_without_bom():
    text, codec, notes = decode_sgf_bytes("(;PB[x];B[aa])".encode("utf-16-le"))
    assert text == "(;PB[x];B[aa])" and codec == "utf-16-le" and notes




def cut(text: str, cut_in: str) -> bytes:
    """``text`` in UTF-8 with the character ``cut_in`` cut after its first two bytes."""
    whole = cut_in.encode("utf-8")
    return text.encode("utf-8").replace(whole, whole[:2])


def test_utf8_with_a_character_cut_in_the_middle_stays_utf8():
    data = cut("(;CA[UTF-8]PB[柯洁]PW[古力]C[围棋 is fun];B[aa])", "洁")
    r = read_record(data)
    assert r.encoding == "utf-8"
    assert (r.black, r.white, r.comments[0]) == ("柯\ufffd", "古力", "围棋 is fun")
    assert has(r, "CA[UTF-8]: 1 byte sequence(s) that are not UTF-8", "line 1", "replaced by U+FFFD")


def test_undeclared_utf8_with_a_cut_character_needs_more_evidence():
    fox = cut("(;GM[1]PB[whatiskale]PW[注号用名]BR[15级]WR[14级]C[大家好，请多指教];B[pd])", "名")
    r = read_record(fox)
    assert r.encoding == "utf-8" and r.white == "注号用\ufffd" and r.black_rank == "15级"
    assert has(r, "no charset declared; the text is UTF-8 but 1 byte sequence(s)")
    # a lone Latin-1 letter is not UTF-8 with a bad byte: the guess still decides
    latin = read_record("(;PB[Zoë]C[créé];B[aa])".encode("latin-1"))
    assert latin.black == "Zoë" and latin.encoding == "cp1252"


def test_a_charset_that_python_knows_only_as_a_transform_is_unknown():
    data = (FUZZ / "ca-rot13.sgf").read_bytes()
    r = read_record(data)  # LookupError ('rot-13' is not a text encoding) before
    assert r.size == 9 and has(r, "unknown charset CA[rot13]")
    assert decode_sgf_bytes(b"(;CA[base64]PB[\xc3\xa9])")[0] == "(;CA[base64]PB[é])"
