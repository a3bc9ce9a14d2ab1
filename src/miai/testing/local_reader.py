"""miai's own reading of a problem (docs/PROBLEMS.md), the second opinion beside GNU Go's: an
exact search on the rules core's board (:class:`~miai.board.Board`) with Benson's life
(:mod:`miai.life`), bounded in depth and in positions.

Life and death and capturing races: both sides play in the problem's zone (the empty points
reachable from the marked stones without crossing the attacker's stones, the attacker's chains
of four liberties or fewer that touch them and their liberties, in view) or pass; the attacker
wins when every marked stone is captured, the defender when a marked stone's chain is
unconditionally alive (Benson) or both pass in turn (seki, or nothing more to do). Other
capturing problems: a ladder and net reader: the attacker plays on the marked chain's liberties
(and, at two liberties in the first plies, next to them: nets), the defender extends or
captures a neighbour in atari; three liberties are an escape (not always so on the edge:
the tests list where this reader and GNU Go differ). A search that runs out of depth or positions, or meets a ko, says None (unknown).
"""

from __future__ import annotations

from miai.board import Board
from miai.coords import Color, Point, neighbors
from miai.life import benson
from miai.problems.judge import start_game
from miai.problems.model import Goal, Kind, Problem, Theme

__all__ = ["LocalReader"]

PASS = None
LADDER_PLIES = 100
"""The capturing problems' reading goes this deep: a ladder across a 19×19 board."""
NET_PLIES = 3
"""Nets (a move next to a liberty) are tried in the first plies only: deeper, a ladder's."""
RACE_LIBERTIES = 4
"""An attacker's chain next to the marked stones with this many liberties or fewer is in the
race: its stones and liberties join the zone."""


class _OutOfPositions(Exception):
    pass


