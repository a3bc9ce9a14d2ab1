"""SGF: the tolerant grammar and its repair report, errors with locations, the record's
facts, rules and results, writing, and games through the checked Game API."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai import Color, Game, Move, Rules
from miai.errors import SgfError
from miai.game import Phase, Setup
from miai.rules import PRESETS, KoRule
from miai.sgf import (
    SgfNode,
    SgfRecord,
    decode_sgf_bytes,
    game_from_record,
    game_to_sgf,
    load_game,
    normalise_result,
    read_collection,
    read_record,
    rules_from_text,
    rules_to_text,
    write_collection,
)


def has(record: SgfRecord, *words: str) -> bool:
    """Some repair line mentions all ``words``."""
    return any(all(w in line for w in words) for line in record.repairs)


# ------------------------------------------------------------------ the grammar
def test_plain_record():
    r = read_record("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bob]BR[3d]WR[2k]DT[2024-01-02]GN[test]RE[B+2.5]"
                    ";B[ee]C[centre];W[cc];B[])")  # fmt: skip
    assert (r.size, r.komi, r.handicap) == (9, 7.0, 0)
    assert (r.black, r.white, r.black_rank, r.white_rank) == ("Ann", "Bob", "3d", "2k")
    assert (r.date, r.game_name, r.result, r.result_text) == ("2024-01-02", "test", "B+2.5", "B+2.5")
    assert r.rules == PRESETS["chinese"].replace(komi=7.0)
    assert r.moves == [Move(Color.BLACK, (4, 4)), Move(Color.WHITE, (6, 2)), Move(Color.BLACK, None)]
    assert r.comments == {1: "centre"}
    assert r.repairs == []
    assert "9x9 Ann (B) vs Bob (W)" in repr(r)


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


# ------------------------------------------------------------------ repairs
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


def test_komi_in_japanese_words():
    r = read_record("(;KO[黒6目半];B[aa])")
    assert r.komi == 6.5 and has(r, "KO[")


def test_no_komi_means_zero_in_the_rules():
    r = read_record("(;SZ[9];B[aa])")
    assert r.komi is None and r.rules.komi == 0.0


@pytest.mark.parametrize("ha, value", [("对子", 0), ("让5子", 5), ("two", 0)])
def test_non_numeric_handicap(ha, value):
    r = read_record(f"(;SZ[19]HA[{ha}];B[aa])")
    assert r.handicap == value and has(r, f"HA[{ha}] is not a number")


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


# ------------------------------------------------------------------ rules and results
@pytest.mark.parametrize(
    "text, preset, warned",
    [
        ("Japanese", "japanese", False),
        ("chinese", "chinese", False),
        ("AGA", "aga", False),
        ("NZ", "new-zealand", False),
        ("Tromp-Taylor", "tromp-taylor", False),
        ("Japanese rules (1989)", "japanese", True),
        ("Chinese, with superko", "chinese", True),
        ("Korean rules", "korean", True),
        ("Ing", "chinese", True),
        ("whatever", "chinese", True),
        (None, "chinese", False),
    ],
)
def test_rules_from_text(text, preset, warned):
    rules, warning = rules_from_text(text)
    assert rules == PRESETS[preset]
    assert (warning is not None) == warned


def test_unknown_rules_are_kept_as_text_with_a_warning():
    r = read_record("(;RU[Foo rules]KM[6.5];B[aa])")
    assert r.rules_text == "Foo rules" and r.rules == PRESETS["chinese"].replace(komi=6.5)
    assert has(r, "RU[Foo rules]", "chinese")


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_round_trip_through_ru(name):
    rules = PRESETS[name].replace(komi=3.5)
    assert rules_from_text(rules_to_text(rules))[0].replace(komi=3.5) == rules
    odd = PRESETS[name].replace(ko=KoRule.SITUATIONAL if PRESETS[name].ko is not KoRule.SITUATIONAL else KoRule.SIMPLE)
    assert rules_from_text(rules_to_text(odd)) == (odd, None)


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
def test_normalise_result(text, result):
    assert normalise_result(text) == result


# ------------------------------------------------------------------ encodings
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


def test_written_text_is_utf8():
    r = read_record("(;CA[Shift_JIS]PB[井山];B[aa])".encode("shift_jis"))
    text = r.to_sgf()
    assert "CA[UTF-8]" in text and read_record(text.encode("utf-8")).black == "井山"


# ------------------------------------------------------------------ errors
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


def test_bad_gib_raises():
    with pytest.raises(SgfError, match="not a readable Tygem GIB file"):
        read_record(b"\\HS\n\\HE\n", filename="x.gib")


def test_type_error_for_other_input():
    with pytest.raises(TypeError):
        read_record(42)  # type: ignore[arg-type]


# ------------------------------------------------------------------ round trips
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


# ------------------------------------------------------------------ games
def test_game_from_record_plays_with_explicit_colours():
    r = read_record("(;SZ[9];B[aa];B[bb];W[cc])")
    game = game_from_record(r)
    assert game.moves == r.moves and game.to_move is Color.BLACK


def test_handicap_and_setup_are_replayed():
    r = read_record("(;SZ[9]HA[2]AB[cc][gg];W[ee])")
    game = game_from_record(r)
    assert game.handicap == 2 and game.history == [Move(Color.WHITE, (4, 4))]
    r = read_record("(;SZ[9]AB[cc]AW[gg]PL[W];W[ee];AE[cc]AB[aa];B[bb])")
    game = game_from_record(r)
    assert game.handicap == 0
    assert game.history[0] == Setup(black=((6, 2),), white=((2, 6),), to_move=Color.WHITE)
    assert game.board[(6, 2)] is None and game.board[(8, 0)] is Color.BLACK


def test_illegal_move_raises_with_move_number_and_place():
    r = read_record("(;SZ[9];B[ee];W[cc]\n;B[ee])")
    with pytest.raises(SgfError) as info:
        game_from_record(r)
    message = str(info.value)
    assert "move 3 (B E5)" in message and "node 3, line 2, column 1" in message and "occupied" in message


def test_illegal_move_without_strict_stops_and_reports():
    game, record = load_game("(;SZ[9];B[ee];W[cc];B[ee];W[dd])", strict=False)
    assert game.move_number == 2
    assert has(record, "replay stopped at move 3", "2 move(s) not played")


def test_suicide_and_ko_in_a_record():
    # White fills its last liberty at a1: suicide under Japanese rules, legal multi-stone
    # suicide does not apply to one stone.
    text = "(;SZ[5]RU[Japanese];B[ba];W[aa])"
    r = read_record(text)
    r2 = read_record("(;SZ[5]RU[Japanese];B[ab];W[ee];B[ba];W[aa])")
    with pytest.raises(SgfError, match="suicide"):
        game_from_record(r2)
    assert game_from_record(r).move_number == 2


def test_explicit_rules_win():
    r = read_record("(;SZ[9]RU[Japanese]KM[6.5];B[aa])")
    game = game_from_record(r, Rules.preset("chinese"))
    assert game.rules == Rules.preset("chinese")
    assert game_from_record(r).rules == PRESETS["japanese"]


def test_result_ends_the_game():
    game, _ = load_game("(;SZ[9]RE[W+R];B[aa])")
    assert game.phase is Phase.FINISHED and str(game.result) == "W+R"
    game, _ = load_game("(;SZ[9]RE[?];B[aa])")
    assert game.phase is Phase.PLAY


def test_moves_after_two_passes_resume_play():
    game, _ = load_game("(;SZ[9]RU[Japanese];B[ee];W[];B[];W[cc];B[];W[])")
    assert game.move_number == 6 and game.phase is Phase.MARKING
    game, _ = load_game("(;SZ[9]RU[Tromp-Taylor];B[ee];W[];B[];AB[aa];W[cc])")
    assert game.move_number == 4 and game.board[(8, 0)] is Color.BLACK and game.phase is Phase.PLAY


def test_load_game_from_path_bytes_and_text(tmp_path):
    path = tmp_path / "g.sgf"
    path.write_bytes(b"(;SZ[9];B[aa])")
    for source in (path, str(path), b"(;SZ[9];B[aa])", "(;SZ[9];B[aa])"):
        game, record = load_game(source)
        assert game.move_number == 1 and record.size == 9


def test_game_to_sgf_fresh_game():
    game = Game(9, Rules.preset("japanese"), handicap=2)
    game.play("E5")
    game.play("D3")
    game.setup(black=[(0, 0)])
    game.play(None)
    text = game_to_sgf(game, black="Ann", white="Bob", date="2025-01-01", comments={0: "start", 2: "hm"})
    assert text.startswith("(;FF[4]CA[UTF-8]GM[1]AP[miai:")
    for prop in ("SZ[9]", "KM[6.5]", "HA[2]", "RU[Japanese]", "PB[Ann]", "PW[Bob]", "DT[2025-01-01]", "C[start]", "C[hm]"):
        assert prop in text
    game2, record = load_game(text)
    assert game2.history == game.history and game2.handicap_points == game.handicap_points
    assert record.comments == {0: "start", 2: "hm"}


def test_game_to_sgf_keeps_the_records_rules_text_when_the_rules_are_the_same():
    r = read_record("(;SZ[9]RU[Japanese rules (1989)]KM[6.5];B[aa])")
    game = game_from_record(r)
    assert "RU[Japanese rules (1989)]" in game_to_sgf(game, record=r)
    other = game_from_record(r, Rules.preset("aga"))
    assert "RU[AGA]" in game_to_sgf(other, record=r)


def test_game_to_sgf_writes_the_result():
    game = Game(9)
    game.play("E5")
    game.resign(Color.WHITE)
    text = game_to_sgf(game)
    assert "RE[B+R]" in text
    assert str(load_game(text)[0].result) == "B+R"


def test_game_to_sgf_with_a_new_branch_keeps_the_old_line_as_a_variation():
    r = read_record("(;SZ[9]PB[x]ZZ[keep];B[aa]C[first];W[bb];B[cc](;W[dd])(;W[ee]))")
    game = game_from_record(r)
    game.undo()
    game.undo()
    game.play(Move(Color.BLACK, (0, 0)))
    text = game_to_sgf(game, record=r)
    r2 = read_record(text)
    assert r2.moves == game.moves
    assert r2.root.get("ZZ") == "keep" and r2.black == "x" and r2.comments == {1: "first"}
    branch = r2.main_line[2]  # after W bb
    assert [c.move for c in branch.children] == [("B", "ai"), ("B", "cc")]
    assert len(branch.children[1].children) == 2  # the old variations under B cc


def test_game_to_sgf_following_a_variation_promotes_it():
    r = read_record("(;SZ[9];B[aa](;W[bb])(;W[cc];B[dd]))")
    game = game_from_record(r)
    game.undo()
    game.play(Move(Color.WHITE, (6, 2)))
    r2 = read_record(game_to_sgf(game, record=r))
    assert [c.move for c in r2.main_line[1].children] == [("W", "cc"), ("W", "bb")]
    assert r2.moves == [Move(Color.BLACK, (8, 0)), Move(Color.WHITE, (6, 2)), Move(Color.BLACK, (5, 3))]


def test_game_to_sgf_short_of_the_record_keeps_the_rest():
    r = read_record("(;SZ[9];B[aa];W[bb];B[cc])")
    game = game_from_record(r)
    game.undo()
    r2 = read_record(game_to_sgf(game, record=r))
    assert r2.moves == r.moves


def test_game_to_sgf_when_the_root_holds_a_move():
    r = read_record("(;SZ[9]B[aa];W[bb])")
    game = game_from_record(r)
    assert read_record(game_to_sgf(game, record=r)).moves == r.moves
    other = Game(9)
    other.play("E5")
    r2 = read_record(game_to_sgf(other, record=r))
    assert r2.moves == other.moves
    assert r2.root.children[1].move == ("B", "aa")  # the record's root move became a variation


# ------------------------------------------------------------------ random games
@st.composite
def random_games(draw):
    size = draw(st.integers(min_value=2, max_value=9))
    preset = draw(st.sampled_from(sorted(PRESETS)))
    game = Game(size, Rules.preset(preset).replace(komi=draw(st.sampled_from([0.0, 0.5, 6.5, 7.5]))))
    if size >= 7 and draw(st.booleans()):
        game.set_handicap([(1, 1), (size - 2, size - 2)])
    elif draw(st.booleans()):
        game.setup(black=[(0, 0)], white=[(size - 1, size - 1)], to_move=Color.WHITE)
    for _ in range(draw(st.integers(min_value=0, max_value=40))):
        if game.phase is not Phase.PLAY:
            break
        legal = game.legal_moves()
        choice = draw(st.integers(min_value=0, max_value=len(legal)))
        game.play(Move(game.to_move, legal[choice] if choice < len(legal) else None))
    if game.phase is Phase.PLAY and draw(st.booleans()):
        game.resign()
    return game


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_random_games_round_trip(game):
    text = game_to_sgf(game)
    game2, record = load_game(text)
    assert game2.history == game.history
    assert game2.handicap_points == game.handicap_points
    assert game2.rules == game.rules
    assert str(game2.result) == str(game.result) and game2.phase == game.phase
    for colour in (Color.BLACK, Color.WHITE):
        assert sorted(game2.board.stones(colour)) == sorted(game.board.stones(colour))
    assert read_record(record.to_sgf()) == record
    assert read_record(game_to_sgf(game2, record=record)) == record
