"""A tree's facts (:mod:`miai.sgf.record`): size, komi, handicap, rules, players, results,
points and setups, the repairs of each, errors with locations, and read-write-read."""

from __future__ import annotations

import pytest

from miai import Color, Move
from miai.errors import SgfError
from miai.result import Result, Termination
from miai.rules import PRESETS
from miai.sgf import game_from_record, read_record
from tests.samples import FUZZ
from tests.sgf import has


def test_plain_record():
    r = read_record("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bob]BR[3d]WR[2k]DT[2024-01-02]GN[test]RE[B+2.5]"
                    ";B[ee]C[centre];W[cc];B[])")  # fmt: skip
    assert (r.size, r.komi, r.handicap) == (9, 7.0, 0)
    assert (r.black, r.white, r.black_rank, r.white_rank) == ("Ann", "Bob", "3d", "2k")
    assert (r.date, r.game_name, str(r.result), r.result_text) == ("2024-01-02", "test", "B+2.5", "B+2.5")
    assert r.result == Result(Color.BLACK, Termination.SCORE, 2.5)
    assert r.rules == PRESETS["chinese"].replace(komi=7.0)
    assert r.moves == [Move(Color.BLACK, (4, 4)), Move(Color.WHITE, (6, 2)), Move(Color.BLACK, None)]
    assert r.comments == {1: "centre"}
    assert r.repairs == []
    assert "9x9 Ann (B) vs Bob (W)" in repr(r)


def test_tt_passes():
    r = read_record("(;SZ[19];B[tt];W[tt])")
    assert [m.is_pass for m in r.moves] == [True, True]
    assert has(r, "2 pass(es) written as [tt]")
    assert "B[]" in r.to_sgf()
    big = read_record("(;SZ[21];B[tt])")  # a real point on boards above 19x19
    assert big.moves == [Move(Color.BLACK, (1, 19))]


def test_bad_points_are_dropped_with_a_note():
    r = read_record("(;SZ[9];B[zz];W[c c];AB[aa][99]AW[])")
    assert r.moves == [Move(Color.WHITE, (6, 2))]
    assert has(r, "B[zz] is not a point") and has(r, "W[c c] read as W[cc]") and has(r, "AB[99]")


def test_comma_separated_point_lists_are_read_as_points():
    r = read_record("(;SZ[9]AB[aa,bb][cc]AW[ee, ff];B[gg])")
    assert sorted(r.setup_stones[0]) == sorted([(8, 0), (7, 1), (6, 2)])
    assert sorted(r.setup_stones[1]) == sorted([(4, 4), (3, 5)])
    assert has(r, "AB[aa,bb] is a comma-separated list: read as AB[aa][bb]")
    assert r.root.properties["AB"] == ["aa", "bb", "cc"]  # fixed in the tree
    assert read_record(r.to_sgf()).repairs == []


def test_a_point_set_up_in_two_colours_is_reported():
    r = read_record((FUZZ / "ab-aw-same-point.sgf").read_bytes())
    assert r.setup_stones == ([], [(4, 4)])
    assert has(r, "E5 in both AB and AW", "set up white")
    assert "AB" not in r.root and read_record(r.to_sgf()).repairs == []
    r = read_record("(;SZ[9]AE[aa][bb]AB[aa];W[cc])")
    assert r.root.properties["AE"] == ["bb"] and has(r, "A9 in both AE and AB", "set up black")


def test_compressed_point_lists():
    r = read_record("(;SZ[9]AB[aa:cb]AW[ee])")
    assert sorted(r.setup_stones[0]) == sorted([(8, 0), (8, 1), (8, 2), (7, 0), (7, 1), (7, 2)])
    assert r.setup_stones[1] == [(4, 4)]


@pytest.mark.parametrize(
    "km, komi, words",
    [
        ("325", 6.5, ("hundredths of a stone",)),
        ("375", 7.5, ("hundredths",)),
        ("275", 5.5, ("hundredths",)),
        ("5 1/2", 5.5, ("KM[5 1/2] read as 5.5",)),
        ("6,5", 6.5, ("read as 6.5",)),
        ("", 7.5, ("KM[] is empty",)),
        ("lots", 7.5, ("not a number",)),
        ("6.5", 6.5, ()),
        ("-1.5", -1.5, ()),
        ("inf", 7.5, ("not a finite number",)),
        ("1e400", 7.5, ("not a finite number",)),
        ("99999", 7.5, ("more than any board's points",)),
    ],
)
def test_komi_repairs(km, komi, words):
    r = read_record(f"(;SZ[19]RU[Chinese]KM[{km}];B[aa])")
    assert r.komi == komi and r.rules.komi == komi
    if words:
        assert has(r, *words)
        assert read_record(r.to_sgf()).repairs == []  # the fix is in the tree
    else:
        assert r.repairs == []


