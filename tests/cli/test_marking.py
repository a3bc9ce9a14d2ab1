"""``miai play``'s marking phase (docs/RULES.md §5): the computer's estimate on the board, the
players' proposals, acceptance, resumption, and the score breakdown at the end."""

from __future__ import annotations

import pytest

from miai.cli import marking
from miai.cli.actions import Accept, Play, Propose, Quit, Refuse, Undo
from miai.cli.marking import DeadStoneEstimate
from miai.cli.play import PlaySession
from miai.cli.players import ComputerPlayer, HumanPlayer
from miai.cli.terminal import Terminal
from miai.coords import Color, point_from_gtp
from miai.endgame import Marking, Proposal
from miai.game import Phase
from miai.result import EndReason
from tests.test_endgame import pts
from tests.test_endgame import position as endgame_position


def position(rules: str = "japanese"):
    """7x7: Black owns A-C with a dead white stone on B4, White F-G with a dead black one on G4."""
    return endgame_position(rules)


def play_game(game, lines, players=None):
    terminal = Terminal.scripted(lines)
    players = players or {c: HumanPlayer(terminal, c.name.title()) for c in Color}
    code = PlaySession(game, players, terminal).run()
    return code, terminal.transcript()


@pytest.fixture
def empty_estimate(monkeypatch):
    """The computer sees no dead stones: the players mark them all."""
    monkeypatch.setattr(marking, "estimate_dead_stones", lambda game: DeadStoneEstimate(frozenset()))


def test_the_computer_estimate_is_proposed_and_accepted():
    code, text = play_game(position(), ["pass", "pass", "", "accept", ""])
    assert code == 0
    assert "The computer's estimate of the dead stones is marked (x, o): B4 G4.\n" in text
    assert "4 . o . X O . x 4" in text  # the estimate drawn on the board
    assert "Black's proposal: dead B4 G4.\nWhite (O) accept or mark dead stones> accept\n" not in text  # board between
    assert "White (O) accept or mark dead stones> accept\n" in text
    assert "dead stones        1        1" in text
    assert "Result: B+0.5. Black wins by 0.5 points." in text


def test_an_empty_estimate_is_said_and_nothing_is_marked(empty_estimate):
    code, text = play_game(position(), ["pass", "pass", "", "yes", ""])
    assert "The computer's estimate of the dead stones is marked (x, o): none.\n" in text
    assert "Marked dead: none.\nBlack (X) marks dead stones> \n" in text
    assert "Result: W+6.5." in text


def test_counter_proposal_accepted(empty_estimate):
    lines = ["pass", "pass", "B4", "", "G4", "", "accept", ""]
    code, text = play_game(position(), lines)
    assert "Black's proposal: dead B4.\n" in text
    assert "White (O) accept or mark dead stones> G4\n" in text
    assert "White's counter-proposal: dead B4 G4.\n" in text
    assert "Black (X) accept or resume> accept\n" in text
    assert "Result: B+0.5." in text


DISPUTE = ["pass", "pass", "B4 G4", "", "b4", "", "resume"]


def test_dispute_resumes_play_and_an_immediate_double_pass_counts_all_stones_alive(empty_estimate):
    code, text = play_game(position(), [*DISPUTE, "pass", "pass", ""])
    assert (
        "Black (X) accept or resume> resume\n"
        "Black refuses: no agreement, play resumes and Black moves. If both players now pass at once, all stones "
        "count as alive.\n"
    ) in text
    assert "Black (X) move 3> pass" in text and "White (O) move 4> pass" in text
    assert (
        "Game over: the players did not agree on the dead stones and both passed at once when play resumed; "
        "all stones count as alive.\nResult: W+6.5."
    ) in text


def test_dispute_then_capture_inside_ones_territory_is_compensated(empty_estimate):
    resumed = ["B3", "pass", "B5", "pass", "A4", "pass", "C4", "pass", "pass"]
    lines = [*DISPUTE, *resumed, "G4", "", "accept", ""]
    code, text = play_game(position(), lines)
    assert "are compensated, one point each." in text
    assert "White (O) marks dead stones> G4\n" in text  # White passed first this time
    rows = [line.split() for line in text.splitlines()]
    assert ["compensation", "4", "0"] in rows and ["prisoners", "1", "0"] in rows and ["total", "22", "21.5"] in rows
    assert "Result: B+0.5. Black wins by 0.5 points." in text


def test_wrong_steps_are_explained(empty_estimate):
    lines = ["pass", "pass", "accept", "resume", "B4", "", "", "resume", "A1", "undo", "undo", "quit"]
    code, text = play_game(position(), lines)
    assert code == 0
    assert "marks dead stones> accept\nNot now (wrong phase): there is no proposal to accept yet: Black marks the dead stones first.\n" in text
    assert "marks dead stones> resume\nNot now (wrong phase): only a counter-proposal can be refused" in text
    assert "accept or mark dead stones> \nThat is Black's proposal unchanged: type accept to agree, or mark stones to change it.\n" in text
    assert "accept or mark dead stones> resume\nNot now (wrong phase): White refuses a proposal by marking the dead stones they see instead.\n" in text
    assert "accept or mark dead stones> A1\nThere is no stone on A1.\n" in text
    assert "accept or mark dead stones> undo\nTook back Black's proposal.\n" in text
    assert "marks dead stones> undo\nTook back move 2 (White's pass).\n" in text
    assert text.endswith("White (O) move 2> quit\nGame left unfinished after 1 move.\n")


