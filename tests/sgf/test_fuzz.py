"""Bad input: the reader raises nothing but SgfError, whatever the bytes.

The reproducers in tests/data/fuzz once raised LookupError or ValueError or decided silently;
the Hypothesis test mutates the real records of tests/data/sgf (bytes flipped, the end cut
off, brackets and parentheses inserted) and reads and replays each result.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai.errors import SgfError
from miai.sgf import SgfRecord, game_from_record, load_game, read_collection, read_record
from tests.samples import FUZZ, SAMPLES

RECORDS = {p.name: p.read_bytes() for p in sorted(SAMPLES.iterdir()) if p.suffix in (".sgf", ".gib", ".ngf")}


def read_and_replay(data: bytes, filename: str | None) -> SgfRecord | None:
    """Read ``data`` and replay it both ways; None when it is (rightly) an SgfError."""
    try:
        record = read_record(data, filename=filename)
        read_collection(data, filename=filename)
        game_from_record(record, strict=False)
        game_from_record(record)
    except SgfError:
        return None
    return record


@pytest.mark.parametrize("path", sorted(FUZZ.iterdir()), ids=lambda p: p.name)
def test_each_reproducer_reads_or_raises_an_sgf_error(path):
    read_and_replay(path.read_bytes(), path.name)
    read_and_replay(path.read_bytes(), None)
    try:
        load_game(path)
    except SgfError:
        pass


GRAMMAR = [b"]", b"[", b"(", b")", b";", b"\\", b"]]]", b"AB[", b"\xff\xfe", b"\xe6\xb4", b"\n", b":"]
"""Pieces of syntax to insert anywhere."""
HUGE = b"9" * 5000
ROOT = [
    b"SZ[" + HUGE + b"]", b"HA[" + HUGE + b"]", b"HA[-1]", b"KM[" + HUGE + b"]", b"KM[1e400]", b"KM[inf]",
    "KO[黒".encode() + HUGE[:400] + "目半]".encode(), b"CA[rot13]", b"CA[UTF-8]", b"AB[ee]AW[ee]", b"AB[aa,bb]",
    b"RE[" + HUGE + b"]", b"RU[" + HUGE + b"]",
]  # fmt: skip
"""Root properties that broke readers before: huge numbers, charsets that are not charsets, odd points."""
GIB = [b"\\[GAMEGONGJE=" + HUGE + b"\\]", b"\\[GAMERESULT=" + HUGE + b"\\]", b"INI 0 1 " + HUGE, b"SKI 0 3"]
"""GIB lines of the same kind."""


@st.composite
def mutated_records(draw):
    name = draw(st.sampled_from(sorted(RECORDS)))
    data = bytearray(RECORDS[name])
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "root"]))
        at = draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))
        if kind == "root":  # a hostile value in the root, where the facts are read
            root, head = data.find(b"(;"), data.find(b"\\HS")
            if root >= 0:
                data[root + 2 : root + 2] = draw(st.sampled_from(ROOT))
            if head >= 0:
                data[head + 3 : head + 3] = b"\n" + draw(st.sampled_from(GIB)) + b"\n"
        elif kind == "flip" and data:
            data[at] = draw(st.integers(min_value=0, max_value=255))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(GRAMMAR))
        elif kind == "delete":
            del data[at : at + draw(st.integers(min_value=1, max_value=8))]
        else:
            del data[at:]
    filename = name if draw(st.booleans()) else None
    return bytes(data), filename


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_records())
def test_mutated_records_raise_nothing_but_sgf_errors(case):
    data, filename = case
    record = read_and_replay(data, filename)
    if record is not None:
        assert read_record(record.to_sgf()).size == record.size  # what was read writes back
    try:
        load_game(data)
    except SgfError:
        pass
