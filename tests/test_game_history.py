"""Game's history: one door for entries (Game.apply), replays (undo, after, with_rules), copies,
and the values a game refuses at the door (board sizes, colours that are not colours)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import Color, Game, IllegalMoveError, IllegalReason, Move, Phase, Rules
from miai.endgame import Proposal
from miai.errors import BoardSizeError, InvalidMoveError, MiaiError, RulesError
from miai.game import Resume, Setup
from tests.test_endgame import position, pts, run

DISPUTE = "pass pass propose:B4,G4 propose:G4 refuse B3 pass B5 pass A4"
"""A dispute in the marking phase, then Black captures inside its own area (compensated)."""


def replayed(game: Game, entries) -> Game:
    new = Game(game.size, game.rules)
    for entry in entries:
        new.apply(entry)
    return new


def same_state(a: Game, b: Game) -> None:
    assert a.board == b.board and a.board.hash == b.board.hash
    assert (a.phase, a.to_move, a.move_number, a.consecutive_passes) == (b.phase, b.to_move, b.move_number, b.consecutive_passes)
    assert a.compensation() == b.compensation() and a.marking == b.marking
    assert a.captures(Color.BLACK) == b.captures(Color.BLACK) and a.captures(Color.WHITE) == b.captures(Color.WHITE)


def test_apply_dispatches_each_kind_of_entry():
    game = Game(5, Rules.preset("japanese"))
    game.apply(Setup(black=((0, 0),), to_move=Color.WHITE))
    game.apply(Move(Color.WHITE, (2, 2)))
    game.apply(Move(Color.BLACK, None))
    game.apply(Move(Color.WHITE, None))
    assert game.phase is Phase.MARKING and game.marking.to_act is Color.BLACK
    game.apply(Proposal(Color.BLACK, frozenset({(2, 2)})))
    game.apply(Proposal(Color.WHITE))
    game.apply(Resume(by=Color.BLACK))  # Black refuses White's counter-proposal
    assert game.phase is Phase.PLAY and game.to_move is Color.BLACK
    game.apply(Move(Color.BLACK, None))
    game.apply(Move(Color.WHITE, None))
    assert game.phase is Phase.FINISHED  # a dispute's immediate double pass: all alive
    with pytest.raises(InvalidMoveError, match="not a history entry"):
        Game(5).apply("D4")  # type: ignore[arg-type]


def test_apply_checks_every_entry():
    game = Game(5)
    game.apply(Move(Color.BLACK, (2, 2)))
    with pytest.raises(IllegalMoveError) as err:
        game.apply(Move(Color.WHITE, (2, 2)))
    assert err.value.reason is IllegalReason.OCCUPIED
    with pytest.raises(IllegalMoveError) as err:
        game.apply(Resume())
    assert err.value.reason is IllegalReason.WRONG_PHASE
    with pytest.raises(IllegalMoveError) as err:
        game.apply(Proposal(Color.BLACK))
    assert err.value.reason is IllegalReason.WRONG_PHASE
    assert game.move_number == 1 and len(game.history) == 1


def test_apply_can_resume_play_as_records_do():
    game = Game(5, Rules.preset("japanese"))
    for entry in (Move(Color.BLACK, (2, 2)), Move(Color.WHITE, None), Move(Color.BLACK, None)):
        game.apply(entry)
    with pytest.raises(IllegalMoveError):
        game.apply(Move(Color.WHITE, (1, 1)))
    game.apply(Move(Color.WHITE, (1, 1)), resume=True)
    assert game.history[-2:] == [Resume(), Move(Color.WHITE, (1, 1))]
    game.apply(Setup(white=((0, 4),)), resume=True)  # no passes before it: nothing to resume
    assert game.history[-1] == Setup(white=((0, 4),))


def test_a_history_replayed_through_apply_is_the_same_game():
    game = run(position(), DISPUTE)
    assert game.compensation() == (3, 0)  # B3 B5 A4
    same_state(game, game.with_rules(game.rules))
    plain = Game(7, Rules.preset("chinese"))
    for v in "D4 E5 C3 pass D5 E4 pass pass".split():
        plain.play(v)
    same_state(plain, replayed(plain, plain.history))


def test_undo_replays_to_the_same_state_as_playing_to_there():
    game = run(position(), DISPUTE)
    earlier = run(position(), DISPUTE.rsplit(" ", 2)[0])
    game.undo()
    game.undo()
    same_state(game, earlier)


def test_copy_shares_nothing_that_play_changes():
    game = run(position(), DISPUTE)
    twin = game.copy()
    run(twin, "pass C4 pass pass propose:G4 accept")
    assert twin.phase is Phase.FINISHED and twin.compensation() == (4, 0)
    assert game.phase is Phase.PLAY and game.compensation() == (3, 0) and game.move_number == 7
    same_state(game, run(position(), DISPUTE))
    twin.undo()
    assert game.result is None


def do(game: Game, action: tuple[str, object]) -> None:
    """One action of the public API, by name: play, pass, undo, propose, accept, refuse."""
    name, arg = action
    if name == "play":
        game.play(Move(game.to_move, arg))  # type: ignore[arg-type]
    elif name == "pass":
        game.play(Move(game.to_move, None))
    elif name == "propose":
        game.propose(arg)  # type: ignore[arg-type]
    else:
        getattr(game, name)()


def act_at_random(game: Game, data: st.DataObject, steps: int) -> list[tuple[str, object]]:
    """Up to ``steps`` random actions (moves, passes, undo; in the marking phase proposals,
    acceptances and refusals); those the rules refuse are skipped. Returns those done."""
    done: list[tuple[str, object]] = []
    for _ in range(steps):
        if game.phase is Phase.FINISHED:
            break
        if game.phase is Phase.MARKING:
            stones = sorted(game.board.stones(Color.BLACK) + game.board.stones(Color.WHITE))
            name = data.draw(st.sampled_from(["propose", "accept", "refuse", "undo"]))
            arg: object = data.draw(st.lists(st.sampled_from(stones), max_size=3)) if name == "propose" and stones else []
        else:
            points = game.legal_moves()
            name = data.draw(st.sampled_from(["play", "pass", "undo"] if points else ["pass", "undo"]))
            arg = data.draw(st.sampled_from(points)) if name == "play" else None
        try:
            do(game, (name, arg))
        except MiaiError:
            continue
        done.append((name, arg))
    return done


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_whatever_a_copy_does_the_original_stays_as_it_was_and_can_do_the_same(data):
    game = run(position(), DISPUTE)
    before = act_at_random(game, data, data.draw(st.integers(0, 6)))
    twin = game.copy()
    done = act_at_random(twin, data, 30)
    reference = run(position(), DISPUTE)
    for action in before:
        do(reference, action)
    same_state(game, reference)
    assert game.history == reference.history and game.result == reference.result
    for action in done:  # every position the twin reached is new to the original (superko)
        do(game, action)
    same_state(game, twin)
    assert game.history == twin.history and game.result == twin.result


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_after_n_moves_is_the_game_as_it_stood_before_the_next_move(data):
    game = Game(7, Rules.preset("japanese"), handicap=2)
    game.setup(white=[(0, 6)])
    before_move: list[Game] = []
    for _ in range(data.draw(st.integers(0, 25))):
        if game.phase is Phase.FINISHED:
            break
        if game.phase is Phase.MARKING:  # play goes on, without a word or after a dispute
            if data.draw(st.booleans()):
                game.resume()
            else:
                game.propose([])
                game.propose((game.board.stones(Color.BLACK) + game.board.stones(Color.WHITE))[:1])
                game.refuse()
        before_move.append(game.copy())
        point = data.draw(st.one_of(st.none(), st.sampled_from(game.legal_moves() or [None])))
        game.play(Move(game.to_move, point))
    history = list(game.history)
    for n, earlier in enumerate(before_move):
        stepped_back = game.after(n)
        same_state(stepped_back, earlier)
        assert stepped_back.history == earlier.history and stepped_back.result is None
        assert stepped_back.handicap == 2
    start = game.after(0)
    assert start.board[(0, 6)] is Color.WHITE and len(start.board.stones(Color.BLACK)) == 2
    same_state(game.after(game.move_number), game)
    assert game.after(game.move_number).history == history == game.history  # the game stepped back from is untouched


def test_after_leaves_a_resignation_out_and_refuses_moves_the_game_never_had():
    game = Game(9)
    for v in "E5 C3 D4".split():
        game.play(v)
    game.resign()
    last = game.after(3)
    assert last.result is None and last.phase is Phase.PLAY and last.history == game.history
    last.play("F5")  # a variation from the last position
    agreed = run(position(), "pass pass propose: accept")
    assert agreed.phase is Phase.FINISHED and agreed.after(2).phase is Phase.MARKING  # as with_rules: play to go on from
    assert game.after(2).to_move is Color.BLACK and game.after(2).board[(3, 3)] is None
    for n in (-1, 4):
        with pytest.raises(ValueError, match=f"after {n} moves: the game has 3"):
            game.after(n)


def test_a_setup_that_leaves_stones_without_liberties_changes_nothing():
    game = Game(5)
    game.play("C3")
    before = (game.board.hash, game.move_number, list(game.history))
    with pytest.raises(InvalidMoveError, match="without liberties at A1"):
        game.setup(black=[(0, 0)], white=[(0, 1), (1, 0)])
    assert (game.board.hash, game.move_number, list(game.history)) == before


@pytest.mark.parametrize("size", [1, 26, 30, "9", 9.0, True])
def test_board_sizes_out_of_range_are_miai_errors(size):
    with pytest.raises(BoardSizeError, match="board size") as err:
        Game(size)
    assert isinstance(err.value, MiaiError) and isinstance(err.value, ValueError)


def test_rules_must_be_rules():
    with pytest.raises(RulesError):
        Game(9, "japanese")  # type: ignore[arg-type]


def test_a_colour_that_is_not_a_colour_never_reaches_the_board():
    game = Game(9)
    with pytest.raises(InvalidMoveError, match="not a colour: 3"):
        game.play(Move(3, (4, 4)))  # type: ignore[arg-type]
    assert game.board[(4, 4)] is None and game.move_number == 0
    for call in (
        lambda: game.legal_moves(3),  # type: ignore[arg-type]
        lambda: game.resign(0),  # type: ignore[arg-type]
        lambda: game.lose_on_time("black"),  # type: ignore[arg-type]
        lambda: game.setup(black=[(0, 0)], to_move=2),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidMoveError, match="not a colour"):
            call()
    game.play("E5")
    game.board.check_consistency()
