"""The players of ``miai play`` (:mod:`miai.cli.players`): what a person's commands decide,
and what the computer decides, as action values."""

from __future__ import annotations

import pytest

from miai.cli.actions import Accept, Play, Propose, Quit, Refuse, Resign, Undo
from miai.cli.marking import DeadStoneEstimate
from miai.cli.players import AiPlayer, ComputerPlayer, HumanPlayer
from miai.cli.terminal import Terminal
from miai.coords import Color, point_from_gtp
from miai.endgame import Marking, Proposal
from miai.game import Game
from tests.test_endgame import pts


def human(lines=()):
    terminal = Terminal.scripted(lines)
    return HumanPlayer(terminal, "me"), terminal


# ----------------------------------------------------------------- a person's commands


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("d4", Play(point_from_gtp("D4", 9))),
        ("  D4  ", Play(point_from_gtp("D4", 9))),
        ("PASS", Play(None)),
        ("undo", Undo()),
        ("Resign", Resign()),
        ("quit", Quit()),
        ("exit", Quit()),
    ],
)
def test_commands_that_decide(line, action):
    player, _ = human()
    assert player.interpret(line, Game(9)) == action


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("", ""),
        ("help", "Commands (any case):"),
        ("?", "Commands (any case):"),
        ("board", "No moves yet."),
        ("score", "(all stones counted as alive):"),
        ("save", "Usage: save FILE.sgf"),
        ("undo now", "'undo' takes no arguments."),
        ("d4 e5", "Unknown command 'd4'."),
        ("j9", "vertex J9 is off the 8x8 board: columns are A-H, rows 1-8."),
        ("i5", "There is no column I"),
        ("xyzzy", "Unknown command 'xyzzy'."),
    ],
)
def test_commands_that_answer_and_decide_nothing(line, said):
    player, terminal = human()
    assert player.interpret(line, Game(8)) is None
    assert said in terminal.transcript()


def test_the_person_is_asked_until_a_command_decides():
    player, terminal = human(["help", "e9", "c3"])
    assert player.choose_move(Game(5)) == Play(point_from_gtp("C3", 5))
    assert terminal.transcript().count("Black (X) move 1> ") == 3


def test_end_of_input_is_quit():
    player, _ = human([])
    assert player.choose_move(Game(5)) == Quit()
    marking = Marking(Color.BLACK)
    assert player.choose_marking(Game(5), marking, DeadStoneEstimate(frozenset())) == Quit()


def test_only_a_computer_gives_back_its_reply_on_undo():
    terminal = Terminal.scripted([])
    assert HumanPlayer(terminal, "me").undo_reply is False
    assert AiPlayer(terminal, "miai", level=1).undo_reply is True


# ----------------------------------------------------------------- the computer


class Passer(ComputerPlayer):
    def choose_move(self, game):
        return Play(None)


@pytest.mark.parametrize(
    ("marking", "dead", "action", "said"),
    [
        (Marking(Color.BLACK), "A1", Propose(pts("A1")), "Black proposes dead: A1.\n"),
        (Marking(Color.WHITE, Proposal(Color.WHITE, pts("A1"))), "A1", Accept(), "Black accepts White's proposal.\n"),
        (Marking(Color.WHITE, Proposal(Color.WHITE, pts("A1"))), "B2", Propose(pts("B2")), "Black proposes dead: B2.\n"),
        (
            Marking(Color.BLACK, Proposal(Color.BLACK, pts("A1")), Proposal(Color.WHITE, pts("B2"))),
            "A1",
            Refuse(),
            "",
        ),
    ],
)
def test_the_computer_follows_the_estimate_and_says_so(marking, dead, action, said):
    """Black acts in each: as the first passer (to propose, or to answer a counter-proposal)
    or as the second (to answer a proposal)."""
    terminal = Terminal.scripted([])
    assert marking.to_act is Color.BLACK
    step = Passer(terminal, "computer").choose_marking(Game(5), marking, DeadStoneEstimate(pts(dead)))
    assert step == action
    assert terminal.transcript() == said


def test_the_ai_player_answers_with_a_legal_action():
    terminal = Terminal.scripted([])
    ai = AiPlayer(terminal, "miai", level=1)
    game = Game(7)
    for _ in range(4):
        action = ai.choose_move(game)
        assert isinstance(action, Play)
        game.play(action.point)
