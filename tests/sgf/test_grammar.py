"""The SGF grammar (:mod:`miai.sgf.grammar`): trees, escapes, the tolerant scanner and its
repair report with locations, writing, and its cost on large or hostile input."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from miai import Color, Move
from miai.errors import SgfError
from miai.sgf import MAX_RECORD_BYTES, SgfNode, load_game, read_collection, read_file, read_record, write_collection
from miai.sgf import grammar
from miai.sgf.grammar import scan
from tests.sgf import has


def test_escapes_and_soft_line_breaks():
    r = read_record("(;C[a\\] [b\\]\\\\ \\: soft\\\nbreak\r\nhard];B[aa])")
    assert r.comments[0] == "a] [b]\\ : softbreak\nhard"


def test_whitespace_between_values_and_ids():
    r = read_record("(\n ; SZ [9] AB [aa] \n [bb] ; W [cc] )")
    assert r.setup_stones[0] == [(8, 0), (7, 1)]
    assert r.moves == [Move(Color.WHITE, (6, 2))]


def test_variations_and_main_line():
    r = read_record("(;SZ[9];B[aa](;W[bb];B[cc])(;W[dd]))")
    assert [m.point for m in r.moves] == [(8, 0), (7, 1), (6, 2)]
    assert len(r.root.children[0].children) == 2
    assert r.main_line[-1].move == ("B", "cc")


def test_deep_nesting_is_iterative():
    letters = "abcdefghijklmnopqrs"
    moves = "".join(f"(;{'BW'[i % 2]}[{letters[i % 19]}{letters[(i // 19) % 19]}]" for i in range(3000))
    r = read_record("(;SZ[19]" + moves + ")" * 3000 + ")")
    assert len(r.moves) == 3000
    assert read_record(r.to_sgf()) == r


def test_collection_and_writing_it():
    text = "(;SZ[9];B[aa])(;SZ[13];W[bb])"
    records = read_collection(text)
    assert [r.size for r in records] == [9, 13]
    assert read_collection(write_collection(records)) == records
    assert has(read_record(text), "2 game trees")


def test_sgf_node_api():
    node = SgfNode({"B": ["aa"], "C": ["x"]}, [SgfNode({"W": ["bb"]})])
    assert node.get("C") == "x" and node.get("Z") is None and "B" in node
    assert node.move == ("B", "aa")
    assert [n.move for n in node.walk()] == [("B", "aa"), ("W", "bb")]
    clone = node.copy()
    assert clone == node and clone is not node
    clone.children[0].properties["W"] = ["cc"]
    assert clone != node
    assert "SgfNode ;B[aa]C[x]" in repr(node)


def test_stray_close_bracket_is_skipped():
    r = read_record("(;SZ[19];B[aa]];W[bb])")
    assert len(r.moves) == 2
    assert r.repairs == ["line 1, column 15: stray ']' skipped"]


def test_unescaped_bracket_inside_a_value_is_kept():
    r = read_record("(;PB[Matsuyama[3d]];B[aa])")
    assert r.black == "Matsuyama[3d]"
    assert has(r, "unescaped ']'")


def test_long_ff1_ids_keep_their_capitals():
    r = read_record("(;FileFormat[1]SiZe[9]PlayerBlack[hi]KoMi[0.5];Black[ee];White[cc])")
    assert (r.size, r.black, r.komi, len(r.moves)) == (9, "hi", 0.5, 2)
    assert has(r, "PlayerBlack->PB")


def test_lowercase_ids_and_junk():
    r = read_record("(;sz[9] @@ b[ee] ;W[cc] foo ;B[dd])")
    assert r.size == 9 and len(r.moves) == 3
    assert has(r, "'@@'") and has(r, "'foo' is not followed by a value") and has(r, "sz->SZ")


def test_missing_root_semicolon():
    r = read_record("(SZ[9]PB[x];B[aa])")
    assert r.black == "x" and len(r.moves) == 1
    assert has(r, "line 1, column 2", "missing ';'")


def test_unbalanced_parentheses_and_end_of_input():
    r = read_record("(;SZ[9];B[aa](;W[bb]")
    assert len(r.moves) == 2 and has(r, "2 unclosed '('")
    r = read_record("(;SZ[9];B[aa];C[no end")
    assert r.comments == {1: "no end"} and has(r, "inside a property value")
    r = read_record("(;SZ[9];B[aa]))) junk")
    assert len(r.moves) == 1 and has(r, "text after the last game tree")


def test_two_moves_in_one_node_are_split():
    r = read_record("(;SZ[9];B[aa]W[bb];W[cc]W[dd])")
    assert [m.color.letter for m in r.moves] == ["B", "W", "W", "W"]
    assert all(len([k for k in n.properties if k in "BW"]) <= 1 for n in r.root.walk())
    assert has(r, "second move")


def test_repeated_properties_are_merged():
    r = read_record("(;SZ[9]AP[a]AP[b];B[aa])")
    assert r.root.properties["AP"] == ["a", "b"] and has(r, "AP repeated")




# ------------------------------------------------------------------ cost on large or hostile input
def cpu_seconds(text: str) -> float:
    """The best of three CPU times of scanning ``text`` (less noise than one wall time)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        scan(text, [])
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("unit", ["] ", "\\]", "xx "])
def test_scanning_time_is_linear(unit):
    """Eight times the input takes about eight times as long; a quadratic scanner (as the one
    that read 1M stray brackets in 17 s, 5M in 400 s) takes several times more."""
    head = "(;C[" if unit == "\\]" else "(;C[x]"
    small, large = (cpu_seconds(head + unit * n + "])") for n in (10_000, 80_000))
    assert large / max(small, 0.01) < 16