def test_marking_help_score_board_and_none(empty_estimate):
    lines = ["pass", "pass", "help", "B4 G4", "score", "none", "board", "quit"]
    code, text = play_game(position(), lines)
    assert "Marking the dead stones (any case):" in text
    assert "Marked dead: B4 G4.\nBlack (X) marks dead stones> score\nCount under japanese, komi 6.5 (with the marked stones dead):" in text
    assert "result: B+0.5\nBlack (X) marks dead stones> none\n" in text
    assert text.count("Marked dead: none.") == 3
    assert text.endswith("marks dead stones> quit\nGame left unfinished.\n")


class ScriptedComputer(ComputerPlayer):
    """A non-human player: plays the given moves; in the marking phase it follows the estimate."""

    def __init__(self, terminal, vertices):
        super().__init__(terminal, "computer")
        self.moves = [point_from_gtp(v, 7) if v != "pass" else None for v in vertices]

    def choose_move(self, game):
        return Play(self.moves.pop(0))


def fixed_estimate(dead):
    return lambda game: DeadStoneEstimate(pts(dead))


def test_a_computer_accepts_a_proposal_equal_to_its_estimate(monkeypatch):
    monkeypatch.setattr(marking, "estimate_dead_stones", fixed_estimate("B4 G4"))
    terminal = Terminal.scripted(["pass", "", ""])
    players = {Color.BLACK: HumanPlayer(terminal, "me"), Color.WHITE: ScriptedComputer(terminal, ["pass"])}
    game = position()
    PlaySession(game, players, terminal).run()
    text = terminal.transcript()
    assert "White accepts Black's proposal.\n" in text and str(game.result) == "B+0.5"


def test_a_computer_proposes_its_estimate_and_refuses_a_different_counter_proposal(monkeypatch):
    monkeypatch.setattr(marking, "estimate_dead_stones", fixed_estimate("G4"))
    terminal = Terminal.scripted(["A1", "pass", "B4 G4", "", "pass", ""])
    players = {Color.BLACK: HumanPlayer(terminal, "me"), Color.WHITE: ScriptedComputer(terminal, ["pass", "pass"])}
    game = position()
    PlaySession(game, players, terminal).run()
    text = terminal.transcript()
    # White passed first: it proposes its estimate; Black toggles B4 on and G4 off, and counters
    assert (
        "The computer's estimate of the dead stones is marked (x, o): G4.\n"
        "White proposes dead: G4.\nWhite's proposal: dead G4.\n"
    ) in text
    assert "Black (X) accept or mark dead stones> B4 G4\n" in text and "Marked dead: B4.\n" in text
    assert "Black (X) accept or mark dead stones> \nWhite refuses: no agreement, play resumes and White moves." in text
    # White (the computer) passes at once, then Black: all stones alive
    assert "Move 4: White passed.\nAnother pass ends the game.\nBlack (X) move 5> pass\n" in text
    assert game.phase is Phase.FINISHED and game.end_reason is EndReason.ALL_ALIVE
    assert "Result: W+6.5. White wins by 6.5 points." in text


# ----------------------------------------------------------------- taking back in the marking phase


def test_undo_after_a_refusal_takes_back_the_refusal_and_says_so(empty_estimate):
    """Before: it said "Took back move 2 (White's pass)" and drew "Another pass ends the
    game", while what was taken back was Black's refusal."""
    code, text = play_game(position(), [*DISPUTE, "undo", "quit"])
    assert (
        "Black (X) move 3> undo\n"
        "Took back Black's refusal: the marking phase goes on.\n"
        "White's counter-proposal: dead G4.\n"
    ) in text
    assert "Took back move" not in text
    assert text.endswith("Black (X) accept or resume> quit\nGame left unfinished.\n")


class Replier(ComputerPlayer):
    """A computer that passes whenever it moves (and marks as the estimate says)."""

    def choose_move(self, game):
        return Play(None)


def test_undo_in_the_marking_phase_against_a_computer_gives_the_person_their_pass_back(empty_estimate):
    """Before: the computer's pass was taken back and it passed again at once, so the
    person was back in the marking phase and could never return to play."""
    terminal = Terminal.scripted(["pass", "undo", "B3", "quit"])
    game = position()
    players = {Color.BLACK: HumanPlayer(terminal, "me"), Color.WHITE: Replier(terminal, "computer")}
    PlaySession(game, players, terminal).run()
    text = terminal.transcript()
    assert (
        "Black (X) marks dead stones> undo\nTook back move 2 (White's pass).\n" in text
        and "Took back move 1 (Black's pass).\n" in text
    )
    assert "Black (X) move 1> B3\n" in text and "Move 2: White passed." in text
    assert game.move_number == 2 and game.moves[0].gtp() == "B3"


