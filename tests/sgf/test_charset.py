"""Bytes to text (:mod:`miai.sgf.charset`): declared, valid UTF-8, repaired UTF-8, guessed."""

from __future__ import annotations

from miai.sgf import decode_sgf_bytes, read_record
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


