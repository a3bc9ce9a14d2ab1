"""A game of Go: rules, board and history, with every move checked (docs/RULES.md §1–4, §6, §7).

:class:`Game` is the checked door for users, GTP and the server: :meth:`Game.play` raises
:class:`~miai.errors.IllegalMoveError` saying which rule a move breaks (occupied, suicide,
ko, superko naming the move whose position it repeats, or the wrong phase). The unchecked
door for search is the kernel (or :meth:`Board.place`).

The board knows no history; the game keeps it: the moves and setup edits, every position
seen (for positional and situational superko, and for the void on a third repetition
under simple ko), passes, the phase and the result. What the history implies is one
``_State`` value; a history entry (:data:`HistoryEntry`) goes in through one checked door,
:meth:`Game.apply`, which undo (a replay from the start), :meth:`Game.with_rules`, SGF
records and GTP ``loadsgf`` share.

Phases: ``PLAY`` until two consecutive passes; then ``MARKING`` when the rules remove
dead stones, or ``FINISHED`` when stones count as they stand. In the marking phase the
players agree on the dead stones by the protocol of docs/RULES.md §5 (:mod:`miai.endgame`):
:meth:`propose`, :meth:`accept`, :meth:`refuse`; :meth:`finish` is the short door where
both agree on one set at once. Proposals and refusals are history entries: undo takes
them back one by one.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Union

from miai.board import Board
from miai.coords import (
    Color,
    Move,
    Point,
    check_color,
    check_point,
    check_size,
    neighbors,
    point_from_gtp,
    point_to_gtp,
    vertices,
)
from miai.endgame import Marking, Proposal, compensable_area, whole_chains
from miai.errors import HandicapError, IllegalMoveError, IllegalReason, InvalidMoveError, ResultError, RulesError
from miai.handicap import check_free_handicap, fixed_handicap_points
from miai.result import EndReason, Result
from miai.rules import KoRule, Rules, Scoring
from miai.scoring import Score, count


class Phase(str, Enum):
    PLAY = "play"
    MARKING = "marking"
    """After two passes, under rules that remove dead stones: the players agree on them."""
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Setup:
    """An edit of the position (SGF ``AB``/``AW``/``AE``, and ``PL``), kept in the history."""

    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    empty: tuple[Point, ...] = ()
    to_move: Color | None = None

    def apply_to(self, board: Board) -> None:
        """Edit ``board`` as this setup says: the emptied points first, then the black and the
        white stones (no captures; what a game, a diagram or a review replays)."""
        for p in self.empty:
            board.set(p, None)
        for p in self.black:
            board.set(p, Color.BLACK)
        for p in self.white:
            board.set(p, Color.WHITE)


@dataclass(frozen=True, slots=True)
class Resume:
    """Play resumed after two passes, kept in the history.

    ``by`` is the player who refused the counter-proposal in the marking phase (a dispute,
    docs/RULES.md §5.5: then §5.6–5.8 apply to the play that follows); None when play simply
    went on (a record or a GTP controller playing after two passes).
    """

    by: Color | None = None


@dataclass(frozen=True, slots=True)
class _Ending:
    """How a game ended other than by play: resignation, time, agreement, or a given result."""

    result: Result
    reason: EndReason
    score: Score | None = None


HistoryEntry = Union[Move, Setup, Resume, Proposal]
"""One entry of a game's history, as :meth:`Game.apply` takes it: a move or pass, a setup
edit, a resumption of play (or a refusal in the marking phase), a dead-stone proposal."""

MoveLike = Move | Point | str | None


@dataclass
class _State:
    """Everything the game derives by replaying its history from the start: the position,
    the turn, passes, the phase's bookkeeping and the positions seen (for superko and the
    void). Undo rebuilds it; :meth:`copy` copies every field that can be copied (boards,
    dicts), so a new field is never shared between a game and its copy."""

    board: Board
    to_move: Color
    move_number: int = 0
    passes: int = 0
    void: bool = False
    first_passer: Color | None = None
    marking: Marking | None = None
    disputed: bool = False
    """Play resumed after a dispute and no stone has been placed since (docs/RULES.md §5.6)."""
    all_alive: bool = False
    """Ended by an immediate double pass after a dispute: all stones count as alive."""
    compensable: dict[Color, frozenset[Point]] = field(default_factory=dict)
    """Per colour, the §5.8 compensable area of the resumed play going on now."""
    compensated: dict[Color, frozenset[Point]] = field(
        default_factory=lambda: {Color.BLACK: frozenset(), Color.WHITE: frozenset()}
    )
    """Per colour, the points of a compensable area it placed a stone on."""
    seen: dict[int, int] = field(default_factory=dict)
    """Position hash -> the move number after which it first stood (positional superko)."""
    seen_to_move: dict[tuple[int, Color], int] = field(default_factory=dict)
    """(hash, player to move) -> the move number after which it first stood (situational)."""
    occurrences: dict[tuple[int, Color], int] = field(default_factory=dict)
    """(hash, player to move) -> how often it stood (the void on a third repetition)."""

    def copy(self) -> _State:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return _State(**{k: v.copy() if hasattr(v, "copy") else v for k, v in values.items()})

    def start_positions(self) -> None:
        """Forget earlier positions: the current one is where the game starts."""
        h = self.board.hash
        self.seen = {h: self.move_number}
        self.seen_to_move = {(h, self.to_move): self.move_number}
        self.occurrences = {(h, self.to_move): 1}

    def record_position(self, rules: Rules, *, by_pass: bool = False) -> None:
        """Note the position now stands. A position a pass reaches does not count towards the
        void: a long cycle needs stones (a pass only hands over the turn), and passes that
        follow a resumption of play must not end the game as a cycle (docs/RULES.md §5.6)."""
        h = self.board.hash
        n = self.move_number
        self.seen.setdefault(h, n)
        key = (h, self.to_move)
        self.seen_to_move.setdefault(key, n)
        if rules.void_on_repetition and not by_pass:
            seen = self.occurrences.get(key, 0) + 1
            self.occurrences[key] = seen
            if seen >= 3:
                self.void = True


class Game:
    """One game: ``Game(19, Rules.preset("japanese"), handicap=4)``.

    ``komi`` overrides the rules' komi. With a handicap, Black's stones are placed on the
    fixed points and White moves first.
    """

    def __init__(self, size: int = 19, rules: Rules | None = None, *, handicap: int = 0, komi: float | None = None):
        rules = rules if rules is not None else Rules.preset("chinese")
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules value (e.g. Rules.preset('japanese')), not {rules!r}")
        if komi is not None:
            rules = rules.replace(komi=komi)
        self.rules: Rules = rules
        self.size: int = check_size(size)
        self._history: list[HistoryEntry] = []
        """Every entry applied, proposals included: replaying them rebuilds :attr:`_state`."""
        self._handicap_points: tuple[Point, ...] = ()
        self._ending: _Ending | None = None
        self._state = self._initial_state()
        if handicap:
            self.set_handicap(fixed_handicap_points(size, handicap))

    # ------------------------------------------------------------- state
    def _initial_state(self) -> _State:
        """The starting position (handicap stones placed), with no history applied."""
        board = Board(self.size)
        for p in self._handicap_points:
            board.set(p, Color.BLACK)
        state = _State(board, Color.WHITE if self._handicap_points else Color.BLACK)
        state.start_positions()
        return state

    # ------------------------------------------------------------ reading
    @property
    def board(self) -> Board:
        """The current position (change it through the game, not directly)."""
        return self._state.board

    @property
    def to_move(self) -> Color:
        return self._state.to_move

    @property
    def to_act(self) -> Color | None:
        """The player the game waits for: in play the player to move, in the marking phase
        the one whose step it is (:attr:`Marking.to_act <miai.endgame.Marking.to_act>`);
        None once the game is over."""
        phase = self.phase
        if phase is Phase.PLAY:
            return self._state.to_move
        marking = self._state.marking
        return marking.to_act if phase is Phase.MARKING and marking is not None else None

    @property
    def komi(self) -> float:
        return self.rules.komi

    @property
    def handicap(self) -> int:
        return len(self._handicap_points)

    @property
    def handicap_points(self) -> list[Point]:
        return list(self._handicap_points)

    @property
    def history(self) -> list[Move | Setup | Resume]:
        """Moves, passes, setup edits and resumptions, in order (the proposals of a marking
        phase are not in it: see :attr:`marking`)."""
        return [e for e in self._history if not isinstance(e, Proposal)]

    @property
    def moves(self) -> list[Move]:
        """Moves and passes played, in order."""
        return [e for e in self._history if isinstance(e, Move)]

    @property
    def move_number(self) -> int:
        """How many moves (passes included) have been played."""
        return self._state.move_number

    @property
    def last_move(self) -> Move | None:
        for e in reversed(self._history):
            if isinstance(e, Move):
                return e
        return None

    @property
    def consecutive_passes(self) -> int:
        return self._state.passes

    @property
    def ko_point(self) -> Point | None:
        """The point where the side to move may not retake a ko at once, if any."""
        ko = self.board.ko
        return ko[0] if ko and ko[1] is self._state.to_move else None

    def captures(self, color: Color) -> int:
        """Stones of the opponent that ``color`` has captured so far."""
        return self.board.captures(check_color(color))

    @property
    def phase(self) -> Phase:
        state = self._state
        if self._ending is not None or state.void or state.all_alive:
            return Phase.FINISHED
        if state.passes >= 2:
            return Phase.MARKING if self.rules.remove_dead_stones else Phase.FINISHED
        return Phase.PLAY

    @property
    def result(self) -> Result | None:
        """The result once the game is finished (``str()`` gives ``B+3.5``, ``W+R``, ``Void``...)."""
        if self._ending is not None:
            return self._ending.result
        if self._state.void:
            return Result.void()
        if self.phase is Phase.FINISHED:
            return self.score().result
        return None

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game ended (None while it goes on); :meth:`EndReason.describe
        <miai.result.EndReason.describe>` says it in words."""
        if self._ending is not None:
            return self._ending.reason
        if self._state.void:
            return EndReason.REPETITION
        if self._state.all_alive:
            return EndReason.ALL_ALIVE
        if self.phase is Phase.FINISHED:
            return EndReason.PASSES
        return None

    @property
    def end_words(self) -> str | None:
        """Why the game ended in English words (:meth:`EndReason.describe
        <miai.result.EndReason.describe>`, naming who resigned or ran out of time); None while
        it goes on."""
        reason, result = self.end_reason, self.result
        return None if reason is None else reason.describe(result.loser if result is not None else None)

    # ----------------------------------------------------------- legality
    def _coerce(self, move: MoveLike) -> Move:
        if isinstance(move, Move):
            check_color(move.color)
            if move.point is not None:
                check_point(move.point, self.size)
            return move
        if move is None:
            return Move(self._state.to_move, None)
        if isinstance(move, str):
            return Move(self._state.to_move, point_from_gtp(move, self.size))
        if isinstance(move, tuple):
            return Move(self._state.to_move, check_point(move, self.size))
        raise InvalidMoveError(f"not a move: {move!r} (expected a Move, a (row, col) point, GTP text or None)")

    def _illegal(self, move: Move) -> IllegalMoveError | None:
        """The error playing ``move`` would raise, or None if it is legal."""
        state = self._state
        playing = state.passes < 2 and self._ending is None and not state.void and not state.all_alive
        if not playing:  # (self.phase, spelled out: this runs for every move)
            phase = self.phase
            what = (
                f"the game is over ({self.result})"
                if phase is Phase.FINISHED
                else "the game is in the marking phase: agree on the dead stones first"
            )
            return IllegalMoveError(IllegalReason.WRONG_PHASE, f"{move}: {what}")
        if move.point is None:
            return None
        board = state.board
        c = move.color
        reason = board.legality(move.point, c, self.rules.suicide)
        if reason is not None:
            vertex = point_to_gtp(move.point)
            if reason is IllegalReason.OCCUPIED:
                msg = f"{vertex} is occupied by a {board[move.point]} stone"
            elif reason is IllegalReason.KO:
                msg = f"{vertex} retakes the ko at once: {c} must play elsewhere first"
            else:
                msg = f"{vertex} is suicide for {c}: the stone would be left without liberties"
                if self.rules.suicide:
                    msg += " (a single stone's suicide is illegal under every ruleset)"
            return IllegalMoveError(reason, msg)
        ko = self.rules.ko
        if ko is KoRule.SIMPLE:
            return None
        h = board.hash_after(move.point, c)
        if ko is KoRule.POSITIONAL:
            earlier = state.seen.get(h)
            kind = "positional superko"
        else:
            earlier = state.seen_to_move.get((h, c.opponent))
            kind = f"situational superko, with {c.opponent} to move"
        if earlier is None:
            return None
        vertex = point_to_gtp(move.point)
        when = "the starting position" if earlier == 0 else f"the position after move {earlier}"
        return IllegalMoveError(
            IllegalReason.SUPERKO, f"{vertex} would repeat {when} ({kind})", repeats_move=earlier
        )

    def legality(self, move: MoveLike) -> IllegalReason | None:
        """Why ``move`` is illegal now, or None if it is legal."""
        err = self._illegal(self._coerce(move))
        return err.reason if err else None

    def is_legal(self, move: MoveLike) -> bool:
        return self.legality(move) is None

    def legal_moves(self, color: Color | None = None) -> list[Point]:
        """Every point where ``color`` (default: the side to move) may play now."""
        c = self._state.to_move if color is None else check_color(color)
        if self.phase is not Phase.PLAY:
            return []
        points = self.board.legal_points(c, self.rules.suicide)
        if self.rules.ko is KoRule.SIMPLE:
            return points
        return [p for p in points if self._illegal(Move(c, p)) is None]

    # --------------------------------------------------------------- the door
    def apply(self, entry: HistoryEntry, *, resume: bool = False) -> None:
        """Apply one history entry, checked, by the method for it: a :class:`Move` (stone or
        pass) by :meth:`play`, a :class:`Setup` by :meth:`setup`, a :class:`Resume` by
        :meth:`resume` (or by :meth:`refuse` when it names who refused), a :class:`Proposal`
        by :meth:`propose`. Undo, :meth:`with_rules`, SGF records and GTP ``loadsgf`` all
        replay a game through here.

        ``resume``: when two passes have ended play and ``entry`` is a move or a setup,
        resume play first (:meth:`resume`), as records and GTP controllers go on after two
        passes without saying so.
        """
        if resume and isinstance(entry, (Move, Setup)) and self.can_resume:
            self.resume()
        if isinstance(entry, Move):
            self.play(entry)
        elif isinstance(entry, Setup):
            self.setup(entry.black, entry.white, entry.empty, entry.to_move)
        elif isinstance(entry, Resume):
            if entry.by is None:
                self.resume()
            else:
                self.refuse(entry.by)
        elif isinstance(entry, Proposal):
            self.propose(entry.dead, seki=entry.seki, color=entry.by)
        else:
            raise InvalidMoveError(f"not a history entry: {entry!r} (expected a Move, Setup, Resume or Proposal)")

    # --------------------------------------------------------------- play
    def play(self, move: MoveLike) -> Move:
        """Play a move (a stone or a pass) after checking it; returns it as a :class:`Move`.

        Accepts a :class:`Move` (any colour: playing out of turn is allowed, as GTP's
        ``play`` allows it), a ``(row, col)`` point, GTP text (``"D4"``, ``"pass"``), or
        None for a pass by the side to move.
        """
        m = self._coerce(move)
        err = self._illegal(m)
        if err is not None:
            raise err
        self._apply_move(m)
        self._history.append(m)
        return m

    def pass_move(self) -> Move:
        """The side to move passes."""
        return self.play(None)

    def _apply_move(self, m: Move) -> None:
        """Carry out a legal move: board, turn, passes, positions seen."""
        state = self._state
        if m.point is None:
            state.board.clear_ko()
            if state.passes == 0:
                state.first_passer = m.color
            state.passes += 1
            if state.passes == 2:
                self._end_play()
        else:
            state.board.place(m.point, m.color)
            state.passes = 0
            state.disputed = False
            if m.point in state.compensable.get(m.color, ()):
                state.compensated[m.color] |= {m.point}
        state.to_move = m.color.opponent
        state.move_number += 1
        state.record_position(self.rules, by_pass=m.point is None)

    def _end_play(self) -> None:
        """Two consecutive passes: all stones alive after a dispute's immediate double pass
        (docs/RULES.md §5.6), else the marking phase (if the rules remove dead stones)."""
        state = self._state
        state.compensable = {}  # the resumed play (if any) is over
        if state.disputed:
            state.all_alive = True
        elif self.rules.remove_dead_stones:
            assert state.first_passer is not None
            state.marking = Marking(state.first_passer)

    def resign(self, color: Color | None = None) -> Result:
        """``color`` (default: the side to move) resigns; returns the result (``W+R``)."""
        loser = self._state.to_move if color is None else check_color(color)
        return self._end(Result.resignation(loser), EndReason.RESIGNATION)

    def lose_on_time(self, color: Color) -> Result:
        """``color`` ran out of time; returns the result (``B+T``)."""
        color = check_color(color)
        return self._end(Result.time(color), EndReason.TIME)

    def set_result(self, result: Result, reason: EndReason = EndReason.GIVEN) -> None:
        """End the game with a result decided elsewhere (a record, a referee, a claim)."""
        if not isinstance(reason, EndReason):
            raise ResultError(f"not a reason for the end of a game: {reason!r} (expected an EndReason)")
        self._end(result, reason)

    def _end(self, result: Result, reason: EndReason, score: Score | None = None) -> Result:
        if self.phase is Phase.FINISHED:
            raise IllegalMoveError(IllegalReason.WRONG_PHASE, f"the game is already over ({self.result})")
        self._ending = _Ending(result, reason, score)
        return result

    def resume(self) -> None:
        """Go on playing after two passes, outside the dead-stone agreement: what records and
        GTP controllers do when moves follow two passes. The player who passed first moves
        next, as the turn order already says. (A dispute in the agreement, which also
        resumes play, is :meth:`refuse`.)
        """
        if not self.can_resume:
            raise IllegalMoveError(IllegalReason.WRONG_PHASE, "play can only resume after two consecutive passes")
        entry = Resume()
        self._apply_resume(entry)
        self._history.append(entry)

    @property
    def can_resume(self) -> bool:
        """Whether two consecutive passes ended play and nothing else ended the game: the
        marking phase, or a game whose rules count the stones as they stand (records and
        GTP controllers sometimes play on even then)."""
        state = self._state
        return state.passes >= 2 and self._ending is None and not state.void and not state.all_alive

    def _apply_resume(self, entry: Resume) -> None:
        state = self._state
        marking = state.marking
        state.passes = 0
        state.marking = None
        state.disputed = entry.by is not None
        if entry.by is not None and marking is not None and self.rules.scoring is Scoring.TERRITORY:
            first, second = marking.refuse(entry.by)
            state.compensable = {
                first.by: compensable_area(state.board, self.rules, first, second),
                second.by: compensable_area(state.board, self.rules, second, first),
            }

    # ------------------------------------------------- the dead-stone agreement
    @property
    def marking(self) -> Marking | None:
        """Where the agreement on dead stones stands, in the marking phase (else None)."""
        return self._state.marking if self.phase is Phase.MARKING else None

    def _marking_step(self, color: Color | None) -> tuple[Marking, Color]:
        marking = self.marking
        if marking is None:
            raise IllegalMoveError(
                IllegalReason.WRONG_PHASE,
                f"dead stones are agreed on in the marking phase, after two passes, not in the {self.phase.value} phase",
            )
        return marking, marking.to_act if color is None else check_color(color)

    def propose(self, dead: Iterable[Point], *, seki: Iterable[Point] = (), color: Color | None = None) -> Proposal:
        """``color`` (default: the player whose step it is) proposes these dead stones (and
        seki stones): the first passer's proposal or the opponent's counter-proposal
        (docs/RULES.md §5.2–5.3). A stone stands for its whole chain; an empty point raises
        ``NOT_A_STONE``, a step out of turn ``OUT_OF_TURN``."""
        marking, color = self._marking_step(color)
        proposal = Proposal(color, whole_chains(self.board, dead), whole_chains(self.board, seki))
        self._state.marking = marking.propose(proposal)
        self._history.append(proposal)
        return proposal

    def accept(self, color: Color | None = None) -> Score:
        """``color`` (default: the player whose step it is) accepts the opponent's pending
        proposal: agreed; the dead stones are removed and the game is counted (§5.4)."""
        marking, color = self._marking_step(color)
        agreed = marking.accept(color)
        s = self.score(agreed.dead, seki=agreed.seki)
        self._end(s.result, EndReason.AGREEMENT, s)
        return s

    def refuse(self, color: Color | None = None) -> None:
        """The first passer refuses the counter-proposal: neither accepted the other's, so
        play resumes with the first passer to move (§5.5), and §5.6–5.8 apply."""
        marking, color = self._marking_step(color)
        marking.refuse(color)  # raises if this is not the step
        entry = Resume(by=color)
        self._apply_resume(entry)
        self._history.append(entry)

    @property
    def compensable_areas(self) -> dict[Color, frozenset[Point]]:
        """Per colour, its §5.8 compensable area in the resumed play going on now (empty when
        play was not resumed after a refusal, or once that play has ended): the points where
        a stone it places, if it still stands at the count, is compensated."""
        return {c: self._state.compensable.get(c, frozenset()) for c in (Color.BLACK, Color.WHITE)}

    def compensation(self, dead: Iterable[Point] = ()) -> tuple[int, int]:
        """(Black's, White's) §5.8 compensation if the game were counted now with ``dead``
        stones removed: the points of their compensable areas they placed a stone on in
        resumed play and where their stone still stands (see :mod:`miai.endgame`)."""
        removed = frozenset(dead)
        compensated = self._state.compensated

        def points(c: Color) -> int:
            return sum(1 for p in compensated[c] if self.board[p] is c and p not in removed)

        return points(Color.BLACK), points(Color.WHITE)

    # ---------------------------------------------------------- handicap
    def set_handicap(self, points: Iterable[Point]) -> None:
        """Place Black's handicap stones (free placement) before the first move; White moves next."""
        placed = check_free_handicap(self.size, points)
        if self._history or self._handicap_points:
            raise HandicapError("handicap stones can only be placed on an empty board before the first move")
        self._handicap_points = tuple(placed)
        self._state = self._initial_state()

    # ------------------------------------------------------------- setup
    def setup(
        self,
        black: Iterable[Point] = (),
        white: Iterable[Point] = (),
        empty: Iterable[Point] = (),
        to_move: Color | None = None,
    ) -> None:
        """Edit the position (stones added or removed without captures, as SGF ``AB``/``AW``/
        ``AE``). Before the first move it defines the starting position; later it is
        recorded in the history and counts as a new position for superko."""
        if self.phase is not Phase.PLAY:
            raise IllegalMoveError(IllegalReason.WRONG_PHASE, "the position can only be edited during play")
        entry = Setup(
            tuple(check_point(p, self.size) for p in black),
            tuple(check_point(p, self.size) for p in white),
            tuple(check_point(p, self.size) for p in empty),
            None if to_move is None else check_color(to_move),
        )
        before = self._state.copy()
        self._apply_setup(entry)
        edited = {q for p in entry.black + entry.white + entry.empty for q in (p, *neighbors(p, self.size))}
        airless = [p for p in edited if self.board[p] is not None and self.board.liberties(p) == 0]
        if airless:
            self._state = before
            raise InvalidMoveError(f"setup leaves stones without liberties at {vertices(airless)}")
        self._history.append(entry)

    def _apply_setup(self, entry: Setup) -> None:
        state = self._state
        entry.apply_to(state.board)
        if entry.to_move is not None:
            state.to_move = entry.to_move
        if state.move_number == 0:
            state.start_positions()
        else:
            state.record_position(self.rules)

    # -------------------------------------------------------------- undo
    def undo(self) -> None:
        """Take back the last event: a resignation or given result, else the last move,
        pass, setup edit, resumption or proposal. Raises ``IndexError`` when there is
        nothing to take back."""
        if self._ending is not None:
            self._ending = None
            return
        if not self._history:
            raise IndexError("nothing to undo")
        self._replay(self._history[:-1])

    def after(self, moves: int) -> Game:
        """A new game as this one stood before its move ``moves + 1`` (after its last, for
        :attr:`move_number`): handicap, set-up stones, resumptions and proposals up to there
        kept, an ending other than by play not (as :meth:`with_rules`), so that a review or an
        analysis can play on from it. One replay; ``ValueError`` outside 0 to :attr:`move_number`."""
        if not 0 <= moves <= self.move_number:
            raise ValueError(f"after {moves} moves: the game has {self.move_number} (0 to {self.move_number})")
        played = [i for i, entry in enumerate(self._history) if isinstance(entry, Move)]
        earlier = copy.copy(self)
        earlier._ending = None
        earlier._replay(self._history[: played[moves]] if moves < len(played) else self._history)
        return earlier

    def _replay(self, entries: list[HistoryEntry]) -> None:
        """Start again from the starting position and apply ``entries`` (through :meth:`apply`)."""
        self._history = []
        self._state = self._initial_state()
        for entry in entries:
            self.apply(entry)

    # ------------------------------------------------------------ scoring
    def score(self, dead: Iterable[Point] = (), *, seki: Iterable[Point] = ()) -> Score:
        """Count the current position under the game's rules with ``dead`` stones removed
        (none by default): the breakdown (with any §5.8 compensation), the result and the
        point map."""
        dead = frozenset(dead)
        return count(
            self.board, self.rules, dead=dead, seki=seki, handicap=self.handicap, compensation=self.compensation(dead)
        )

    def finish(self, dead: Iterable[Point] = (), *, seki: Iterable[Point] = ()) -> Score:
        """In the marking phase: both players agree on these dead stones at once (whatever the
        proposals so far); count, and end the game."""
        if self.phase is not Phase.MARKING:
            raise IllegalMoveError(
                IllegalReason.WRONG_PHASE, f"dead stones are agreed in the marking phase, not in the {self.phase.value} phase"
            )
        s = self.score(dead, seki=seki)
        self._end(s.result, EndReason.AGREEMENT, s)
        return s

    @property
    def final_score(self) -> Score | None:
        """The score the game ended with, when it ended by counting."""
        if self._ending is not None:
            return self._ending.score
        if self.phase is Phase.FINISHED and not self._state.void:
            return self.score()
        return None

    # --------------------------------------------------------------- misc
    def with_rules(self, rules: Rules) -> Game:
        """The same game (handicap, setups, moves, resumptions) replayed under other rules,
        since a rule change can change what the history means (superko, suicide, the end of
        play). Raises :class:`IllegalMoveError` if a move is illegal under ``rules``; an
        ending other than by play (resignation, a given result) is not carried over."""
        new = Game(self.size, rules)
        if self._handicap_points:
            new.set_handicap(self._handicap_points)
        for entry in self._history:
            new.apply(entry)
        return new

    def copy(self) -> Game:
        """An independent copy: the rules, handicap and ending are values, the history a new
        list, the replayed state :meth:`_State.copy`."""
        other = copy.copy(self)
        other._history = list(self._history)
        other._state = self._state.copy()
        return other

    def __str__(self) -> str:
        return str(self.board)

    def __repr__(self) -> str:
        return (
            f"<Game {self.size}x{self.size} {self.rules} move {self.move_number}, "
            f"{self.to_move} to move, {self.phase.value}>"
        )


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game starts from: board size, rules (komi included) and handicap. The server
    keeps one per game, records and reviews start theirs from one (:meth:`start`)."""

    size: int
    rules: Rules
    handicap: int = 0

    def new_game(self) -> Game:
        """A new game, the handicap on its fixed points (raises
        :class:`~miai.errors.HandicapError` for a handicap the board has none for)."""
        return Game(self.size, self.rules, handicap=self.handicap)

    def start(self, black: Sequence[Point] = (), white: Sequence[Point] = ()) -> Game:
        """A new game whose first position holds these stones, as a record or a review gives
        them: with a handicap of 2 or more and no white stone, the black stones are the
        handicap (its fixed points when there are none), and
        :class:`~miai.errors.HandicapError` says when they cannot be; otherwise the stones are
        set up (one :class:`Setup` edit; a handicap of 1 is none)."""
        game = Game(self.size, self.rules)
        if self.handicap >= 2 and not white:
            game.set_handicap(black or fixed_handicap_points(self.size, self.handicap))
        elif black or white:
            game.setup(black, white)
        return game

    def to_text(self) -> tuple[int, str, int]:
        """The spec as plain values (to send to a worker process); :meth:`from_text` reads them."""
        return self.size, str(self.rules), self.handicap

    @classmethod
    def from_text(cls, size: int, rules: str, handicap: int) -> GameSpec:
        return cls(size, Rules.parse(rules), handicap)
