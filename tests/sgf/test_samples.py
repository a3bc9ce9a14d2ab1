"""The real-world records of ``tests/data/sgf``: what a correct reader gets from each (the
facts of that folder's README), round trips, and replays through the checked Game API."""

from __future__ import annotations

import pytest

from miai import Color, Move
from miai.coords import point_to_sgf
from miai.errors import SgfError
from miai.game import Phase
from miai.sgf import (
    SgfRecord,
    game_to_sgf,
    load_game,
    read_collection,
    read_file,
    read_record,
)
from tests.samples import SAMPLES

ALL_FILES = sorted(p.name for p in SAMPLES.glob("*") if p.suffix.lower() in (".sgf", ".gib", ".ngf"))


def sample(name: str) -> SgfRecord:
    return read_file(SAMPLES / name)


def passes(record: SgfRecord) -> int:
    return sum(1 for m in record.moves if m.is_pass)


def sgf_moves(record: SgfRecord, n: int | None = None) -> list[str]:
    moves = record.moves if n is None else record.moves[:n]
    return [m.color.letter + point_to_sgf(m.point, record.size) for m in moves]


def sgf_points(points: list, size: int = 19) -> set[str]:
    return {point_to_sgf(p, size) for p in points}


# ------------------------------------------------------------------ the README's facts
# file: (size, komi, handicap, moves, passes or None, black, white, result)
FACTS = {
    "fox-km0-ha1-utf8-noCA.sgf": (19, 0.0, 1, 186, None, "whatiskale", "V259081699", "W+R"),
    "fox-even-utf8-noCA.sgf": (19, 0.0, 0, 92, None, "whatiskale", "注号用名", "B+R"),
    "fox-km325-scaled-komi-ha2.sgf": (19, 6.5, 2, 2, None, "testname1", "testname2", "Draw"),
    "ogs-variation-per-move-unfinished.sgf": (19, 6.5, 0, 113, None, "bbb", "aaa", None),
    "ogs-variation-per-move-finished.sgf": (19, 0.5, 0, 255, 3, "noob_bot_3", "IDW64", "W+368.5"),
    "igs-pandanet-CoPyright-multiline.sgf": (19, 0.5, 2, 204, 4, "player2", "player1", "W+34.5"),
    "ff1-long-property-names-xmgt.sgf": (9, -1.5, 0, 60, None, "hi", "ka", None),
    "cgoban-9x9-variations-empty-pass-AE.sgf": (9, 6.0, 0, 5, 0, "Black", "White", None),
    "kgs-cgoban2-handicap5-empty-passes.sgf": (19, 0.5, 5, 272, 7, "sita", "sita", None),
    "kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf": (9, 6.5, 0, 36, None, "MoGoTiTan", "teytaud", "W+R"),
    "manyfaces-latin1-no-CA-crlf-tt-passes.sgf": (19, 6.5, 0, 326, 27, "Gnu Go", "TurboGo v5.01", "B+206.5"),
    "glgo-gb2312-no-CA-ha9-tt-passes.sgf": (19, 6.5, 9, 400, 11, "GNU Go", "白", None),
    "jago-gb2312-comment-consecutive-black-crlf.sgf": (19, 0.0, 0, 269, None, "GnuGo-3.0.0", "FunGo", None),
    "gnugo-selfplay-tt-passes.sgf": (19, 5.5, 0, 178, 2, "Unknown", "GNU Go 3.0.0 (level 10) gmp", None),
    "igs-uec-long-Comment-property-tt-passes.sgf": (19, 6.5, 0, 309, 93, "fuego", "mayoigo", "B+R"),
    "gogui-ha7-no-SZ-no-KM-empty-passes.sgf": (19, None, 7, 8, 2, None, None, None),
    "gowrite-blank-names-variations.sgf": (19, None, 0, 17, None, None, None, None),
    "no-FF-no-SZ-JD-property.sgf": (19, None, 0, 138, None, "Ito Tokubee", "Yasuda Shusaku", "W+2"),
    "comment-escaped-close-bracket.sgf": (19, 0.0, 0, 0, None, "Black", "White", None),
    "stray-unescaped-close-bracket.sgf": (19, 0.0, 0, 8, None, "Black", "White", None),
    "multigo-gb2312-no-CA.sgf": (19, None, 0, 7, None, None, None, None),
    "ca-gb2312-after-PB.sgf": (19, None, 0, 2, None, "古力", "柯洁", None),
    "ca-euc-kr.sgf": (19, None, 0, 2, None, "이세돌", "박정환", None),
    "ca-shift-jis.sgf": (19, None, 0, 2, None, "井山 裕太", "山下 敬吾", None),
    "nihonkiin-shiftjis-no-CA-no-root-semicolon.sgf": (19, 6.5, 0, 8, None, "申眞ソ", "党毅飛", "B+R"),
    "utf16le-bom.sgf": (19, 0.0, 0, 164, None, "Kitani Minoru", "Go Seigen", None),
    "utf8-bom.sgf": (19, 0.0, 0, 164, None, "Kitani Minoru", "Go Seigen", None),
    "tygem-gb2312.gib": (19, 0.0, 5, 268, None, "石下之臣", "harpmaster", "W+11"),
    "tygem-euc-kr.gib": (19, 6.5, 0, 49, None, "dustkd1015", "dongjik", "B+T"),
    "tygem-global-handicap3.gib": (19, 0.0, 3, 118, None, "jy512", "leejw977", None),
    "tygem-mojibake-utf8.gib": (19, 6.5, 0, 232, None, "kim", "wildsim1", "W+T"),
    "wbaduk-cyberoro-even.ngf": (19, 7.5, 0, 333, None, "CYY", "LQC", "B+0.5"),
    "wbaduk-cyberoro-handicap2.ngf": (19, 0.0, 2, 189, None, "p81587", "ace550", "W+R"),
}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_readme_facts(name):
    size, komi, handicap, moves, npasses, black, white, result = FACTS[name]
    r = sample(name)
    assert r.size == size
    assert r.komi == komi
    assert r.handicap == handicap
    assert len(r.moves) == moves
    if npasses is not None:
        assert passes(r) == npasses
    assert r.black == black
    assert r.white == white
    assert (None if r.result is None else str(r.result)) == result