class LocalReader:
    """Reads one problem: :meth:`first_moves` judges every legal first move in view."""

    def __init__(self, problem: Problem, *, depth: int = 24, positions: int = 5_000) -> None:
        self.problem = problem
        self.depth = depth if problem.kind is Kind.LIFE_AND_DEATH or problem.theme is Theme.RACE else LADDER_PLIES
        self.positions = positions
        self.player = problem.to_play
        self.attacker = self.player if problem.goal in (Goal.KILL, Goal.CAPTURE) else self.player.opponent
        self.defender = self.attacker.opponent
        self.tactical = problem.kind is Kind.CAPTURING and problem.theme is not Theme.RACE
        self.board = start_game(problem).board
        self.zone = self._zone(self.board)
        self._memo: dict[tuple[int, Color, int], bool] = {}
        self._alive: dict[int, bool] = {}
        self._visited = 0

    # ------------------------------------------------------------------ the zone
    def _zone(self, board: Board) -> frozenset[Point]:
        """Where life and death is played out: see the module's docstring."""
        size = board.size
        seen: set[Point] = set()
        todo = [t for t in self.problem.targets]
        while todo:
            p = todo.pop()
            if p in seen or not self.problem.in_view(p) or board[p] is self.attacker:
                continue
            seen.add(p)
            todo.extend(neighbors(p, size))
        outside: set[Point] = set()
        for p in seen:
            for q in neighbors(p, size):
                if board[q] is self.attacker and q not in outside and board.liberties(q) <= RACE_LIBERTIES:
                    chain = board.chain(q)
                    outside |= set(chain)
                    outside |= {r for s in chain for r in neighbors(s, size) if board[r] is None}
        return frozenset(p for p in seen | outside if self.problem.in_view(p))

    # ------------------------------------------------------------------ the verdicts
    def first_moves(self) -> dict[Point, bool | None]:
        """Every legal first move in view: True if it reaches the goal, False if not, None if
        the search could not tell."""
        verdicts: dict[Point, bool | None] = {}
        for p in self.board.legal_points(self.player, False):
            if self.problem.in_view(p):
                after = self.board.copy()
                after.place(p, self.player)
                verdicts[p] = self.player_wins(after, self.player.opponent)
        return verdicts

    def player_wins(self, board: Board, to_move: Color) -> bool | None:
        """Whether the player reaches the goal from ``board`` with ``to_move`` to play."""
        self._visited = 0
        try:
            attacker_wins = self._search(board, to_move, 0, self.depth)
        except _OutOfPositions:
            return None
        if attacker_wins is None:
            return None
        return attacker_wins if self.attacker is self.player else not attacker_wins

    # ------------------------------------------------------------------ the search
    def _targets_left(self, board: Board) -> list[Point]:
        return [t for t in sorted(self.problem.targets) if board[t] is self.defender]

    def _terminal(self, board: Board, to_move: Color, passes: int) -> bool | None:
        """The attacker's win or loss when the position decides it, else None."""
        left = self._targets_left(board)
        if not left:
            return True
        if self.tactical:
            libs = min(board.liberties(t) for t in left)
            if libs >= 3:
                return False
            return None
        if passes >= 2 or self._alive_now(board, left):
            return False
        return None

    def _alive_now(self, board: Board, left: list[Point]) -> bool:
        key = board.hash
        if key not in self._alive:
            alive_chains, _ = benson(board, self.defender)
            alive = set().union(*alive_chains) if alive_chains else set()
            self._alive[key] = any(t in alive for t in left)
        return self._alive[key]

    def _moves(self, board: Board, to_move: Color, near_root: bool) -> list[Point | None]:
        if self.tactical:
            return self._tactical_moves(board, to_move, near_root)
        points = {p for p in self.zone if board[p] is None} | self._short_liberties(board)
        moves: list[Point | None] = [p for p in points if board.legality(p, to_move, False) is None]
        moves.sort(key=lambda p: (-self._closeness(board, p), p))
        return [*moves, PASS]

    def _short_liberties(self, board: Board) -> set[Point]:
        """The liberties, in view, of the chains in the zone that have few (a race's chain that
        grew out of the zone, as a stone filling a liberty joins it)."""
        size = board.size
        found: set[Point] = set()
        seen: set[Point] = set()
        for p in self.zone:
            if board[p] is None or p in seen or board.liberties(p) > RACE_LIBERTIES:
                continue
            chain = board.chain(p)
            seen |= set(chain)
            found |= {q for s in chain for q in neighbors(s, size) if board[q] is None and self.problem.in_view(q)}
        return found

    def _closeness(self, board: Board, p: Point | None) -> int:
        """How many marked chains' stones ``p`` touches (tried first)."""
        return 0 if p is None else sum(1 for q in neighbors(p, board.size) if board[q] is not None)

    def _tactical_moves(self, board: Board, to_move: Color, near_root: bool) -> list[Point | None]:
        size = board.size
        left = self._targets_left(board)
        chain = {s for t in left for s in board.chain(t)}
        libs = {q for s in chain for q in neighbors(s, size) if board[q] is None}
        moves = set(libs)
        if to_move is self.attacker and len(libs) == 2 and near_root:
            moves |= {r for q in libs for r in neighbors(q, size) if board[r] is None}
        if to_move is self.defender:
            for s in chain:
                for q in neighbors(s, size):
                    if board[q] is self.attacker and board.liberties(q) == 1:
                        moves |= {r for x in board.chain(q) for r in neighbors(x, size) if board[r] is None}
        return [p for p in sorted(moves) if board.legality(p, to_move, False) is None]

    def _search(self, board: Board, to_move: Color, passes: int, depth: int) -> bool | None:
        """Whether the attacker wins (None: not known within the bounds)."""
        decided = self._terminal(board, to_move, passes)
        if decided is not None:
            return decided
        key = (board.hash, to_move, passes)
        if key in self._memo:
            return self._memo[key]
        if depth == 0:
            return None
        self._visited += 1
        if self._visited > self.positions:
            raise _OutOfPositions
        want = to_move is self.attacker
        unknown = False
        for p in self._moves(board, to_move, self.depth - depth < NET_PLIES):
            after = board.copy()
            if p is None:
                after.clear_ko()
                value = self._search(after, to_move.opponent, passes + 1, depth - 1)
            else:
                after.place(p, to_move)
                # a ko is fought with threats this search does not read: its lines stay unknown
                value = None if after.ko is not None else self._search(after, to_move.opponent, 0, depth - 1)
            if value is want:
                self._memo[key] = want
                return want
            unknown = unknown or value is None
        if unknown:
            return None
        self._memo[key] = not want
        return not want
