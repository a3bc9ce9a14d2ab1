"""The dead-stone agreement (docs/RULES.md §5, seed 001) as a small state machine.

After two consecutive passes under rules that remove dead stones the game is in the
marking phase. One :class:`Marking` value holds where the agreement stands; each step
returns a new value or raises :class:`~miai.errors.IllegalMoveError` with the reason:

1. The player who passed first (``first``) proposes the stones, of both colours, they
   consider dead (:meth:`Marking.propose`).
2. The opponent (``second``) either accepts that proposal (:meth:`Marking.accept`) or
   proposes their own set instead (a counter-proposal).
3. The first player either accepts the counter-proposal — agreed — or refuses it
   (:meth:`Marking.refuse`): neither accepted the other's proposal, a **dispute**, and
   play resumes with the first player to move.

So at every moment exactly one player may act (:attr:`Marking.to_act`), and the steps
open to them are: propose (first, at the start), accept or counter-propose (second, after
the proposal), accept or refuse (first, after the counter-proposal). Anything else is an
error: ``OUT_OF_TURN`` when the step is the other player's (accepting one's own proposal,
proposing twice), ``WRONG_PHASE`` when the step does not exist at this point (accepting
before any proposal, refusing anything but a counter-proposal, a third proposal),
``NOT_A_STONE`` for an empty point marked dead. Marking a stone marks its whole chain
(:func:`whole_chains`), as servers do.

What follows a dispute (kept by :class:`~miai.game.Game`, which owns the history):

- If the two players then pass at once (the first player passes, then the second)
  without a stone placed, the game is scored with **all stones alive** (§5.6).
- If stones were placed, the next two consecutive passes open a new marking phase (§5.7).
- Under territory scoring, **compensation** (§5.8), one point per stone, defined thus.
  At the dispute, each player P has their own last proposal ``D_P`` and the opponent's
  ``D_O``. The *disputed* stones of P are the opponent's stones that P marked dead and the
  opponent did not: ``(D_P - D_O)`` of the opponent's colour. P's *compensable area*
  (:func:`compensable_area`) is every point of every region that P's proposal counts as
  P's territory (empty points and points of stones in ``D_P``, taken together as
  connected regions after ``D_P`` is removed, whose bordering stones are all P's) and
  that holds at least one disputed stone of P. A point of that area earns P one point
  of compensation if P placed a stone on it during the resumed play that follows the
  dispute (up to the next two consecutive passes) and a stone of P still stands on it
  when the game is counted (after the agreed dead stones are removed). Each point counts
  once, however often it was played; compensation from several disputes adds up. Stones
  placed to defend one's own group, or outside the region of a disputed group, earn
  nothing: they are moves like any other. Under area scoring a stone in one's own
  territory costs nothing, and there is no compensation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from miai.board import Board
from miai.coords import Color, Point, check_point, point_to_gtp, vertices
from miai.errors import IllegalMoveError, IllegalReason
from miai.regions import regions
from miai.rules import Rules
from miai.scoring import count

__all__ = ["Marking", "Proposal", "compensable_area", "whole_chains"]


def _name(color: Color) -> str:
    return str(color).capitalize()


def _points(points: Iterable[Point]) -> str:
    return vertices(points) or "none"


@dataclass(frozen=True, slots=True)
class Proposal:
    """The stones ``by`` considers dead (whole chains), and those they say live in seki."""

    by: Color
    dead: frozenset[Point] = frozenset()
    seki: frozenset[Point] = frozenset()

    def __str__(self) -> str:
        text = f"{_name(self.by)} proposes dead: {_points(self.dead)}"
        return text + (f"; seki: {_points(self.seki)}" if self.seki else "")


@dataclass(frozen=True, slots=True)
class Marking:
    """Where the agreement on dead stones stands in one marking phase.

    ``proposal`` is the first player's, ``counter`` the second's counter-proposal.
    """

    first: Color
    proposal: Proposal | None = None
    counter: Proposal | None = None

    @property
    def second(self) -> Color:
        return self.first.opponent

    @property
    def to_act(self) -> Color:
        """The player whose step it is."""
        return self.second if self.proposal is not None and self.counter is None else self.first

    @property
    def pending(self) -> Proposal | None:
        """The proposal waiting for an answer from :attr:`to_act`, if any."""
        return self.counter or self.proposal

    def _check_turn(self, color: Color, step: str) -> None:
        if color is not self.to_act:
            raise IllegalMoveError(
                IllegalReason.OUT_OF_TURN,
                f"{_name(color)} cannot {step} now: it is {_name(self.to_act)}'s turn to {self.expected}",
            )

    @property
    def expected(self) -> str:
        """What :attr:`to_act` may do, in words."""
        if self.proposal is None:
            return "mark the dead stones"
        if self.counter is None:
            return f"accept {_name(self.first)}'s proposal or mark the dead stones instead"
        return f"accept {_name(self.second)}'s counter-proposal or refuse it (play resumes)"

    def propose(self, proposal: Proposal) -> Marking:
        """The first player's proposal, or the second player's counter-proposal."""
        self._check_turn(proposal.by, "propose dead stones")
        if self.proposal is None:
            return Marking(self.first, proposal)
        if self.counter is None:
            return Marking(self.first, self.proposal, proposal)
        raise IllegalMoveError(
            IllegalReason.WRONG_PHASE,
            f"{_name(proposal.by)} cannot propose again: {self.expected}",
        )

    def accept(self, color: Color) -> Proposal:
        """``color`` accepts the pending proposal: returns the agreed one."""
        pending = self.pending
        if pending is None:
            raise IllegalMoveError(
                IllegalReason.WRONG_PHASE,
                f"there is no proposal to accept yet: {_name(self.first)} marks the dead stones first",
            )
        if pending.by is color:
            raise IllegalMoveError(IllegalReason.OUT_OF_TURN, f"{_name(color)} cannot accept their own proposal")
        self._check_turn(color, "accept")
        return pending

    def refuse(self, color: Color) -> tuple[Proposal, Proposal]:
        """The first player refuses the counter-proposal: a dispute. Returns the first
        player's and the second player's proposals."""
        if self.counter is None:
            if color is self.second and self.proposal is not None:
                why = f"{_name(color)} refuses a proposal by marking the dead stones they see instead"
            else:
                why = f"only a counter-proposal can be refused; now {_name(self.to_act)} must {self.expected}"
            raise IllegalMoveError(IllegalReason.WRONG_PHASE, why)
        self._check_turn(color, "refuse")
        assert self.proposal is not None
        return self.proposal, self.counter


def whole_chains(board: Board, points: Iterable[Point]) -> frozenset[Point]:
    """Every stone of the chains through ``points``; raises ``NOT_A_STONE`` on an empty point."""
    stones: set[Point] = set()
    for p in points:
        p = check_point(p, board.size)
        if board[p] is None:
            raise IllegalMoveError(IllegalReason.NOT_A_STONE, f"{point_to_gtp(p)} is empty: only stones can be marked")
        if p not in stones:
            stones.update(board.chain(p))
    return frozenset(stones)


def compensable_area(board: Board, rules: Rules, mine: Proposal, theirs: Proposal) -> frozenset[Point]:
    """The points where ``mine.by`` earns compensation for a stone placed in resumed play
    after refusing (or being refused) ``theirs``: the regions of ``mine.by``'s territory,
    as ``mine`` counts it, that hold an opponent stone ``mine`` marks dead and ``theirs``
    does not (see the module's docstring)."""
    me = mine.by
    disputed = [p for p in mine.dead - theirs.dead if board[p] is me.opponent]
    if not disputed:
        return frozenset()
    owners = count(board, rules, dead=mine.dead).owners
    open_points = [p for p in board if board[p] is None or p in mine.dead]
    area: set[Point] = set()
    for region in regions(open_points, board.size):
        if any(p in region and owners[p[0]][p[1]] == int(me) for p in disputed):
            area |= region
    return frozenset(area)
