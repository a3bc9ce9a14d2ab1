"""Records and games (:mod:`miai.sgf.game`): replays through the checked Game API, writing a
game with or without the record it came from, and round trips of random games."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai import Color, Game, Move, Rules
from miai.errors import SgfError
from miai.game import Phase, Setup
from miai.rules import PRESETS
from miai.sgf import game_from_record, game_to_sgf, load_game, read_record
from tests.sgf import has


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


@pytest.mark.parametrize("rules", ["Tromp-Taylor", "simple"])
def test_a_records_result_survives_load_and_save_when_the_replay_counts_otherwise(rules):
    """Two passes end the game under these rules and the replay counts it (B+24.5 on an
    almost empty 5x5 board); the record's RE[B+4.5] is still what is written back."""
    text = f"(;SZ[5]RU[{rules}]KM[0.5]RE[B+4.5];B[cc];W[];B[])"
    game, record = load_game(text)
    assert str(game.result) == "B+24.5" and str(record.result) == "B+4.5"
    assert has(record, "RE[B+4.5] but the game as replayed", "ends B+24.5")
    notes: list[str] = []
    written = read_record(game_to_sgf(game, record=record, notes=notes))
    assert written.result_text == "B+4.5"
    assert notes == ["the record's RE[B+4.5] kept; the game as counted here ends B+24.5"]


@pytest.mark.parametrize("words", ["白认输", "W+Resign", "黒中押し勝ち", "B+V", "adjourned"])
def test_a_records_result_is_written_in_its_own_words(words):
    game, record = load_game(f"(;SZ[9]RE[{words}];B[ee];W[cc])")
    assert read_record(game_to_sgf(game, record=record)).result_text == words


def test_a_records_result_is_replaced_or_dropped_once_the_game_goes_on():
    game, record = load_game("(;SZ[9]RE[W+R];B[ee];W[cc])")
    game.undo()  # the given result
    game.undo()
    game.play(Move(Color.WHITE, (2, 2)))
    notes: list[str] = []
    written = read_record(game_to_sgf(game, record=record, notes=notes))
    assert written.result_text is None and notes == [
        "the record's RE[W+R] dropped: the game was played on from the record and has not ended"
    ]
    game.resign(Color.WHITE)
    notes.clear()
    written = read_record(game_to_sgf(game, record=record, notes=notes))
    assert written.result_text == "B+R" and notes == ["the record's RE[W+R] replaced by B+R: the game was played on from the record"]
    # the record's other line stays as a variation with its moves
    assert [c.move for c in written.main_line[1].children] == [("W", "cg"), ("W", "cc")]


@pytest.mark.parametrize("source", ["", "   ", b"", "\n"])
def test_load_game_of_nothing_is_an_error(source):
    with pytest.raises(SgfError, match="no record given: the source is empty"):
        load_game(source)  # "" named the current directory before


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



# ---------------------------------------------------------------------- time controls and times left
@pytest.mark.parametrize(
    ("control", "tm", "ot"),
    [
        ("absolute:600", "600", None),
        ("byoyomi:300:30:5", "300", "5x30 byo-yomi"),
        ("canadian:600:300:25", "600", "25/300 Canadian"),
        ("fischer:300:10:600", "300", "10 fischer (cap 600)"),
        ("fischer:90.5:2", "90.5", "2 fischer"),
        ("simple:5", "0", "5 simple"),
    ],
)
def test_the_time_control_is_written_as_tm_and_ot(control, tm, ot):
    from miai.clock import TimeControl

    game = Game(9)
    game.play("E5")
    root = read_record(game_to_sgf(game, time_control=TimeControl.parse(control))).root.properties
    assert root["TM"] == [tm]
    assert root.get("OT") == ([ot] if ot is not None else None)


def test_times_left_are_written_on_their_moves():
    from miai.clock import TimeControl, TimeLeft

    game = Game(9)
    for m in ("E5", "D4", "pass", "C3"):
        game.play(m)
    times = {1: TimeLeft(299_500), 2: TimeLeft(12_345, 3), 4: TimeLeft(0, 1)}
    text = game_to_sgf(game, time_control=TimeControl.parse("byoyomi:300:30:5"), times=times)
    nodes = read_record(text).main_line
    assert nodes[1].properties["BL"] == ["299.5"] and "OB" not in nodes[1].properties
    assert nodes[2].properties["WL"] == ["12.345"] and nodes[2].properties["OW"] == ["3"]
    assert "BL" not in nodes[3].properties  # no time given for the pass
    assert nodes[4].properties["WL"] == ["0"] and nodes[4].properties["OW"] == ["1"]
    assert game_from_record(read_record(text)).moves == game.moves  # the record still reads back


def test_no_time_control_writes_no_time_properties():
    from miai.clock import TimeControl

    game = Game(9)
    game.play("E5")
    for text in (game_to_sgf(game), game_to_sgf(game, time_control=TimeControl())):
        assert "TM[" not in text and "OT[" not in text and "BL[" not in text
