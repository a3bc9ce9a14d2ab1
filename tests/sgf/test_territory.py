"""SGF territory marks (TB/TW in the last node): the writer puts a counted game's territory
and dead stones there, the reader ends a record in the marking phase with them."""

from __future__ import annotations

import pytest

from miai import Color, Game, Phase, Rules
from miai.result import EndReason, Result
from miai.coords import point_from_gtp, point_from_sgf
from miai.endgame import whole_chains
from miai.sgf import SgfRecord, game_to_sgf, load_game, read_record
from tests.diagrams import SEKI_GNUGO_43, game_from
from tests.samples import SAMPLES
from tests.sgf import has

# Black owns column A, White columns D-E; D2 is a dead black stone inside White's area.
POSITION = """
    . X O . .
    . X O . .
    X X O O O
    . X O X .
    . X O . .
"""
BLACK_MARKS = ["aa", "ab", "ad", "ae"]  # A5 A4 A2 A1
WHITE_MARKS = ["da", "db", "dd", "de", "ea", "eb", "ed", "ee"]  # dd is the dead D2
D2 = point_from_gtp("D2", 5)
SETUP = "SZ[5]RU[Japanese]KM[6.5]AB[ba][bb][ac][bc][bd][be][dd]AW[ca][cb][cc][dc][ec][cd][ce]"
"""The root properties of a record of POSITION."""


def finished(rules: str = "japanese", dead=(D2,)) -> Game:
    game = game_from(POSITION, Rules.preset(rules))
    game.pass_move()
    game.pass_move()
    game.finish(dead)
    return game


def marks(record: SgfRecord) -> tuple[list[str] | None, list[str] | None]:
    node = record.main_line[-1]
    return node.properties.get("TB"), node.properties.get("TW")


# ------------------------------------------------------------------ writing
@pytest.mark.parametrize("rules", ["japanese", "chinese"])
def test_counted_game_writes_territory_and_dead_stones_in_the_last_node(rules):
    game = finished(rules)
    record = read_record(game_to_sgf(game))
    # Territory only (never living stones, under area scoring too), dead stones on the
    # other colour's list, points sorted.
    assert marks(record) == (BLACK_MARKS, WHITE_MARKS)
    assert record.main_line[-1].move == ("W", "")
    assert all("TB" not in n and "TW" not in n for n in record.main_line[:-1])


@pytest.mark.parametrize("rules", ["japanese", "chinese", "aga"])
def test_round_trip_restores_the_final_score(rules):
    game = finished(rules)
    text = game_to_sgf(game)
    game2, record = load_game(text)
    assert game2.phase is Phase.FINISHED
    assert game2.final_score == game.final_score  # result, breakdown, dead stones, owners
    assert game2.final_score.dead_stones == {D2}
    assert str(game2.result) == str(game.result) == str(record.result)
    assert game2.end_reason is EndReason.AGREEMENT
    assert record.repairs == []
    assert game_to_sgf(game2, record=record) == text


def test_round_trip_with_no_dead_stones_and_with_a_whole_chain_dead():
    game = finished("japanese", dead=())
    # D2 alive: D1, E1 and E2 touch both colours and count for nobody.
    assert marks(read_record(game_to_sgf(game))) == (BLACK_MARKS, ["da", "db", "ea", "eb"])
    assert load_game(game_to_sgf(game))[0].final_score == game.final_score
    # The whole black wall dead: every empty point and dead stone goes to White.
    wall = whole_chains(game_from(POSITION).board, [point_from_gtp("B3", 5)]) | {D2}
    game = finished("japanese", dead=wall)
    tb, tw = marks(read_record(game_to_sgf(game)))
    assert tb is None and len(tw) == 25 - 7  # all but White's seven living stones
    game2, _ = load_game(game_to_sgf(game))
    assert game2.final_score.dead_stones == wall and str(game2.result) == str(game.result)