def test_undo_of_a_computers_proposal_goes_back_to_the_persons_pass(empty_estimate):
    """The computer passed first and proposed; the person's undo takes back the proposal
    and their own pass (the computer would propose the same again at once)."""
    terminal = Terminal.scripted(["pass", "undo", "quit"])
    game = position()
    game.play(None)  # Black (the computer) passed first
    players = {Color.BLACK: Replier(terminal, "computer"), Color.WHITE: HumanPlayer(terminal, "me")}
    PlaySession(game, players, terminal).run()
    text = terminal.transcript()
    assert "Black proposes dead: none.\nBlack's proposal: dead none.\n" in text
    assert (
        "White (O) accept or mark dead stones> undo\nTook back Black's proposal.\nTook back move 2 (White's pass).\n"
    ) in text
    assert text.endswith("White (O) move 2> quit\nGame left unfinished after 1 move.\n")


# ----------------------------------------------------------------- the pieces


def test_the_estimate_is_made_once_per_position(monkeypatch):
    calls = []

    def counting(game):
        calls.append(game.board.hash)
        return DeadStoneEstimate(pts("B4"))

    monkeypatch.setattr(marking, "estimate_dead_stones", counting)
    estimator, game = marking.DeadStoneEstimator(), position()
    assert estimator(game) == estimator(game) == DeadStoneEstimate(pts("B4"))
    game.play(point_from_gtp("A1", 7))
    estimator(game)
    assert len(calls) == 2


def test_the_real_estimate_sees_the_dead_stones():
    estimate = marking.estimate_dead_stones(position())
    assert estimate.dead == pts("B4 G4")
    assert estimate.note == "The computer's estimate of the dead stones is marked (x, o): B4 G4."


def test_seki_stones_are_named_in_the_note():
    note = DeadStoneEstimate(pts("B4"), pts("C3 D3")).note
    assert note == "The computer's estimate of the dead stones is marked (x, o): B4. In seki: C3 D3."


def test_toggling_marks_and_unmarks_whole_chains():
    game, dead = position(), set()
    marking.toggle_chains(game, dead, pts("B4 G4"))
    assert dead == set(pts("B4 G4"))
    marking.toggle_chains(game, dead, pts("B4"))
    assert dead == set(pts("G4"))


def ask(lines, state, estimate="B4 G4"):
    terminal = Terminal.scripted(lines)
    step = marking.ask_marking(terminal, position(), state, DeadStoneEstimate(pts(estimate)))
    return step, terminal.transcript()


def test_a_person_proposes_the_marks_they_made():
    step, text = ask(["G4", ""], Marking(Color.BLACK))
    assert step == Propose(pts("B4"))
    assert "Marked dead: B4 G4.\n" in text and "Marked dead: B4.\n" in text


def test_a_wrong_step_is_explained_and_the_marks_are_kept():
    step, text = ask(["B4", "accept", "resume", "done"], Marking(Color.BLACK))
    assert "Not now (wrong phase): there is no proposal to accept yet" in text
    assert "Not now (wrong phase): only a counter-proposal can be refused" in text
    assert step == Propose(pts("G4"))  # the estimate with B4 unmarked, through both errors


def test_a_person_answers_a_proposal_or_a_counter_proposal():
    proposed = Marking(Color.BLACK, Proposal(Color.BLACK, pts("B4")))
    assert ask(["yes"], proposed)[0] == Accept()
    assert ask(["G4", "propose"], proposed)[0] == Propose(pts("B4 G4"))
    countered = Marking(Color.BLACK, Proposal(Color.BLACK, pts("B4")), Proposal(Color.WHITE, pts("B4 G4")))
    step, text = ask(["", "resume"], countered)
    assert step == Refuse()
    assert "White's counter-proposal: dead B4 G4.\n" in text
    assert "Not now (wrong phase): Black cannot propose again" in text
    assert ask(["undo"], countered)[0] == Undo() and ask(["exit"], countered)[0] == Quit()


def test_a_person_marks_only_stones():
    step, text = ask(["pass", "A1", "Z9", "?", "quit"], Marking(Color.BLACK))
    assert "'pass' is not a stone.\n" in text and "There is no stone on A1.\n" in text
    assert "vertex Z9 is off the 7x7 board: columns are A-G, rows 1-7.\n" in text
    assert "Marking the dead stones (any case):" in text and step == Quit()


def test_the_computer_refuses_only_a_counter_proposal_unlike_its_estimate():
    estimate = DeadStoneEstimate(pts("G4"))
    countered = Marking(Color.BLACK, Proposal(Color.BLACK, pts("G4")), Proposal(Color.WHITE, pts("B4 G4")))
    assert marking.follow_estimate(countered, estimate) == Refuse()
    agreed = Marking(Color.BLACK, Proposal(Color.BLACK, pts("B4")), Proposal(Color.WHITE, pts("G4")))
    assert marking.follow_estimate(agreed, estimate) == Accept()