def test_every_sample_file_is_covered():
    covered = set(FACTS) | {
        "ff4-example-collection-compressed-points.sgf",
        "sgfc-evil-test-many-errors.sgf",
        "collection-two-games-different-CA.sgf",
        "wbaduk-gb2312.ngf",
    }
    assert set(ALL_FILES) == covered


# ------------------------------------------------------------------ encodings
@pytest.mark.parametrize(
    "name, codec",
    [
        ("fox-km0-ha1-utf8-noCA.sgf", "utf-8"),
        ("fox-even-utf8-noCA.sgf", "utf-8"),
        ("glgo-gb2312-no-CA-ha9-tt-passes.sgf", "gb18030"),
        ("jago-gb2312-comment-consecutive-black-crlf.sgf", "gb18030"),
        ("multigo-gb2312-no-CA.sgf", "gb18030"),
        ("manyfaces-latin1-no-CA-crlf-tt-passes.sgf", "cp1252"),
        ("nihonkiin-shiftjis-no-CA-no-root-semicolon.sgf", "cp932"),
        ("ca-gb2312-after-PB.sgf", "gb18030"),
        ("ca-euc-kr.sgf", "cp949"),
        ("ca-shift-jis.sgf", "cp932"),
        ("utf16le-bom.sgf", "utf-16-le"),
        ("utf8-bom.sgf", "utf-8"),
        ("tygem-gb2312.gib", "gb18030"),
        ("tygem-euc-kr.gib", "cp949"),
        ("wbaduk-gb2312.ngf", "gb18030"),
        ("gnugo-selfplay-tt-passes.sgf", "ascii"),
    ],
)
def test_charset(name, codec):
    assert sample(name).encoding == codec