def test_japanese_seki_round_trip():
    """Under Japanese rules the eye of a seki is nobody's: the writer leaves it unmarked and
    the reader, to reach RE, takes the stones around it as seki."""
    game = game_from(SEKI_GNUGO_43, Rules.preset("japanese"))
    game.pass_move()
    game.pass_move()
    seki = whole_chains(game.board, [point_from_gtp(v, 9) for v in ("E8", "H8", "H9")])
    score = game.finish(seki=seki)
    assert str(score.result) != str(game.score().result)  # the seki changes the count
    text = game_to_sgf(game)
    tb, tw = marks(read_record(text))
    assert "ga" not in tw  # G9, White's eye in the seki
    assert "ca" in tb  # C9, Black's eye outside it
    game2, record = load_game(text)
    assert game2.phase is Phase.FINISHED and game2.final_score == score
    assert record.repairs == []


@pytest.mark.parametrize(
    "end",
    [
        lambda g: g.resign(Color.BLACK),
        lambda g: g.lose_on_time(Color.WHITE),
        lambda g: g.set_result(Result.parse("B+2")),
        lambda g: None,  # still being played
    ],
)
def test_games_not_ended_by_counting_write_no_marks(end):
    game = game_from(POSITION, Rules.preset("japanese"))
    game.play("E2")
    end(game)
    text = game_to_sgf(game)
    assert "TB[" not in text and "TW[" not in text


def test_marking_phase_writes_no_marks():
    game = game_from(POSITION, Rules.preset("japanese"))
    game.pass_move()
    game.pass_move()
    assert game.phase is Phase.MARKING
    assert "TB[" not in game_to_sgf(game)


def test_records_marks_are_replaced_or_left_alone():
    # Marks on empty points that contradict the count: the game is counted, and the marks
    # written back are the count's.
    text = f"(;{SETUP};B[];W[]TB[ee]TW[aa][dd])"
    game, record = load_game(text)
    assert game.final_score.dead_stones == {D2}
    assert marks(read_record(game_to_sgf(game, record=record))) == (BLACK_MARKS, WHITE_MARKS)
    # Not counted (the game was resigned during the count): the record's marks stay.
    text = f"(;{SETUP}RE[B+R];B[];W[]TB[ee]TW[aa][dd])"
    game, record = load_game(text)
    assert game.final_score is None
    assert marks(read_record(game_to_sgf(game, record=record))) == (["ee"], ["aa", "dd"])


def test_marks_go_after_the_last_move_on_a_trailing_comment_node():
    text = f"(;{SETUP};B[];W[];C[counted])"
    record = read_record(text)
    game = load_game(text)[0]
    game.finish([D2])
    written = read_record(game_to_sgf(game, record=record))
    assert written.main_line[-1].get("C") == "counted"
    assert marks(written) == (BLACK_MARKS, WHITE_MARKS)
    assert "TB" not in written.main_line[-2]


# ------------------------------------------------------------------ reading

def test_marks_without_re_end_the_game_by_counting():
    game, record = load_game(f"(;{SETUP};B[];W[]TB[aa][ab]TW[dd][ee])")
    assert game.phase is Phase.FINISHED
    assert game.final_score.dead_stones == {D2}
    # Marks on empty points are not checked: the count is the board's, with D2 removed.
    assert game.final_score == finished().final_score
    assert str(game.result) == "W+11.5" and record.repairs == []


def test_marks_that_contradict_re_keep_re_with_a_note():
    game, record = load_game(f"(;{SETUP}RE[B+3];B[];W[]TB[aa]TW[dd])")
    assert game.phase is Phase.FINISHED and str(game.result) == "B+3"
    assert game.final_score is None and game.end_reason is EndReason.RECORD
    assert has(record, "RE[B+3]", "W+11.5", "D2", "node 2")


def test_resignation_after_two_passes_keeps_re():
    game, record = load_game(f"(;{SETUP}RE[White resigns];B[];W[]TB[aa]TW[dd])")
    assert str(game.result) == "B+R" and game.final_score is None
    assert has(record, "RE[White resigns]", "W+11.5")


