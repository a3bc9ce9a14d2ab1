"""Repairs as values: each kind reads as the English sentence the reader always wrote, keeps
its kind, fields and place, and the page's catalogue (static/repairs.js) says every kind."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from miai.sgf import load_game, read_record
from miai.sgf.repairs import ENGLISH, Repair, RepairKind, Where

REPAIRS_JS = Path(__file__).resolve().parents[2] / "src/miai/server/web/static/repairs.js"

# Records that need one repair each, and the English sentence the reader writes for it.
EXAMPLES = [
    ("(;GM[1]SZ[9];B[aa]])", RepairKind.STRAY_BRACKET, "line 1, column 19: stray ']' skipped"),
    ("(;GM[1]SZ[9];B[aa]]]])", RepairKind.STRAY_BRACKETS, "line 1, column 19: 3 stray ']' skipped"),
    ("(;GM[1]SZ[9];B[aa]W[bb])", RepairKind.SECOND_MOVE, "line 1, column 19: a second move (W) in one node: split into a new node"),
    ("(;GM[1]SZ[9]KM[];B[aa])", RepairKind.KOMI_EMPTY, "root node, line 1, column 13: KM[] is empty: komi 7.5 (the default of the rules)"),
    ("(;GM[1]SZ[9];B[tt])", RepairKind.TT_PASSES, "1 pass(es) written as [tt] (FF[3] style) read as passes, written back as []"),
    ("(;GM[1]SZ[9];B[zz])", RepairKind.MOVE_OFF_BOARD, "line 1, column 14: B[zz] is not a point on the 9x9 board: move dropped"),
    ("(;GM[1]SZ[9];B[aa]", RepairKind.UNCLOSED_TREES, "unexpected end of input: 1 unclosed '(' (the last opened at line 1, column 1) closed"),
    ("(;GM[1]SZ[9]HA[x];B[aa])", RepairKind.HANDICAP_NOT_NUMBER, "root node, line 1, column 13: HA[x] is not a number: read as 0"),
]


@pytest.mark.parametrize("text, kind, english", EXAMPLES, ids=[k.value for _, k, _ in EXAMPLES])
def test_a_repair_reads_as_its_english_sentence_and_keeps_its_kind(text, kind, english):
    repairs = [r for r in read_record(text).repairs if r.kind is kind]
    assert repairs == [english]
    (repair,) = repairs
    assert Repair(repair.kind, repair.where, **repair.fields) == english  # made again from its values
    assert pickle.loads(pickle.dumps(repair)).to_json() == repair.to_json()


def test_an_illegal_move_stops_the_replay_with_a_repair_that_says_where():
    _, record = load_game("(;GM[1]SZ[9];B[aa];W[aa];B[bb])", strict=False)
    (repair,) = record.repairs
    assert repair.kind is RepairKind.REPLAY_STOPPED and repair.fields["count"] == 2
    assert repair.startswith("replay stopped at move 2 (W A9) (node 2, line 1, column 19) is illegal: ")
    assert repair.endswith("; 2 move(s) not played")


@pytest.mark.parametrize("kind", list(RepairKind))
def test_every_kind_fills_its_sentence_from_its_fields(kind):
    names = set(re.findall(r"\{(\w+)\}", ENGLISH[kind])) - {"at"}
    fields = {name: f"<{name}>" for name in names}
    where = Where(node=3, line=2, column=5)
    repair = Repair(kind, where, **fields)
    sentence = ENGLISH[kind].format(at=" (node 3, line 2, column 5)", **fields)
    assert str(repair) in (sentence, f"node 3, line 2, column 5: {sentence}")
    assert repair.to_json() == {"kind": kind.value, "fields": fields, "where": {"node": 3, "line": 2, "column": 5}}


def test_the_page_says_every_kind_in_the_readers_words():
    """Each kind's sentence is in static/repairs.js: the same words, or for a kind that counts
    ("pass(es)"), a singular and a plural form with the same fields ({n} for {count})."""
    js = REPAIRS_JS.read_text(encoding="utf-8")
    text = r'"((?:[^"\\]|\\.)*)"'
    said = dict(re.findall(rf"^  (\w+): \(\) => _\({text}\),$", js, re.M))
    counted = {kind: (one, many) for kind, one, many in re.findall(rf"^  (\w+): \(n\) => ngettext\({text}, {text}, n\),$", js, re.M)}
    assert set(said) | set(counted) == {k.value for k in RepairKind} and not set(said) & set(counted)
    for kind, sentence in said.items():
        assert sentence == ENGLISH[RepairKind(kind)].replace('"', '\\"')
    for kind, (one, many) in counted.items():
        fields = set(re.findall(r"\{(\w+)\}", ENGLISH[RepairKind(kind)].replace("{count}", "{n}")))
        assert set(re.findall(r"\{(\w+)\}", one)) == set(re.findall(r"\{(\w+)\}", many)) == fields, kind


def test_where_reads_as_the_reader_always_wrote_it():
    assert str(Where()) == "the record" and str(Where(node=0)) == "root node"
    assert str(Where(node=4, line=1, column=2)) == "node 4, line 1, column 2"
    assert str(Where(line=7, column=1)) == "line 7, column 1"
