"""The dead-stone agreement (docs/RULES.md §5): scripted sequences with their results, and every
illegal step with its reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import Color, EndReason, Game, IllegalMoveError, IllegalReason, Phase, Rules
from miai.coords import point_from_gtp
from miai.endgame import Marking, Proposal, compensable_area, whole_chains
from tests.diagrams import game_from

# Black owns columns A-C, White columns F-G. B4 is a white stone inside Black's area and
# G4 a black stone inside White's: both dead, as both players would normally agree.
POSITION = """
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . O . X O . X
    . . . X O . .
    . . . X O . .
    . . . X O . .
"""


def pts(vertices: str) -> frozenset:
    return frozenset(point_from_gtp(v, 7) for v in vertices.replace(",", " ").split())


def position(rules: str = "japanese") -> Game:
    return game_from(POSITION, Rules.preset(rules))


def run(game: Game, script: str) -> Game:
    """Carry out a script: vertices and ``pass``; ``propose:B4,G4`` (``propose:`` for none),
    ``accept``, ``refuse``, ``undo``; each step by the player whose turn it is."""
    for step in script.split():
        word, _, arg = step.partition(":")
        if word == "propose":
            game.propose(pts(arg))
        elif word == "accept":
            game.accept()
        elif word == "refuse":
            game.refuse()
        elif word == "undo":
            game.undo()
        else:
            game.play(word)
    return game


# Japanese rules, komi 6.5. Agreed on both dead stones: Black 21 territory + 1 dead = 22,
# White 14 + 1 + 6.5 = 21.5. The dispute below makes Black capture B4 with four stones
# inside its own territory (17 territory + 1 prisoner): the four points of compensation
# give Black back exactly the agreed result.
SEQUENCES = [
    # name, script, phase, result, (black compensation, white compensation)
    ("agree at once", "pass pass propose:B4,G4 accept", Phase.FINISHED, "B+0.5", (0, 0)),
    ("a proposal of no dead stones, accepted", "pass pass propose: accept", Phase.FINISHED, "W+6.5", (0, 0)),
    ("counter-proposal accepted", "pass pass propose:B4 propose:B4,G4 accept", Phase.FINISHED, "B+0.5", (0, 0)),
    ("the counter-proposal may free a stone", "pass pass propose:B4,G4 propose:B4 accept", Phase.FINISHED, "B+15.5", (0, 0)),
    ("dispute: play resumes, first passer to move", "pass pass propose:B4,G4 propose:G4 refuse", Phase.PLAY, None, (0, 0)),
    ("dispute, then both pass at once: all alive", "pass pass propose:B4,G4 propose:G4 refuse pass pass", Phase.FINISHED, "W+6.5", (0, 0)),
    (
        "dispute, Black captures inside its territory, compensated",
        "pass pass propose:B4,G4 propose:G4 refuse B3 pass B5 pass A4 pass C4 pass pass propose:G4 accept",
        Phase.FINISHED,
        "B+0.5",
        (4, 0),
    ),
    (
        "dispute, further play, marking again, then a second dispute and all alive",
        "pass pass propose:B4,G4 propose:G4 refuse A1 pass pass propose: propose:B4,G4 refuse pass pass",
        Phase.FINISHED,
        "W+5.5",
        (1, 0),
    ),
    (
        "White plays in Black's area: no compensation for anybody's defence",
        "pass pass propose:B4,G4 propose:G4 refuse B3 A4 pass pass propose:B4,A4,G4 accept",
        Phase.FINISHED,
        "B+1.5",
        (1, 0),
    ),
]


@pytest.mark.parametrize(("name", "script", "phase", "result", "compensation"), SEQUENCES, ids=[s[0] for s in SEQUENCES])
def test_protocol_sequences(name, script, phase, result, compensation):
    game = run(position(), script)
    assert game.phase is phase
    assert (str(game.result) if game.result else None) == result
    assert game.compensation() == compensation
    if result is not None:
        score = game.final_score
        assert score is not None and str(score.result) == result
        assert (score.black.compensation, score.white.compensation) == compensation


def test_agreed_score_breakdown_and_dead_stones_as_prisoners():
    score = run(position(), "pass pass propose:B4,G4 accept").final_score
    assert (score.black.territory, score.black.dead, score.white.territory, score.white.dead) == (21, 1, 14, 1)
    assert score.dead_stones == pts("B4 G4")


def test_compensation_is_in_the_breakdown():
    game = run(position(), SEQUENCES[6][1])
    score = game.final_score
    assert (score.black.territory, score.black.prisoners, score.black.compensation) == (17, 1, 4)
    lines = score.breakdown().splitlines()
    assert "compensation        4        0" in lines
    assert game.end_reason is EndReason.AGREEMENT
    assert game.end_words == "both players passed and agreed on the dead stones"


def test_all_alive_is_said():
    game = run(position(), "pass pass propose:B4,G4 propose:G4 refuse pass pass")
    assert game.end_reason is EndReason.ALL_ALIVE and "all stones count as alive" in game.end_words
    assert game.final_score.dead_stones == frozenset()
    assert not game.can_resume
    with pytest.raises(IllegalMoveError) as err:
        game.play("A1")
    assert err.value.reason is IllegalReason.WRONG_PHASE


def test_area_scoring_has_no_compensation_and_needs_none():
    agreed = run(position("chinese"), "pass pass propose:B4,G4 accept").final_score
    disputed = run(position("chinese"), SEQUENCES[6][1]).final_score
    assert disputed.black.compensation == 0
    assert str(agreed.result) == str(disputed.result)  # stones in one's own area cost nothing


def test_the_first_passer_proposes_and_moves_first_on_resumption():
    game = run(position(), "A1 pass pass")  # White passed first
    assert game.marking == Marking(Color.WHITE)
    assert game.marking.to_act is Color.WHITE
    run(game, "propose:B4,G4 propose:G4 refuse")
    assert game.phase is Phase.PLAY and game.to_move is Color.WHITE


def test_marking_a_stone_marks_its_chain():
    game = run(position(), "pass pass")
    proposal = game.propose(pts("D4"))
    assert proposal == Proposal(Color.BLACK, pts("D1 D2 D3 D4 D5 D6 D7"))
    assert game.marking.pending is proposal


def test_finish_is_both_players_agreeing_at_once():
    game = run(position(), "pass pass propose:B4")
    score = game.finish(pts("B4 G4"))
    assert str(score.result) == str(game.result) == "B+0.5"
    game.undo()
    assert game.phase is Phase.MARKING and game.marking.pending.dead == pts("B4")


# ----------------------------------------------------------------- illegal steps


@pytest.mark.parametrize(
    ("script", "step", "reason", "message"),
    [
        ("A1", "propose:B4", IllegalReason.WRONG_PHASE, "not in the play phase"),
        ("pass pass", "propose:A1", IllegalReason.NOT_A_STONE, "A1 is empty"),
        ("pass pass", "white-propose:B4", IllegalReason.OUT_OF_TURN, "White cannot propose dead stones now: it is Black's turn"),
        ("pass pass", "accept", IllegalReason.WRONG_PHASE, "no proposal to accept yet: Black marks the dead stones first"),
        ("pass pass propose:B4", "black-accept", IllegalReason.OUT_OF_TURN, "Black cannot accept their own proposal"),
        ("pass pass propose:B4", "black-propose:G4", IllegalReason.OUT_OF_TURN, "it is White's turn to accept Black's proposal"),
        ("pass pass propose:B4 propose:G4", "white-accept", IllegalReason.OUT_OF_TURN, "White cannot accept their own"),
        ("pass pass propose:B4 propose:G4", "propose:B4,G4", IllegalReason.WRONG_PHASE, "Black cannot propose again"),
        ("pass pass propose:B4", "refuse", IllegalReason.WRONG_PHASE, "refuses a proposal by marking the dead stones"),
        ("pass pass", "refuse", IllegalReason.WRONG_PHASE, "only a counter-proposal can be refused"),
        ("pass pass propose:B4 propose:G4", "white-refuse", IllegalReason.OUT_OF_TURN, "White cannot refuse now"),
        ("pass pass propose:B4 accept", "accept", IllegalReason.WRONG_PHASE, "not in the finished phase"),
        ("pass pass propose:B4", "A1", IllegalReason.WRONG_PHASE, "marking phase: agree on the dead stones first"),
    ],
)
def test_illegal_steps_are_errors_with_a_reason(script, step, reason, message):
    game = run(position(), script)
    before = (game.history, game.marking, game.phase)
    who, _, action = step.rpartition("-")
    color = Color.parse(who) if who else None
    word, _, arg = action.partition(":")
    with pytest.raises(IllegalMoveError) as err:
        if word == "propose":
            game.propose(pts(arg), color=color)
        elif word == "accept":
            game.accept(color)
        elif word == "refuse":
            game.refuse(color)
        else:
            game.play(word)
    assert err.value.reason is reason
    assert message in str(err.value)
    assert (game.history, game.marking, game.phase) == before  # nothing changed


def test_no_marking_under_rules_that_count_stones_as_they_stand():
    game = run(position("tromp-taylor"), "pass pass")
    assert game.phase is Phase.FINISHED and game.marking is None
    with pytest.raises(IllegalMoveError) as err:
        game.propose(pts("B4"))
    assert err.value.reason is IllegalReason.WRONG_PHASE


# ----------------------------------------------------------------- undo, copy, replay


def test_undo_takes_back_each_step_of_the_protocol():
    script = SEQUENCES[6][1]
    steps = script.split()
    states = []
    game = position()
    for step in steps:
        states.append((game.phase, game.marking, game.board.hash, game.to_move, game.compensation()))
        run(game, step)
    final = game.final_score
    for state in reversed(states):
        game.undo()
        assert (game.phase, game.marking, game.board.hash, game.to_move, game.compensation()) == state
    run(game, script)
    assert game.final_score == final


def test_undo_of_a_refusal_goes_back_to_the_counter_proposal():
    game = run(position(), "pass pass propose:B4,G4 propose:G4 refuse")
    game.undo()
    assert game.phase is Phase.MARKING and game.marking.pending == Proposal(Color.WHITE, pts("G4"))
    game.accept()
    assert str(game.result) == "W+21.5"  # B4 lives: Black's area is nobody's


def test_with_rules_and_copy_keep_the_protocol():
    game = run(position(), "pass pass propose:B4,G4 propose:G4 refuse B3 pass B5")
    other = game.copy()
    run(other, "pass A4 pass C4 pass pass propose:G4 accept")
    assert str(other.result) == "B+0.5" and game.phase is Phase.PLAY and game.compensation() == (2, 0)
    replayed = game.with_rules(game.rules.replace(komi=0.5))
    assert replayed.compensation() == (2, 0) and replayed.history == game.history
    assert str(run(replayed, "pass A4 pass C4 pass pass propose:G4 accept").result) == "B+6.5"


def test_history_shows_the_refusal_as_a_resumption_and_keeps_proposals_out():
    from miai.game import Resume

    game = run(position(), "pass pass propose:B4,G4 propose:G4 refuse")
    assert game.history[-1] == Resume(by=Color.BLACK)
    assert not any(isinstance(e, Proposal) for e in game.history)


def test_a_plain_resume_is_not_a_dispute():
    game = run(position(), "pass pass propose:B4")
    game.resume()  # a GTP controller or a record playing on
    run(game, "pass pass")
    assert game.phase is Phase.MARKING and game.marking == Marking(Color.BLACK)


# ----------------------------------------------------------------- the pure pieces


def test_marking_state_machine_alone():
    m = Marking(Color.WHITE)
    assert m.second is Color.BLACK and m.to_act is Color.WHITE and m.pending is None
    m = m.propose(Proposal(Color.WHITE, frozenset({(0, 0)})))
    assert m.to_act is Color.BLACK and m.accept(Color.BLACK).by is Color.WHITE
    m = m.propose(Proposal(Color.BLACK))
    assert m.to_act is Color.WHITE and m.accept(Color.WHITE) == Proposal(Color.BLACK)
    first, second = m.refuse(Color.WHITE)
    assert (first.by, second.by) == (Color.WHITE, Color.BLACK)
    assert "accept Black's counter-proposal or refuse it" in m.expected


def test_compensable_area_is_the_claimed_region_holding_disputed_stones():
    game = position()
    board, rules = game.board, game.rules
    black, white = Proposal(Color.BLACK, pts("B4 G4")), Proposal(Color.WHITE, pts("G4"))
    area = compensable_area(board, rules, black, white)
    assert area == pts(" ".join(f"{c}{r}" for c in "ABC" for r in range(1, 8)))
    assert compensable_area(board, rules, white, black) == frozenset()  # G4 is not disputed
    assert compensable_area(board, rules, black, Proposal(Color.WHITE, pts("B4 G4"))) == frozenset()


def test_whole_chains():
    board = position().board
    assert whole_chains(board, pts("E1 B4")) == pts("E1 E2 E3 E4 E5 E6 E7 B4")
    with pytest.raises(IllegalMoveError) as err:
        whole_chains(board, pts("A1"))
    assert err.value.reason is IllegalReason.NOT_A_STONE


# ----------------------------------------------------------------- random walks through the protocol


def snapshot(game: Game):
    return (game.phase, game.marking, game.board.hash, game.to_move, game.compensation(), str(game.result), game.history)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["japanese", "chinese", "aga"]))
def test_random_protocol_walks_undo_step_by_step(seed, preset):
    """Random legal steps (stones, passes, proposals, acceptances, refusals, plain resumes):
    after every step the state is one the protocol allows, and undoing step by step gives
    back every earlier state."""
    rnd = random.Random(seed)
    game = position(preset)
    states = [snapshot(game)]
    for _ in range(40):
        phase = game.phase
        if phase is Phase.FINISHED:
            break
        if phase is Phase.PLAY:
            legal = game.legal_moves()
            game.play(rnd.choice(legal) if legal and rnd.random() < 0.4 else None)
        else:
            marking = game.marking
            stones = [p for p in game.board if game.board[p] is not None]
            dead = rnd.sample(stones, k=min(len(stones), rnd.randint(0, 2)))
            options = ["propose"] if marking.counter is None else []
            options += ["accept"] if marking.pending is not None else []
            options += ["refuse"] if marking.counter is not None else []
            options += ["resume"] if rnd.random() < 0.1 else []
            step = rnd.choice(options)
            if step == "propose":
                game.propose(dead)
            elif step == "accept":
                game.accept()
            elif step == "refuse":
                game.refuse()
                assert game.phase is Phase.PLAY and game.to_move is marking.first
            else:
                game.resume()
        if game.phase is Phase.MARKING:
            assert game.marking is not None and game.marking.to_act in (game.marking.first, game.marking.second)
        states.append(snapshot(game))
    for state in reversed(states[:-1]):
        game.undo()
        assert snapshot(game) == state


def test_a_disputed_game_saves_to_sgf_and_reads_back():
    """SGF keeps the moves and the result; the proposals are not recorded (a reader sees play
    going on after two passes)."""
    from miai.sgf import game_to_sgf, load_game

    game = run(position(), SEQUENCES[6][1])
    text = game_to_sgf(game)
    assert "RE[B+0.5]" in text
    loaded, _ = load_game(text)
    assert [m.gtp() for m in loaded.moves] == [m.gtp() for m in game.moves]


def test_to_act_is_the_player_the_game_waits_for():
    """To move in play, the step's player in the marking phase, nobody once it is over."""
    game = position()
    seen = [game.to_act]
    for step in ["pass", "pass", "propose:B4", "propose:G4", "refuse"]:
        run(game, step)
        seen.append(game.to_act)
    B, W = Color.BLACK, Color.WHITE
    assert seen == [B, W, B, W, B, B]  # after the refusal the first passer moves
    run(game, "pass pass")  # at once after the dispute: over, all stones alive
    assert game.phase is Phase.FINISHED and game.to_act is None