def test_marks_are_read_only_in_the_marking_phase():
    # Play resumed after two passes: the game is not in the marking phase.
    game, _ = load_game(f"(;{SETUP};B[];W[];B[aa]TB[ab]TW[dd])")
    assert game.phase is Phase.PLAY and game.final_score is None
    # Rules that count stones as they stand finish at two passes: the marks are ignored.
    game, _ = load_game(f"(;{SETUP.replace('Japanese', 'Tromp-Taylor')};B[];W[]TW[dd])")
    assert game.phase is Phase.FINISHED and game.final_score.dead_stones == frozenset()
    # Marks before the last node mean nothing.
    game, _ = load_game(f"(;{SETUP};B[]TW[dd];W[])")
    assert game.phase is Phase.MARKING


def test_bad_mark_values_are_ignored_with_a_note():
    game, record = load_game(f"(;{SETUP};B[];W[]TW[dd][zz][])")
    assert game.final_score.dead_stones == {D2}
    assert has(record, "TW[zz]", "not a point") and has(record, "TW[]")


def test_compressed_marks():
    game, _ = load_game(f"(;{SETUP};B[];W[]TW[dd:ee])")
    assert game.final_score.dead_stones == {D2}


def test_a_draw_written_as_a_tie_rule_win_still_matches():
    rules = "japanese komi=0 white_wins_ties=true"
    game = game_from(POSITION, Rules.parse(rules))
    game.pass_move()
    game.pass_move()
    game.finish([])
    text = game_to_sgf(game)
    game2, record = load_game(text, Rules.parse(rules))
    assert game2.final_score == game.final_score and record.repairs == []


# ------------------------------------------------------------------ real records
def test_kgs_record_ends_with_its_marked_territory():
    """CGoban2 marks the territory (13 points each here, no dead stones) on the last pass;
    the record has no RE: the game is counted with those marks, W+7.5 under its Japanese
    rules and komi 0.5."""
    game, record = load_game(SAMPLES / "kgs-cgoban2-handicap5-empty-passes.sgf")
    assert record.result is None and game.phase is Phase.FINISHED
    score = game.final_score
    assert score.dead_stones == frozenset() and str(score.result) == "W+7.5"
    assert (score.black.territory, score.white.territory) == (13, 13)
    tb, tw = marks(record)
    for colour, values in ((1, tb), (2, tw)):
        points = {point_from_sgf(v, 19) for v in values}
        assert all(game.board[p] is None and score.owners[p[0]][p[1]] == colour for p in points)
    # Writing it back gives the same marks (sorted) and the counted result.
    written = read_record(game_to_sgf(game, record=record))
    assert marks(written) == (sorted(tb), sorted(tw)) and str(written.result) == "W+7.5"


def test_igs_record_plays_a_third_pass_so_its_marks_are_not_read():
    """IGS writes three passes in a row (B, W, B) and the marks in an empty node after them:
    the replay resumes play at the third pass, so the game is not in the marking phase and
    RE stands as a given result. The marks' one dead stone (Black H13) does count to RE
    under Japanese rules with komi 0.5."""
    rules = Rules.preset("japanese").replace(komi=0.5)
    game, record = load_game(SAMPLES / "igs-pandanet-CoPyright-multiline.sgf", rules)
    assert game.move_number == 204 and game.consecutive_passes == 1
    assert str(game.result) == "W+34.5" and game.final_score is None
    tb, tw = marks(record)
    dead = {p for p in (point_from_sgf(v, 19) for v in tb) if game.board[p] is Color.WHITE}
    dead |= {p for p in (point_from_sgf(v, 19) for v in tw) if game.board[p] is Color.BLACK}
    assert dead == {point_from_gtp("H13", 19)}
    assert str(game.score(dead).result) == "W+34.5" == str(record.result)
    # Not counted here: writing it back leaves the record's marks as they were.
    assert marks(read_record(game_to_sgf(game, record=record))) == (tb, tw)