def test_guessed_charsets_are_reported():
    r = sample("glgo-gb2312-no-CA-ha9-tt-passes.sgf")
    assert any("charset guessed: gb18030" in line for line in r.repairs)
    r = sample("fox-even-utf8-noCA.sgf")
    assert any("valid UTF-8" in line for line in r.repairs)
    assert not any("charset" in line for line in sample("ca-euc-kr.sgf").repairs)


def test_decoded_comments_and_ranks():
    assert sample("manyfaces-latin1-no-CA-crlf-tt-passes.sgf").comments[0].startswith("Fichier SGF créé par TurboGo")
    assert sample("jago-gb2312-comment-consecutive-black-crlf.sgf").comments == {269: "盘面\nB: 91\nW: 95"}
    assert sample("multigo-gb2312-no-CA.sgf").comments[0].startswith("【第三型】 黑先")
    assert sample("ca-gb2312-after-PB.sgf").comments == {2: "围棋 is fun"}
    assert sample("fox-km0-ha1-utf8-noCA.sgf").black_rank == "15级"
    kgs = sample("kgs-cgoban2-handicap5-empty-passes.sgf")
    assert any("nächster" in c for c in kgs.comments.values())
    assert sample("tygem-euc-kr.gib").black_rank == "1급"
    assert sample("tygem-gb2312.gib").white_rank == "3段"


# ------------------------------------------------------------------ details file by file
def test_fox_scaled_komi_and_late_handicap_stones():
    r = sample("fox-km325-scaled-komi-ha2.sgf")
    assert sgf_points(r.setup_stones[0]) == {"pd", "dp"}
    assert sgf_moves(r) == ["Wdc", "Bce"]
    assert r.root.get("AB") == "pd"  # moved to the root
    assert any("KM[325]" in line and "6.5" in line for line in r.repairs)
    assert any("HA[2] stones given here" in line and "node 1" in line for line in r.repairs)
    assert r.rules.komi == 6.5 and r.rules_text == "Chinese"


def test_fox_komi_zero_kept_as_written():
    r = sample("fox-km0-ha1-utf8-noCA.sgf")
    assert r.komi == 0.0 and r.rules.komi == 0.0
    assert r.setup_stones == ([], [])
    assert r.root.properties["AP"] == ["GNU Go:3.8", "foxwq"]


def test_cgoban_variations_passes_and_setup():
    r = sample("cgoban-9x9-variations-empty-pass-AE.sgf")
    assert sgf_moves(r) == ["Bfd", "Wdf", "Bff", "Wdd", "Bdg"]
    # The second variation at move 3 starts with a pass, then holds AE/AB/PL edits and
    # several white moves in a row.
    second = r.root.children[0].children[0].children[1]
    assert second.move == ("B", "")
    colours = [n.move[0] for n in r.root.children[2].main_line() if n.move]
    assert colours[:8] == ["B", "W", "W", "W", "W", "W", "W", "W"]
    assert sum(1 for _ in r.root.walk()) > 20


def test_igs_long_ids_and_passes():
    r = sample("igs-pandanet-CoPyright-multiline.sgf")
    assert "Copyright (c) PANDANET Inc. 2020" in r.root.get("CP")
    assert sgf_points(r.setup_stones[0]) == {"pd", "dp"}
    assert any("CoPyright->CP" in line for line in r.repairs)
    assert any("4 pass(es) written as [tt]" in line for line in r.repairs)
    uec = sample("igs-uec-long-Comment-property-tt-passes.sgf")
    assert uec.result_text == "White resigns. W 6.5 B 157.0"
    assert any("Comment->C" in line for line in uec.repairs)