def test_megabytes_of_stray_brackets():
    """A run of ``]`` is one repair; 3.2 MB of them cost about eight times 400 KB (times
    under 10 ms count as 10 ms), where the quadratic scanner needed minutes."""
    small, large = (cpu_seconds("(;SZ[9]C[x]" + "]" * n + ";B[aa])") for n in (400_000, 3_200_000))
    assert large / max(small, 0.01) < 16
    r = read_record(b"(;SZ[9]C[x]" + b"]" * 3_200_000 + b";B[aa])")
    assert r.comments == {0: "x"} and len(r.moves) == 1
    assert r.repairs == ["line 1, column 12: 3200000 stray ']' skipped"]


def test_stray_brackets_are_reported_in_bounded_space():
    r = read_record("(;SZ[9];B[aa]" + "] " * 50_000 + ";W[bb])")
    assert len(r.moves) == 2 and len(r.repairs) <= 100
    assert r.repairs[-1] == "... and 49901 more repairs"


def test_a_big_comment_takes_memory_proportional_to_its_size():
    """A value is found with str.find, not a regular expression that keeps state per
    character (which took 115 bytes per byte: 5.8 GB for a 50 MB comment)."""
    data = b"(;SZ[9]C[" + b"a" * 2_000_000 + b"];B[aa])"
    tracemalloc.start()
    try:
        r = read_record(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(r.comments[0]) == 2_000_000
    assert peak < 8 * len(data)


def test_a_record_larger_than_the_limit_is_refused():
    with pytest.raises(SgfError, match="larger than 16777216 bytes"):
        read_record(b"(;C[" + b"a" * MAX_RECORD_BYTES + b"])")
    with pytest.raises(SgfError, match="larger than 16777216 bytes"):
        read_file("/dev/zero")  # reads the limit and one byte more, not for ever
    with pytest.raises(SgfError, match="larger than"):
        load_game(Path("/dev/zero"))


def test_a_text_of_too_many_nodes_is_refused(monkeypatch):
    """Each node costs several hundred bytes, so the number of nodes is bounded too (a
    million; ten here): 16 MB of ';' would otherwise take gigabytes."""
    monkeypatch.setattr(grammar, "MAX_NODES", 10)
    assert len(read_record("(;SZ[9]" + ";B[aa];W[bb]" * 4 + ";B[cc])").moves) == 9
    with pytest.raises(SgfError, match="more than 10 nodes: not read"):
        read_record("(;SZ[9]" + ";B[aa];W[bb]" * 5 + ")")
    with pytest.raises(SgfError, match="more than 10 nested"):
        read_record("(" * 12)