@pytest.mark.parametrize(
    "ru, km, komi",
    [
        ("Japanese", "650", 6.5),  # Fox under territory rules: hundredths of a point
        ("Japanese", "750", 7.5),
        ("Korean", "650", 6.5),
        ("Chinese", "375", 7.5),  # under area rules: hundredths of a stone (two points)
        ("Chinese", "325", 6.5),
        ("Japanese", "325", 6.5),  # 3.25 points is no komi: stones after all
    ],
)
def test_fox_komi_follows_the_rules(ru, km, komi):
    r = read_record(f"(;GM[1]FF[4]SZ[19]KM[{km}]RU[{ru}]AP[foxwq];B[pd])")
    assert r.komi == komi and r.rules.komi == komi
    assert has(r, f"KM[{km}] is in hundredths")
    assert read_record(r.to_sgf()).komi == komi


def test_komi_in_japanese_words():
    r = read_record("(;KO[黒6目半];B[aa])")
    assert r.komi == 6.5 and has(r, "KO[")


def test_a_komi_in_words_that_overflows_is_ignored():
    r = read_record((FUZZ / "ko-komi-overflow.sgf").read_bytes())
    assert r.komi is None and has(r, "is not a komi: ignored")
    assert read_record("(;SZ[9]KM[inf];B[aa])").komi == 7.5  # both non-finite komis repaired alike


def test_no_komi_means_zero_in_the_rules():
    r = read_record("(;SZ[9];B[aa])")
    assert r.komi is None and r.rules.komi == 0.0


@pytest.mark.parametrize("ha, value", [("对子", 0), ("让5子", 5), ("two", 0)])
def test_non_numeric_handicap(ha, value):
    r = read_record(f"(;SZ[19]HA[{ha}];B[aa])")
    assert r.handicap == value and has(r, f"HA[{ha}] is not a number")


@pytest.mark.parametrize(
    "ha, words",
    [("-1", "is negative"), ("-3", "is negative"), ("1000", "more stones than the board holds"), ("99999999", "more stones")],
)
def test_a_handicap_that_is_not_a_count_is_no_handicap(ha, words):
    r = read_record(f"(;SZ[9]HA[{ha}];B[aa])")
    assert r.handicap == 0 and "HA" not in r.root and has(r, f"HA[{ha}]", words)
    assert game_from_record(r).handicap == 0


@pytest.mark.parametrize("name", ["sz-5000-digits.sgf", "ha-5000-digits.sgf"])
def test_a_5000_digit_number_is_an_sgf_error_or_a_repair(name):
    data = (FUZZ / name).read_bytes()
    try:
        r = read_record(data)
    except SgfError as e:
        assert "SZ[" in str(e) and "too large" in str(e)
    else:
        assert r.handicap == 0 and has(r, "more stones than the board holds")


def test_handicap_stones_in_a_later_node_move_to_the_root():
    r = read_record("(;SZ[19]HA[2];AB[pd][dp];W[dc])")
    assert r.root.properties["AB"] == ["pd", "dp"]
    assert len(r.main_line) == 2
    assert has(r, "node 1", "moved to the root")


def test_handicap_without_stones():
    r = read_record("(;SZ[19]HA[4];W[dc])")
    assert has(r, "HA[4] without handicap stones")
    game = game_from_record(r)
    assert game.handicap == 4 and game.moves == [Move(Color.WHITE, (16, 3))]


def test_square_size_written_with_a_colon():
    r = read_record("(;SZ[13:13];B[aa])")
    assert r.size == 13 and has(r, "SZ[13:13] read as 13")


def test_unknown_rules_are_kept_as_text_with_a_warning():
    r = read_record("(;RU[Foo rules]KM[6.5];B[aa])")
    assert r.rules_text == "Foo rules" and r.rules == PRESETS["chinese"].replace(komi=6.5)
    assert has(r, "RU[Foo rules]", "chinese")