def test_ff1_long_property_names():
    r = sample("ff1-long-property-names-xmgt.sgf")
    assert {"FF", "GM", "VW", "SZ", "PB", "PW", "KM", "B"} <= set(r.root.properties)
    assert r.root.get("FF") == "4"  # written back in FF[4] syntax
    assert any("PlayerBlack->PB" in line for line in r.repairs)


def test_jago_consecutive_black_moves_without_handicap():
    r = sample("jago-gb2312-comment-consecutive-black-crlf.sgf")
    assert sgf_moves(r, 4) == ["Bdp", "Bpd", "Bdd", "Wpp"]
    game, _ = load_game(SAMPLES / "jago-gb2312-comment-consecutive-black-crlf.sgf")
    assert game.moves[:3] == [Move(Color.BLACK, (3, 3)), Move(Color.BLACK, (15, 15)), Move(Color.BLACK, (15, 3))]


def test_glgo_handicap_nine():
    r = sample("glgo-gb2312-no-CA-ha9-tt-passes.sgf")
    assert len(r.setup_stones[0]) == 9
    game, _ = load_game(SAMPLES / "glgo-gb2312-no-CA-ha9-tt-passes.sgf")
    assert game.handicap == 9 and game.move_number == 400


def test_gogui_handicap_without_size_or_komi():
    r = sample("gogui-ha7-no-SZ-no-KM-empty-passes.sgf")
    assert len(r.setup_stones[0]) == 7
    assert r.rules.komi == 0.0  # no KM: komi 0
    game, _ = load_game(SAMPLES / "gogui-ha7-no-SZ-no-KM-empty-passes.sgf")
    assert game.handicap == 7 and game.to_move is Color.WHITE


def test_gowrite_lone_setup_stone_is_not_a_handicap():
    r = sample("gowrite-blank-names-variations.sgf")
    assert r.handicap == 0 and sgf_points(r.setup_stones[0]) == {"pq"}
    assert r.game_name is None
    game, _ = load_game(SAMPLES / "gowrite-blank-names-variations.sgf")
    assert game.handicap == 0 and game.board[(2, 15)] is Color.BLACK


def test_no_ff_no_sz_jd_date():
    r = sample("no-FF-no-SZ-JD-property.sgf")
    assert r.date == "1846-11-09"
    assert r.root.get("JD") == "Koka 3-9-21"


def test_escaped_and_stray_brackets():
    assert sample("comment-escaped-close-bracket.sgf").comments == {0: "here is a closing bracket! ]"}
    r = sample("stray-unescaped-close-bracket.sgf")
    assert sgf_moves(r) == ["Bqd", "Wod", "Boc", "Wnc", "Bpc", "Wnd", "Bqf", "Wjd"]
    assert r.repairs == ["line 12, column 8: stray ']' skipped"]
    kgs = sample("kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf")
    assert any("mstarsup5 [6d?]: f8" in c for c in kgs.comments.values())


def test_ff4_example_collection():
    data = (SAMPLES / "ff4-example-collection-compressed-points.sgf").read_bytes()
    first, second = read_collection(data)
    assert (first.size, len(first.moves), passes(first)) == (19, 13, 2)
    assert (second.size, len(second.moves)) == (19, 2)
    assert any("2 game trees" in line for line in read_record(data).repairs)
    # compressed point lists: AB[do:gq] somewhere in the first tree
    ranges = [n for n in first.root.walk() if any(":" in v for v in n.properties.get("AB", []))]
    assert ranges
    soft = [n.get("C") for n in first.root.walk() if n.get("C") and "linebreak 1" in n.get("C")]
    assert soft and 'linebreak 1 "\\n": >ok<' in soft[0]


def test_sgfc_broken_file_is_read_with_repairs():
    data = (SAMPLES / "sgfc-evil-test-many-errors.sgf").read_bytes()
    r = read_record(data)
    assert len(r.repairs) > 10
    assert any("before the first game tree" in line for line in r.repairs)
    assert any("NUL" in line for line in r.repairs)
    assert any("unexpected end of input" in line for line in r.repairs)
    assert any("B[90] is not a point" in line for line in r.repairs)
    with pytest.raises(SgfError, match=r"game 2: root node, line 18, column 22: SZ\[-10\]"):
        read_collection(data)


