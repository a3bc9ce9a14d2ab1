"""The dead-stone marking of ``miai play``: the computer's estimate, a person's dialogue,
and the computer's rule.

After two passes under rules that remove dead stones the players agree on the dead stones
as docs/RULES.md §5 says (the state machine is :class:`miai.endgame.Marking`): the first passer
proposes, the other accepts or counter-proposes, the first passer accepts that or play
resumes. This module decides one step for one player and returns it as a
:data:`~miai.cli.actions.MarkingAction`; the session applies it.

- :func:`estimate_dead_stones` is the computer's view of the position
  (:func:`miai.ai.status.estimate_status`), which both kinds of player start from;
  :class:`DeadStoneEstimator` makes it once per position.
- :func:`ask_marking` is a person's step: it starts from the estimate (or from the
  proposal to answer), lets them toggle chains by vertex, count, and ask for help, and
  only returns a step the agreement allows now (it checks the step on the
  :class:`~miai.endgame.Marking` value, which changes nothing), so that the marks they
  made survive a wrong command.
- :func:`follow_estimate` is the computer's rule (:mod:`miai.ai.marking`) as a session's action,
  and :func:`computer_step` says it aloud.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from miai.ai.marking import MarkingReply, marking_reply
from miai.ai.status import estimate_status
from miai.cli import texts
from miai.cli.actions import Accept, MarkingAction, Propose, Quit, Refuse, Undo
from miai.cli.terminal import Terminal
from miai.cli.views import explain_bad_vertex, show_score
from miai.coords import Point, point_from_gtp
from miai.endgame import Marking, Proposal
from miai.errors import IllegalMoveError, InvalidMoveError
from miai.game import Game
from miai.render import rich_diagram

__all__ = [
    "DeadStoneEstimate",
    "DeadStoneEstimator",
    "ask_marking",
    "computer_step",
    "estimate_dead_stones",
    "follow_estimate",
    "parse_stones",
    "toggle_chains",
]


@dataclass(frozen=True, slots=True)
class DeadStoneEstimate:
    """The computer's view of the dead and seki stones of a position."""

    dead: frozenset[Point]
    seki: frozenset[Point] = frozenset()

    @property
    def note(self) -> str:
        """What the players are told of it when the marking phase begins."""
        if self.seki:
            return texts.estimate_note_with_seki(self.dead, self.seki)
        return texts.estimate_note(self.dead)


def estimate_dead_stones(game: Game) -> DeadStoneEstimate:
    """The status estimator's dead and seki stones for the position of ``game``."""
    estimate = estimate_status(game)
    return DeadStoneEstimate(frozenset(estimate.dead), frozenset(estimate.seki))


class DeadStoneEstimator:
    """:func:`estimate_dead_stones`, made once per position: the session's introduction and
    each player's step of one marking phase all use the same estimate (it takes playouts)."""

    def __init__(self) -> None:
        self._last: tuple[int, DeadStoneEstimate] | None = None
        """The last estimate and the position hash it is for."""

    def __call__(self, game: Game) -> DeadStoneEstimate:
        key = game.board.hash
        if self._last is None or self._last[0] != key:
            self._last = (key, estimate_dead_stones(game))
        return self._last[1]


# ---------------------------------------------------------------------------- a person's step


def toggle_chains(game: Game, dead: set[Point], points: Collection[Point]) -> None:
    """Mark the chains through ``points`` dead, or alive again if they were marked."""
    for point in points:
        chain = set(game.board.chain(point))
        if point in dead:
            dead -= chain
        else:
            dead |= chain


def show_marked(terminal: Terminal, game: Game, dead: Collection[Point]) -> None:
    """The board with ``dead`` stones drawn lower-case, and what they are."""
    terminal.show(rich_diagram(game.board, dead=dead))
    terminal.say(texts.marked_dead(dead))