@pytest.mark.parametrize(
    "text, result",
    [
        ("B+R", "B+R"), ("W+Resign", "W+R"), ("b+t", "B+T"), ("W+F", "W+F"), ("B+3.50", "B+3.5"),
        ("W+", "W+"), ("0", "0"), ("Draw", "Draw"), ("D+J", "Draw"), ("Jigo", "0"), ("Void", "Void"), ("?", None), ("", None),
        ("White resigns. W 6.5 B 157.0", "B+R"), ("black wins by time", "B+T"), ("white wins by 3.5", "W+3.5"),
        ("257手完, 黒中押し勝ち", "B+R"), ("白11目胜", "W+11"), ("黒3目半勝ち", "B+3.5"), ("흑 시간승", "B+T"),
        ("白认输", "B+R"), ("黑胜", "B+"), ("B+V", "B+V"), ("nonsense", "nonsense"),
    ],
)  # fmt: skip
def test_the_result_is_read_as_a_result_value(text, result):
    r = read_record(f"(;SZ[9]RE[{text}];B[aa])")
    assert (None if r.result is None else str(r.result)) == result
    assert r.result_text == text


@pytest.mark.parametrize(
    "text, winner, by, margin",
    [
        ("白认输", Color.BLACK, Termination.RESIGNATION, None),  # White resigns
        ("黑胜", Color.BLACK, Termination.UNKNOWN, None),
        ("D+J", None, Termination.DRAW, None),
        ("B+V", Color.BLACK, Termination.UNKNOWN, None),
        ("W+12.5", Color.WHITE, Termination.SCORE, 12.5),
    ],
)
def test_the_record_keeps_results_in_servers_words(text, winner, by, margin):
    r = read_record(f"(;SZ[9]RE[{text}];B[aa])")
    assert isinstance(r.result, Result)
    assert (r.result.winner, r.result.by, r.result.margin) == (winner, by, margin)
    assert r.result_text == text and r.root.get("RE") == text  # the record's words stay in the tree


def test_a_result_not_understood_is_kept_verbatim():
    r = read_record("(;SZ[9]RE[adjourned after move 80];B[aa])")
    assert r.result is not None and r.result.winner is None and str(r.result) == r.result_text
    assert has(r, "not a result miai understands", "kept as written")
    assert read_record("(;SZ[9]RE[?];B[aa])").result is None


def test_written_text_is_utf8():
    r = read_record("(;CA[Shift_JIS]PB[井山];B[aa])".encode("shift_jis"))
    text = r.to_sgf()
    assert "CA[UTF-8]" in text and read_record(text.encode("utf-8")).black == "井山"


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "the input is empty"),
        (b"   \n ", "the input is empty"),
        (b"hello world", "expected '(;' but found 'hello world' at line 1, column 1"),
        (b"\n\n  garbage (not sgf", "line 3, column 3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "no SGF game tree found"),
        ("(;SZ[abc])", "root node, line 1, column 3: SZ[abc] is not a board size"),
        ("(;SZ[30];B[aa])", "SZ[30]"),
        ("(;SZ[19:9])", "rectangular"),
        ("(;GM[12])", "GM[12] is not a record of Go"),
    ],
)
def test_unreadable_input_raises_with_a_location(data, words):
    with pytest.raises(SgfError) as info:
        read_record(data)
    assert words in str(info.value)


def test_error_names_the_file():
    with pytest.raises(SgfError, match=r"^game\.sgf: no SGF game tree"):
        read_record(b"nothing here", filename="game.sgf")


def test_type_error_for_other_input():
    with pytest.raises(TypeError):
        read_record(42)  # type: ignore[arg-type]


def test_read_write_read_with_everything():
    text = (
        "(;FF[4]GM[1]SZ[9]KM[6.5]RU[Japanese]HA[2]AB[cc][gg]PB[A\\]b]PW[C]C[root\ncomment]XX[unknown][two]"
        ";W[ee]C[one];B[dd](;W[]TR[aa:bb];B[ff])(;W[ab]LB[cc:x\\:y]))"
    )
    r = read_record(text)
    assert r.black == "A]b" and r.root.get("XX") == "unknown"
    out = r.to_sgf()
    again = read_record(out)
    assert again == r and again.to_sgf() == out
    assert again.root.children[0].children[0].children[1].get("LB") == "cc:x:y"


def test_records_compare_facts_and_trees():
    a = read_record("(;SZ[9];B[aa])")
    assert a == read_record("(;SZ[9]\n;B[aa])")
    assert a != read_record("(;SZ[9];B[bb])")
    assert a != read_record("(;SZ[9];B[aa]C[x])")


