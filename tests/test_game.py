"""Game: legality with reasons, ko and superko, passes and phases, handicap, undo."""

from __future__ import annotations

import pytest

from miai import (
    Color,
    EndReason,
    Game,
    GameSpec,
    IllegalMoveError,
    IllegalReason,
    Move,
    Phase,
    Rules,
)
from miai.errors import HandicapError, InvalidMoveError
from miai.rules import KoRule
from tests.diagrams import draw, game_from, same


def play_all(game: Game, moves: str) -> None:
    for v in moves.split():
        game.play(v)


def test_capture_removes_stones_and_counts_prisoners():
    game = game_from(
        """
        . . . . .
        . X . . .
        X O X . .
        . . . . .
        . . . . .
        """
    )
    game.play("B2")
    assert same(
        draw(game),
        """
        . . . . .
        . X . . .
        X . X . .
        . X . . .
        . . . . .
        """,
    )
    assert game.captures(Color.BLACK) == 1 and game.captures(Color.WHITE) == 0


def test_capture_of_a_chain_on_the_edge():
    game = game_from(
        """
        O O O . .
        X X X . .
        . . . . .
        . . . . .
        . . . . .
        """,
        to_move=Color.BLACK,
    )
    game.play("D5")
    assert game.board[(4, 0)] is None and game.captures(Color.BLACK) == 3


def test_occupied_and_off_board():
    game = Game(9)
    game.play("E5")
    with pytest.raises(IllegalMoveError) as err:
        game.play("E5")
    assert err.value.reason is IllegalReason.OCCUPIED
    assert "E5 is occupied by a black stone" in str(err.value)
    with pytest.raises(InvalidMoveError, match="off the 9x9 board"):
        game.play("K10")
    with pytest.raises(InvalidMoveError):
        game.play("I5")  # GTP has no column I
    assert game.move_number == 1  # failed moves change nothing


def test_suicide_forbidden_and_multi_stone_suicide_by_rule():
    diagram = """
        . X . . .
        X . X . .
        O X . . .
        . O . . .
        . . . . .
        """
    game = game_from(diagram, to_move=Color.WHITE)
    with pytest.raises(IllegalMoveError) as err:
        game.play("B4")
    assert err.value.reason is IllegalReason.SUICIDE
    # multi-stone suicide: White B4+... build a two-stone suicide under NZ rules
    nz = game_from(
        """
        X O X . .
        X . X . .
        . X . . .
        . . . . .
        . . . . .
        """,
        rules=Rules.preset("new-zealand"),
        to_move=Color.WHITE,
    )
    assert nz.legality("B4") is None  # joins B5 (one liberty left: B4) and both die
    nz.play("B4")
    assert nz.board[(4, 1)] is None and nz.board[(3, 1)] is None
    assert nz.captures(Color.BLACK) == 2  # suicided stones count for the opponent
    single = game_from(diagram, rules=Rules.preset("new-zealand"), to_move=Color.WHITE)
    with pytest.raises(IllegalMoveError, match="single stone's suicide") as err:
        single.play("B4")
    assert err.value.reason is IllegalReason.SUICIDE


KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
    """


@pytest.mark.parametrize("preset", ["japanese", "chinese", "aga"])
def test_simple_ko_forbids_the_immediate_retake_under_every_rule(preset):
    game = game_from(KO, rules=Rules.preset(preset))
    game.play("C4")  # Black captures B4
    assert game.captures(Color.BLACK) == 1
    assert game.ko_point == (3, 1)
    with pytest.raises(IllegalMoveError) as err:
        game.play("B4")
    assert err.value.reason is IllegalReason.KO
    assert "retakes the ko" in str(err.value)
    game.play("E1")  # a ko threat elsewhere
    game.play("E2")
    game.play("B4")  # now White may retake
    assert game.board[(3, 1)] is Color.WHITE


def test_pass_lifts_simple_ko():
    game = game_from(KO, rules=Rules.preset("japanese"))
    game.play("C4")
    game.pass_move()
    assert game.ko_point is None  # Black to move now; the ban was on White's very next move
    game.pass_move()
    # Japanese rules: two passes end play
    assert game.phase is Phase.MARKING


TRIPLE_KO = """
    . X O . . . X O .
    X . X O . X O . O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X . X O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """
# Three kos: top left held by Black (C8), top right by White (G8), left by Black (C4).
CYCLE = "B8 H8 B4 C8 G8 C4"  # W takes 1, B takes 2, W takes 3, B takes 1, W takes 2, B takes 3


def triple_ko(preset: str) -> Game:
    game = game_from(TRIPLE_KO, rules=Rules.preset(preset), to_move=Color.WHITE)
    return game


def test_triple_ko_cycle_is_void_on_third_repetition_under_japanese_rules():
    game = triple_ko("japanese")
    start = game.board.hash
    play_all(game, CYCLE)
    assert game.board.hash == start and game.to_move is Color.WHITE
    assert game.phase is Phase.PLAY  # second occurrence
    play_all(game, CYCLE)
    assert game.phase is Phase.FINISHED
    assert str(game.result) == "Void"
    assert game.end_reason is EndReason.REPETITION and "third time" in game.end_words
    with pytest.raises(IllegalMoveError) as err:
        game.play("A1")
    assert err.value.reason is IllegalReason.WRONG_PHASE


def test_triple_ko_cycles_forever_without_the_void_rule():
    game = game_from(TRIPLE_KO, rules=Rules.preset("japanese").replace(void_on_repetition=False), to_move=Color.WHITE)
    for _ in range(4):
        play_all(game, CYCLE)
    assert game.phase is Phase.PLAY and game.move_number == 24


@pytest.mark.parametrize(("preset", "kind"), [("chinese", "positional"), ("aga", "situational")])
def test_superko_forbids_completing_the_cycle_and_names_the_move(preset, kind):
    game = triple_ko(preset)
    moves = CYCLE.split()
    play_all(game, " ".join(moves[:5]))
    with pytest.raises(IllegalMoveError) as err:
        game.play(moves[5])
    assert err.value.reason is IllegalReason.SUPERKO
    assert err.value.repeats_move == 0
    assert "starting position" in str(err.value) and kind in str(err.value)
    assert game.move_number == 5 and game.board[(3, 2)] is None  # nothing changed


def test_superko_names_a_later_move():
    game = triple_ko("chinese")
    game.play("A1")  # both play elsewhere first: the cycle then repeats move 2's position
    game.play("A2")
    play_all(game, "B8 H8 B4 C8 G8")
    with pytest.raises(IllegalMoveError) as err:
        game.play("C4")
    assert err.value.repeats_move == 2
    assert "after move 2" in str(err.value)


def test_two_passes_end_play_counting_as_they_stand_under_tromp_taylor():
    game = Game(5, Rules.preset("tromp-taylor"))
    play_all(game, "C3 pass pass")
    assert game.phase is Phase.FINISHED
    assert str(game.result) == "B+17.5"  # 25 points of area against komi 7.5


def test_two_passes_enter_marking_then_finish_with_dead_stones():
    game = Game(5, Rules.preset("chinese"))
    play_all(game, "C3 B2 pass pass")
    assert game.phase is Phase.MARKING and game.result is None
    with pytest.raises(IllegalMoveError) as err:
        game.play("D4")
    assert err.value.reason is IllegalReason.WRONG_PHASE
    score = game.finish(dead=[(1, 1)])
    assert game.phase is Phase.FINISHED
    assert str(score.result) == str(game.result) == "B+17.5"
    game.undo()  # back to marking
    assert game.phase is Phase.MARKING
    game.undo()  # take back the second pass
    assert game.phase is Phase.PLAY and game.to_move is Color.WHITE


def test_resign_and_time_and_undo_of_resignation():
    game = Game(9)
    game.play("E5")
    assert str(game.resign()) == "B+R" and game.phase is Phase.FINISHED
    assert (game.end_reason, game.end_words) == (EndReason.RESIGNATION, "white resigned")
    game.undo()
    assert game.phase is Phase.PLAY and game.to_move is Color.WHITE and game.end_reason is None
    assert str(game.lose_on_time(Color.BLACK)) == "W+T"
    assert (game.end_reason, game.end_words) == (EndReason.TIME, "black ran out of time")
    with pytest.raises(IllegalMoveError):
        game.resign(Color.WHITE)


def test_out_of_turn_moves_are_allowed_with_an_explicit_colour():
    game = Game(9)
    game.play(Move(Color.BLACK, (2, 2)))
    game.play(Move(Color.BLACK, (3, 3)))
    assert game.to_move is Color.WHITE and game.move_number == 2


def test_fixed_handicap_white_first_and_handicap_position_counts_for_superko():
    game = Game(19, Rules.preset("chinese"), handicap=4)
    assert sorted(game.board.stones(Color.BLACK)) == [(3, 3), (3, 15), (15, 3), (15, 15)]
    assert game.to_move is Color.WHITE and game.handicap == 4
    assert game.score().white.handicap_bonus == 4
    assert Game(19, Rules.preset("aga"), handicap=4).score().white.handicap_bonus == 3
    assert Game(19, Rules.preset("japanese"), handicap=4).score().white.handicap_bonus == 0
    with pytest.raises(HandicapError):
        Game(19, handicap=10)
    with pytest.raises(HandicapError):
        Game(5, handicap=2)
    game.play("K10")
    with pytest.raises(HandicapError):
        game.set_handicap([(0, 0), (1, 1)])


def test_free_handicap():
    game = Game(9)
    game.set_handicap([(0, 0), (8, 8), (4, 4)])
    assert game.handicap == 3 and game.to_move is Color.WHITE
    with pytest.raises(HandicapError, match="twice"):
        Game(9).set_handicap([(0, 0), (0, 0)])


def test_undo_restores_position_hash_captures_and_ko():
    game = game_from(KO)
    before = (game.board.hash, game.captures(Color.BLACK), game.to_move)
    game.play("C4")
    game.undo()
    assert (game.board.hash, game.captures(Color.BLACK), game.to_move) == before
    game.play("C4")
    assert game.ko_point == (3, 1)
    with pytest.raises(IndexError):
        Game(9).undo()


def test_copy_is_independent():
    game = Game(9)
    game.play("E5")
    other = game.copy()
    other.play("D5")
    assert game.board[(4, 3)] is None and game.move_number == 1 and other.move_number == 2


def test_setup_mid_game_is_recorded_and_undoable():
    game = Game(9)
    game.play("E5")
    game.setup(white=[(0, 0)])
    assert game.board[(0, 0)] is Color.WHITE
    game.undo()
    assert game.board[(0, 0)] is None and game.move_number == 1


def test_legal_moves_respect_superko():
    game = triple_ko("chinese")
    play_all(game, " ".join(CYCLE.split()[:5]))
    legal = game.legal_moves()
    assert (3, 2) not in legal and (0, 0) in legal


def test_ko_rule_field_alone_changes_behaviour():
    rules = Rules.preset("japanese").replace(ko=KoRule.POSITIONAL, void_on_repetition=False)
    game = triple_ko("japanese")
    game.rules = rules
    play_all(game, " ".join(CYCLE.split()[:5]))
    assert game.legality(CYCLE.split()[5]) is IllegalReason.SUPERKO


def test_resume_after_two_passes_goes_on_playing_and_undoes():
    game = Game(9, Rules.preset("japanese"))
    play_all(game, "E5 pass pass")
    assert game.phase is Phase.MARKING and game.can_resume
    game.resume()
    assert game.phase is Phase.PLAY and game.to_move is Color.WHITE  # the first passer moves
    play_all(game, "D5 pass pass")
    assert game.phase is not Phase.PLAY
    game.undo()
    game.undo()
    game.undo()  # D5
    game.undo()  # the resumption
    assert game.phase is not Phase.PLAY and game.consecutive_passes == 2
    with pytest.raises(IllegalMoveError):
        Game(9).resume()
    counted = Game(9, Rules.preset("tromp-taylor"))
    play_all(counted, "E5 pass pass")
    assert counted.phase is Phase.FINISHED and counted.can_resume  # records may play on
    resigned = Game(9)
    play_all(resigned, "E5 pass")
    resigned.resign()
    with pytest.raises(IllegalMoveError, match="two consecutive passes"):
        resigned.resume()


def test_passes_do_not_count_towards_the_void_on_repetition():
    game = Game(5, Rules.preset("japanese"))  # void on the third repetition
    play_all(game, "pass pass")
    game.resume()
    play_all(game, "pass pass")
    assert game.phase is Phase.MARKING and game.result is None
    game.resume()
    play_all(game, "pass pass")
    assert game.phase is Phase.MARKING


def test_marking_phase_protocol_in_brief():
    game = Game(5, Rules.preset("japanese"))
    play_all(game, "C3 B2 pass pass")  # Black passed first
    assert game.marking is not None and game.marking.to_act is Color.BLACK
    game.propose([(1, 1)])
    with pytest.raises(IllegalMoveError) as err:
        game.accept(Color.BLACK)
    assert err.value.reason is IllegalReason.OUT_OF_TURN
    score = game.accept(Color.WHITE)
    assert str(score.result) == str(game.result) == "B+18.5" and game.marking is None
    game.undo()  # takes back the acceptance
    assert game.marking.pending.dead == frozenset({(1, 1)})


def test_a_spec_starts_a_game_from_its_first_stones():
    """Black stones alone are the handicap (the fixed points when none are given), other
    stones are set up; stones that cannot be a handicap say why."""
    spec = GameSpec(9, Rules.preset("japanese"), 2)
    fixed = spec.start()
    assert fixed.handicap_points == spec.new_game().handicap_points and fixed.to_move is Color.WHITE
    free = spec.start([(0, 0), (8, 8)])
    assert free.handicap_points == [(0, 0), (8, 8)] and free.history == []
    both = spec.start([(0, 0)], [(8, 8)])
    assert both.handicap == 0 and both.board[(8, 8)] is Color.WHITE and len(both.history) == 1
    with pytest.raises(HandicapError):
        spec.start([(0, 0)])  # one stone is no handicap
    assert GameSpec.from_text(*spec.to_text()) == spec