def test_collection_with_two_charsets():
    records = read_collection((SAMPLES / "collection-two-games-different-CA.sgf").read_bytes())
    assert len(records) == 2 and all(len(r.moves) == 0 for r in records)


def test_nihonkiin_record():
    r = sample("nihonkiin-shiftjis-no-CA-no-root-semicolon.sgf")
    assert r.result_text == "257手完, 黒中押し勝ち"
    assert any("missing ';'" in line for line in r.repairs)
    assert any("KO[" in line and "6.5" in line for line in r.repairs)


def test_tygem_global_handicap():
    r = sample("tygem-global-handicap3.gib")
    assert sgf_points(r.setup_stones[0]) == {"dp", "pd", "dd"}
    assert sgf_moves(r, 2) == ["Wpp", "Bnq"]
    assert r.date == "2016-03-26"
    assert (r.black_rank, r.white_rank) == ("15K", "10K")


def test_ngf_files():
    even = sample("wbaduk-cyberoro-even.ngf")
    assert sgf_moves(even, 4) == ["Bqd", "Wdd", "Bpq", "Wdp"]
    assert (even.black_rank, even.white_rank, even.date) == ("9p", "9p", "2017-03-16")
    h2 = sample("wbaduk-cyberoro-handicap2.ngf")
    assert (h2.black_rank, h2.white_rank) == ("5d", "7d")
    gi = sample("wbaduk-gb2312.ngf")
    assert gi.game_name == "韩国十段战"
    assert {gi.black, gi.white} == {"朴承华", "李载雄"}
    assert {gi.black_rank, gi.white_rank} == {"初段", "五段"}
    assert gi.date == "2006-09-05" and len(gi.moves) == 211


# ------------------------------------------------------------------ round trips
def _records(name: str) -> list[SgfRecord]:
    data = (SAMPLES / name).read_bytes()
    if name.startswith("sgfc"):
        return [read_record(data, filename=name)]
    return read_collection(data, filename=name)


@pytest.mark.parametrize("name", ALL_FILES)
def test_read_write_read_gives_the_same_record(name):
    for record in _records(name):
        text = record.to_sgf()
        again = read_record(text)
        assert again == record
        assert read_record(text.encode("utf-8")) == record
        assert again.to_sgf() == text
        # what was repaired once stays repaired
        assert not [line for line in again.repairs if "read as B+R" not in line]


@pytest.mark.parametrize("name", ALL_FILES)
def test_replay_and_write_game(name):
    game, record = load_game(SAMPLES / name)
    assert game.moves == record.moves
    text = game_to_sgf(game, record=record)
    game2, record2 = load_game(text)
    assert game2.history == game.history
    assert game2.handicap_points == game.handicap_points
    assert str(game2.result) == str(game.result) and game2.phase == game.phase
    for colour in (Color.BLACK, Color.WHITE):
        assert sorted(game2.board.stones(colour)) == sorted(game.board.stones(colour))
    # the variations and unknown properties come back
    assert sum(1 for _ in record2.root.walk()) == sum(1 for _ in record.root.walk())
    assert set(record.root.properties) - {"AP", "HA", "RU", "KM", "PL"} <= set(record2.root.properties)


def test_finished_records_end_with_their_result():
    game, _ = load_game(SAMPLES / "manyfaces-latin1-no-CA-crlf-tt-passes.sgf")
    assert game.phase is Phase.FINISHED and str(game.result) == "B+206.5"


def test_records_that_play_on_after_two_passes():
    game, record = load_game(SAMPLES / "igs-pandanet-CoPyright-multiline.sgf")
    assert game.move_number == 204 and str(game.result) == "W+34.5"