def parse_stones(terminal: Terminal, game: Game, words: list[str]) -> list[Point] | None:
    """The stones ``words`` name, or None after saying what is wrong with them."""
    points: list[Point] = []
    for word in words:
        try:
            point = point_from_gtp(word, game.size)
        except InvalidMoveError:
            terminal.say(explain_bad_vertex(word, game.size) or texts.not_a_vertex_marking(word))
            return None
        if point is None:
            terminal.say(texts.pass_is_not_a_stone())
            return None
        if game.board[point] is None:
            terminal.say(texts.no_stone_on(point))
            return None
        points.append(point)
    return points


def ask_marking(terminal: Terminal, game: Game, marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
    """A person's step in the marking phase: propose (toggling chains by vertex), accept, or
    resume play; ``score``, ``board``, ``help``, ``undo`` and ``quit`` work too.

    The proposal to answer (if any) and the marked board are shown first. A step the
    agreement does not allow now is explained and the person asked again, their marks kept.
    """
    color = marking.to_act
    pending, countered = marking.pending, marking.counter is not None
    if pending is None:
        dead, seki = set(estimate.dead), set(estimate.seki)
        prompt = texts.mark_prompt(color)
    else:
        dead, seki = set(pending.dead), set(pending.seki)
        if countered:
            terminal.say(texts.counter_proposal_made(pending.by, pending.dead))
            prompt = texts.answer_counter_prompt(color)
        else:
            terminal.say(texts.proposal_made(pending.by, pending.dead))
            prompt = texts.answer_proposal_prompt(color)
    show_marked(terminal, game, dead)
    while True:
        try:
            line = terminal.ask(prompt)
        except EOFError:
            return Quit()
        words = line.replace(",", " ").split()
        command = words[0].lower() if words else ""
        attempt: MarkingAction = Accept()  # the step being checked, for the explanation if refused
        try:
            if command in ("quit", "exit"):
                return Quit()
            if command in ("help", "?"):
                terminal.say(texts.marking_help())
            elif command == "board":
                show_marked(terminal, game, dead)
            elif command == "score":
                show_score(terminal, game, dead=dead)
            elif command == "undo":
                return Undo()
            elif command in ("accept", "yes"):
                marking.accept(color)  # raises if there is nothing to accept
                return attempt
            elif command == "resume":
                attempt = Refuse()
                marking.refuse(color)  # raises unless this answers a counter-proposal
                return attempt
            elif command in ("none", "clear"):
                dead.clear()
                show_marked(terminal, game, dead)
            elif command in ("", "done", "propose"):
                if pending is not None and not countered and dead == set(pending.dead):
                    terminal.say(texts.proposal_unchanged(pending.by))
                    continue
                attempt = step = Propose(frozenset(dead), frozenset(seki - dead))
                marking.propose(Proposal(color, step.dead, step.seki))  # raises if no proposal is open
                return step
            else:
                points = parse_stones(terminal, game, words)
                if points is not None:
                    toggle_chains(game, dead, points)
                    show_marked(terminal, game, dead)
        except IllegalMoveError as exc:
            terminal.say(texts.not_now(exc, marking, attempt, color))


# ---------------------------------------------------------------------------- the computer's step


def follow_estimate(marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
    """The computer's step (:func:`miai.ai.marking.marking_reply` by its estimate), as the
    session's action: a proposal is the estimate's dead and seki stones."""
    reply = marking_reply(marking, estimate.dead)
    if reply is MarkingReply.ACCEPT:
        return Accept()
    if reply is MarkingReply.PROPOSE:
        return Propose(estimate.dead, estimate.seki)
    return Refuse()


def computer_step(terminal: Terminal, marking: Marking, estimate: DeadStoneEstimate) -> MarkingAction:
    """:func:`follow_estimate`, with what the computer does said on the terminal (a refusal
    is announced by the session, as for a person)."""
    action = follow_estimate(marking, estimate)
    color, pending = marking.to_act, marking.pending
    if isinstance(action, Accept) and pending is not None:
        terminal.say(texts.computer_accepts(color, pending.by))
    elif isinstance(action, Propose):
        terminal.say(texts.computer_proposes(color, action.dead))
    return action
