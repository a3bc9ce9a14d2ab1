"""Differential tests: miai's move legality and captures against GNU Go's, position by position.

Random games on 5×5 to 9×9 boards, biased toward captures, ataris and retakes so that kos,
snapbacks and long cycles occur, are played in lock-step in a :class:`miai.game.Game` and in
GNU Go (driven over GTP by :class:`miai.gtp.controller.GtpController`). At every position,
for both colours, every point's legality is compared with GNU Go's ``all_legal`` (and, at
every 50th position, ``all_legal`` with ``is_legal`` point by point); after every move the
stones (``list_stones``) and the prisoners (``captures``) are compared. The games also
take moves back now and then (``undo`` in both) and play a stone out of turn now and then
(GTP's ``play`` allows it), and some 7×7 and 9×9 games start with a fixed handicap.

Six rulesets: simple ko, positional superko and situational superko, each with suicide
forbidden and allowed. miai's ``Rules.preset("chinese").replace(ko=..., suicide=...,
void_on_repetition=False)`` against ``gnugo --simple-ko | --positional-superko |
--situational-superko`` with ``--forbid-suicide | --allow-suicide`` (multi-stone suicide
only, which is what ``suicide=True`` means in miai; single-stone suicide is illegal in both).

Apples to apples (read from GNU Go 3.8's ``engine/board.c``, ``is_allowed_move`` and
``is_superko_violation``, which ``all_legal``, ``is_legal`` and ``play`` use):

* Simple ko: GNU Go forbids the ko point after a move that captured exactly one stone with a
  lone stone left with one liberty; passes lift it. That is docs/RULES.md §3's "may not bring
  back the position that stood just before the opponent's last move" (a single move can bring
  it back only that way).
* Positional superko: GNU Go compares the resulting board with the board before every move of
  its history, and with the current board. Same as docs/RULES.md §3.
* Situational superko: GNU Go forbids a move by ``c`` whose board equals the board before an
  earlier move *played by c's opponent*, i.e. the board with c's opponent to move: after c's
  move, c's opponent is to move, so this is docs/RULES.md §3's "the same position with the same
  player to move" -- as long as play alternates (a pass is a move in both histories). GNU Go
  takes "the player to move" in an earlier position from who actually moved next; docs/RULES.md
  and miai from the turn order. After a stone played out of turn the two readings differ:
  that is a known difference (``gnugo-situational-next-mover``), recognised as such. The only
  position GNU Go's check leaves out is the current one, which no legal stone can recreate (a
  lone stone's suicide is illegal in both).
* Captures: ``captures black`` is the number of white stones removed by Black's moves plus
  the stones White lost by suicide (and the played stone); miai's ``Game.captures`` counts
  suicided stones for the opponent too.

Where GNU Go is wrong (docs/REFEREES.md), the disagreement must be one of :data:`KNOWN_DIFFERENCES`,
recognised automatically from its kind (never skipped silently); anything else fails with the
board, the move list and the point. Counts (positions, point checks, kos, superkos, known
differences) are printed in a summary at the end (and per test with ``-s``).

Everything is seeded: ``MIAI_GNUGO_SEED`` changes the base seed, ``MIAI_GNUGO_GAMES`` the
number of games per ruleset, ``MIAI_GNUGO_ONLY`` (game numbers, comma-separated) plays only
those games. A failure message says how to replay its game. The suite takes about two
minutes on two cores (one process; ``-n 2`` with pytest-xdist halves it).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pytest

from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.errors import IllegalMoveError, IllegalReason
from miai.game import Game
from miai.gtp.controller import GtpController
from miai.rules import KoRule, Rules

GNUGO = "/usr/games/gnugo"

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed"),
]

BASE_SEED = int(os.environ.get("MIAI_GNUGO_SEED", "20250101"))
GAMES_PER_RULESET = int(os.environ.get("MIAI_GNUGO_GAMES", "80"))
ONLY_GAMES = {int(n) for n in os.environ.get("MIAI_GNUGO_ONLY", "").replace(",", " ").split()}
GNUGO_HISTORY = 500
"""GNU Go's MAX_MOVE_HISTORY: beyond it, it forgets the oldest positions. Games stay shorter."""

KO_FLAG = {
    KoRule.SIMPLE: "--simple-ko",
    KoRule.POSITIONAL: "--positional-superko",
    KoRule.SITUATIONAL: "--situational-superko",
}
SUICIDE_FLAG = {False: "--forbid-suicide", True: "--allow-suicide"}
RULESETS = [(ko, suicide) for ko in KoRule for suicide in (False, True)]


def miai_rules(ko: KoRule, suicide: bool) -> Rules:
    return Rules.preset("chinese").replace(ko=ko, suicide=suicide, void_on_repetition=False)


def gnugo_argv(ko: KoRule, suicide: bool) -> list[str]:
    return [GNUGO, "--mode", "gtp", "--quiet", "--chinese-rules", KO_FLAG[ko], SUICIDE_FLAG[suicide]]


def ruleset_id(ruleset: tuple[KoRule, bool]) -> str:
    ko, suicide = ruleset
    return f"{ko.value}-{'suicide' if suicide else 'nosuicide'}"


# ============================================================ a reference board (independent)
# A few lines of plain Python, used to describe disagreements (is the move a suicide? what
# does it capture? which earlier position does it repeat?) without trusting either program.
Grid = tuple[tuple[int, ...], ...]  # grid[row][col]: 0 empty, 1 black, 2 white


def grid_of(game: Game) -> Grid:
    return tuple(tuple(int(v) for v in row) for row in game.board.as_array())


def _neighbours(size: int, p: Point) -> Iterable[Point]:
    r, c = p
    if r > 0:
        yield (r - 1, c)
    if r + 1 < size:
        yield (r + 1, c)
    if c > 0:
        yield (r, c - 1)
    if c + 1 < size:
        yield (r, c + 1)


def chain_and_liberties(grid: Grid | list[list[int]], p: Point) -> tuple[set[Point], set[Point]]:
    size = len(grid)
    colour = grid[p[0]][p[1]]
    chain, libs, todo = {p}, set(), [p]
    while todo:
        q = todo.pop()
        for n in _neighbours(size, q):
            v = grid[n[0]][n[1]]
            if v == 0:
                libs.add(n)
            elif v == colour and n not in chain:
                chain.add(n)
                todo.append(n)
    return chain, libs


def liberty_map(grid: Grid) -> dict[Point, int]:
    """The number of liberties of the chain through every stone."""
    out: dict[Point, int] = {}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v and (r, c) not in out:
                chain, libs = chain_and_liberties(grid, (r, c))
                out.update(dict.fromkeys(chain, len(libs)))
    return out


@dataclass(frozen=True)
class ReferenceMove:
    grid: Grid  # the board after the move
    captured: int  # opponent stones removed
    suicide: int  # own stones removed (0 if not a suicide)


def reference_play(grid: Grid, p: Point, colour: int) -> ReferenceMove:
    """Place a stone (the point must be empty), remove captured chains, then the mover's
    chain if it has no liberties."""
    g = [list(row) for row in grid]
    g[p[0]][p[1]] = colour
    other = 3 - colour
    captured = 0
    for n in _neighbours(len(g), p):
        if g[n[0]][n[1]] == other:
            chain, libs = chain_and_liberties(g, n)
            if not libs:
                for q in chain:
                    g[q[0]][q[1]] = 0
                captured += len(chain)
    suicide = 0
    chain, libs = chain_and_liberties(g, p)
    if not libs:
        for q in chain:
            g[q[0]][q[1]] = 0
        suicide = len(chain)
    return ReferenceMove(tuple(tuple(row) for row in g), captured, suicide)


# ====================================================================== the move generator
@dataclass(frozen=True)
class Bias:
    """Weights of the kinds of move the random player prefers (the weight of a move is the
    largest that applies). The defaults make fights, kos and repetitions frequent on small
    boards. (Superko positions stay rare in random play whatever the weights: a few per
    hundred positions on 5×5, fewer on larger boards; hence many games.)"""

    capture: float = 12.0  # takes stones
    retake: float = 10.0  # replays a point emptied by a capture in the last few moves (kos, cycles)
    atari: float = 4.0  # touches a chain in atari, or puts one in atari
    repeat: float = 30.0  # recreates an earlier board (legal under simple ko, and situational superko
    #                       when that board had the other player to move): long cycles
    suicide: float = 1.5  # a multi-stone suicide, where the rules allow it
    other: float = 1.0
    own_eye: float = 1.0  # fills a one-point eye of its own colour
    pass_probability: float = 0.03  # never twice in a row: two passes end the play phase
    undo_probability: float = 0.02  # take the last move back (in both programs)
    out_of_turn_probability: float = 0.01  # the side not to move plays a stone
    retake_memory: int = 6  # how many moves back "recently emptied" reaches


class CaptureBiasedPlayer:
    """Chooses moves at random among those both programs allow, biased toward fights and
    toward recreating earlier boards where the rules allow it (so that kos, superkos and
    long cycles occur).

    Deterministic for a given seed and sequence of positions. It reads the position through
    the reference board, so its choices do not depend on either program's internals.
    """

    def __init__(self, rng: random.Random, start: Grid, bias: Bias = Bias()):
        self.rng = rng
        self.bias = bias
        self.size = len(start)
        self.emptied: list[set[Point]] = []  # points emptied by each recent move
        self.boards = np.array(start, dtype=np.int8).reshape(1, -1)  # every board so far, flattened

    def record(self, before: Grid, after: Grid) -> None:
        """Tell the player about a move (anyone's) that turned ``before`` into ``after``."""
        size = self.size
        gone = {(r, c) for r in range(size) for c in range(size) if before[r][c] and not after[r][c]}
        self.emptied.append(gone)
        del self.emptied[: -self.bias.retake_memory]
        self.boards = np.vstack([self.boards, np.array(after, dtype=np.int8).reshape(1, -1)])

    def weight(self, grid: Grid, libs: dict[Point, int], p: Point, colour: int) -> float:
        """The weight of a stone of ``colour`` on the empty point ``p``; ``libs`` gives the
        liberties of the chain through each stone."""
        b = self.bias
        other = 3 - colour
        neighbours = list(_neighbours(self.size, p))
        colours = [grid[r][c] for r, c in neighbours]
        captures = any(v == other and libs[n] == 1 for n, v in zip(neighbours, colours))
        if not captures and 0 not in colours and all(libs[n] == 1 for n, v in zip(neighbours, colours) if v == colour):
            return b.suicide
        w = b.capture if captures else b.other
        if any(p in gone for gone in self.emptied):
            w = max(w, b.retake)
        if any(v and (libs[n] == 1 or (v == other and libs[n] == 2)) for n, v in zip(neighbours, colours)):
            w = max(w, b.atari)
        if captures:  # only a capture can bring back an earlier board (or a suicide)
            after = np.array(reference_play(grid, p, colour).grid, dtype=np.int8).reshape(-1)
            if (self.boards == after).all(axis=1).any():
                w = max(w, b.repeat)
        if w == b.other and all(v == colour for v in colours):
            w = b.own_eye
        return w

    def undo(self) -> None:
        """Forget the last move (it was taken back)."""
        self.boards = self.boards[:-1]
        if self.emptied:
            self.emptied.pop()

    def choose(self, grid: Grid, colour: int, allowed: set[Point], no_pass: bool) -> Point | None:
        """A point from ``allowed``, or None to pass (never when ``no_pass``, e.g. after a pass:
        if nothing is allowed after a pass, the caller ends the game)."""
        if not allowed or (not no_pass and self.rng.random() < self.bias.pass_probability):
            return None
        points = sorted(allowed)
        libs = liberty_map(grid)
        weights = [self.weight(grid, libs, p, colour) for p in points]
        return self.rng.choices(points, weights)[0]


# ==================================================================== known differences
@dataclass
class Disagreement:
    """miai and GNU Go disagree about one point in one position."""

    ruleset: tuple[KoRule, bool]
    size: int
    handicap: int
    seed: str
    moves: list[Move]
    colour: Color
    point: Point
    gnugo_legal: bool
    miai_reason: IllegalReason | None
    miai_message: str
    reference: ReferenceMove | None
    repeats: list[Seen]  # the earlier boards equal to the one the move would leave
    showboard: str

    def describe(self) -> str:
        ko, suicide = self.ruleset
        moves = " ".join(f"{m.color.letter}:{m.gtp()}" for m in self.moves) or "(none)"
        ref = self.reference
        ref_text = (
            "occupied"
            if ref is None
            else f"captures {ref.captured}, suicide of {ref.suicide} stone(s); the resulting board "
            + (
                "occurred before after move(s) "
                + ", ".join(
                    f"{h.number} ({h.to_move} to move"
                    + (f", {h.next_mover} moved next)" if h.next_mover and h.next_mover is not h.to_move else ")")
                    for h in self.repeats
                )
                if self.repeats
                else "never occurred before"
            )
        )
        base, _, index = self.seed.rpartition("-")
        replay = (
            f"\n  replay: MIAI_GNUGO_SEED={base.split('-')[0]} MIAI_GNUGO_ONLY={index} python -m pytest "
            f"tests/test_differential_gnugo.py -k {ruleset_id(self.ruleset)}"
            if index.isdigit()
            else ""
        )
        return (
            f"{self.colour} {point_to_gtp(self.point)} on {self.size}x{self.size}"
            f"{f' handicap {self.handicap}' if self.handicap else ''}, ko={ko.value} suicide={suicide}, "
            f"after {len(self.moves)} moves (game seed {self.seed!r}){replay}\n"
            f"  GNU Go: {'legal' if self.gnugo_legal else 'illegal'}; "
            f"miai: {'legal' if self.miai_reason is None else self.miai_reason.value} ({self.miai_message})\n"
            f"  reference board: {ref_text}\n"
            f"  moves: {moves}\n"
            f"  GNU Go showboard:\n{self.showboard}"
        )


@dataclass(frozen=True)
class KnownDifference:
    """A disagreement that is GNU Go's error, not miai's, with a position that shows it.

    ``matches`` recognises the kind (under any ruleset it can occur in). ``example`` is a
    move list from the empty board of ``size``×``size`` under ``ruleset``, after which GNU Go
    and miai disagree about ``colour`` at ``point``.
    """

    code: str
    reason: str
    matches: Callable[[Disagreement], bool]
    ruleset: tuple[KoRule, bool]
    size: int
    example: tuple[str, ...]
    colour: Color
    point: str


def _superko_ignores_suicide(d: Disagreement) -> bool:
    return (
        d.gnugo_legal
        and d.miai_reason is IllegalReason.SUPERKO
        and d.ruleset[1]
        and d.reference is not None
        and d.reference.suicide > 0
        and bool(d.repeats)
    )


def _situational_next_mover(d: Disagreement) -> bool:
    """GNU Go's situational superko takes the player to move in an earlier position to be
    the one who moved next from it; docs/RULES.md §3 (and miai) the one whose turn it was."""
    if d.ruleset[0] is not KoRule.SITUATIONAL or d.reference is None or d.reference.suicide:
        return False
    opponent = d.colour.opponent
    by_gnugo = any(h.next_mover is opponent for h in d.repeats)
    by_turn = any(h.to_move is opponent for h in d.repeats)
    return d.gnugo_legal == (not by_gnugo) and (d.miai_reason is None) == (not by_turn) and by_gnugo != by_turn


# The suicide example: White walls off A1-A2-B1, Black fills it and the third stone takes
# the three off the board, recreating the position after B:e2 (with White to move, as then:
# so it breaks both superkos).
_SUICIDE_EXAMPLE = ("B e5", "W a3", "B e4", "W b2", "B e3", "W c1", "B e2", "W pass", "B a1", "W pass", "B a2", "W pass")

KNOWN_DIFFERENCES: list[KnownDifference] = [
    KnownDifference(
        code="gnugo-superko-ignores-suicide",
        reason=(
            "GNU Go's superko test (is_superko_violation) plays the move with really_do_trymove, "
            "which never removes the mover's own chain, so a suicide is compared as a board that "
            "cannot exist and never matches an earlier one: with suicide allowed, a multi-stone "
            "suicide that recreates an earlier board is 'legal' to GNU Go under both superkos "
            "(docs/REFEREES.md, GNU Go fault 1). miai forbids it (docs/RULES.md §3 applies "
            "after captures and suicide)."
        ),
        matches=_superko_ignores_suicide,
        ruleset=(KoRule.POSITIONAL, True),
        size=5,
        example=_SUICIDE_EXAMPLE,
        colour=Color.BLACK,
        point="B1",
    ),
    KnownDifference(
        code="gnugo-superko-ignores-suicide",
        reason="The same error under situational superko: the recreated board had White to move then as now.",
        matches=_superko_ignores_suicide,
        ruleset=(KoRule.SITUATIONAL, True),
        size=5,
        example=_SUICIDE_EXAMPLE,
        colour=Color.BLACK,
        point="B1",
    ),
    KnownDifference(
        code="gnugo-situational-next-mover",
        reason=(
            "With a move out of turn (GTP's play allows them), GNU Go's situational superko "
            "takes 'the player to move' in an earlier position to be whoever moved next from "
            "it (is_superko_violation compares move_history_color), while docs/RULES.md §3 and miai "
            "take the player whose turn it was (docs/REFEREES.md, GNU Go fault 7). Here Black "
            "plays twice (b1, then a1 out of turn) and White's c1 takes both; Black's b1, "
            "capturing c1, brings back the board "
            "after move 5, when it was White's turn (so miai: a repetition with White to move) "
            "but Black moved next (so GNU Go: no repetition). The random games alternate "
            "strictly, so they never meet this."
        ),
        matches=_situational_next_mover,
        ruleset=(KoRule.SITUATIONAL, False),
        size=3,
        example=("B b3", "W a2", "B c2", "W b2", "B b1", "B a1", "W c1"),
        colour=Color.BLACK,
        point="B1",
    ),
]
"""GNU Go's errors (and its one reading of the rules that differs from docs/RULES.md) that these
tests meet, each with a position that shows it. Not listed because the games never meet it: GNU Go
keeps the last 500 moves only (MAX_MOVE_HISTORY; it folds the oldest tenth into its starting
position), so in a longer game its superko forgets the oldest positions; games here stay
shorter than that."""


def classify(d: Disagreement) -> KnownDifference | None:
    for known in KNOWN_DIFFERENCES:
        if known.matches(d):
            return known
    return None


# ========================================================================= the lock-step
@dataclass(frozen=True)
class Seen:
    """A board that stood in the game: after move ``number`` (0: the start), with ``to_move``
    to play by the turn order; ``next_mover`` is the colour that actually moved from it (None
    while it is the current board)."""

    grid: Grid
    hash: int
    number: int
    to_move: Color
    next_mover: Color | None = None


@dataclass
class Stats:
    games: int = 0
    positions: int = 0
    point_checks: int = 0
    moves: int = 0
    passes: int = 0
    capturing_moves: int = 0
    stones_captured: int = 0
    suicides: int = 0
    undos: int = 0
    out_of_turn: int = 0
    repetitions: int = 0  # moves that recreated an earlier board (legal under simple ko, or situational superko)
    ko_illegal: int = 0  # point checks where both say: simple ko
    superko_illegal: int = 0  # point checks where both say illegal and miai says superko
    situational_only: int = 0  # under situational superko: legal, but the board occurred with the other player to move
    max_moves: int = 0
    seconds: float = 0.0
    known: Counter[str] = field(default_factory=Counter)
    known_examples: dict[str, str] = field(default_factory=dict)

    def line(self, name: str) -> str:
        known = ", ".join(f"{k}: {n}" for k, n in sorted(self.known.items())) or "none"
        return (
            f"{name:<24} games {self.games:4d}  positions {self.positions:6d}  point checks {self.point_checks:8d}  "
            f"moves {self.moves:6d} (longest {self.max_moves}, passes {self.passes}, captures {self.capturing_moves}, "
            f"suicides {self.suicides}, undos {self.undos}, out of turn {self.out_of_turn}, repeated boards {self.repetitions})  ko {self.ko_illegal}  superko {self.superko_illegal}  "
            f"situational-only repeats {self.situational_only}  known differences: {known}  [{self.seconds:.1f} s]"
        )


SUMMARY: dict[str, Stats] = {}


def parse_vertices(text: str, size: int) -> set[Point]:
    points = set()
    for word in text.split():
        p = point_from_gtp(word, size)
        assert p is not None, f"GNU Go listed {word!r}"
        points.add(p)
    return points


class LockStep:
    """One game played in miai and in GNU Go at once, compared after every step."""

    def __init__(self, engine: GtpController, ruleset: tuple[KoRule, bool], size: int, handicap: int, seed: str):
        self.engine = engine
        self.ruleset = ruleset
        self.size = size
        self.handicap = handicap
        self.seed = seed
        self.game = Game(size, miai_rules(*ruleset), handicap=handicap)
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        if handicap:
            placed = parse_vertices(engine.send(f"fixed_handicap {handicap}"), size)
            assert placed == set(self.game.handicap_points), (
                f"fixed handicap {handicap} on {size}x{size}: GNU Go placed "
                f"{sorted(map(point_to_gtp, placed))}, miai {sorted(map(point_to_gtp, self.game.handicap_points))}"
            )
        # Every board seen, with the player to move then (for the descriptions and the counts).
        self.history: list[Seen] = []
        self._push()
        self.disagreements: list[Disagreement] = []
        self.undone: list[Move | None] = []  # the move just undone, or None after a move

    def _push(self) -> None:
        game = self.game
        if self.history:
            last = self.history[-1]
            self.history[-1] = Seen(last.grid, last.hash, last.number, last.to_move, game.moves[-1].color)
        self.history.append(Seen(grid_of(game), game.board.hash, game.move_number, game.to_move))
        self._index()

    def _index(self) -> None:
        self.grids = {h.grid for h in self.history}
        self.seen_hashes: dict[int, set[Color]] = {}
        for h in self.history:
            self.seen_hashes.setdefault(h.hash, set()).add(h.to_move)

    def gnugo(self, command: str) -> str:
        return self.engine.send(command)

    # ---------------------------------------------------------------- comparing
    def compare_position(self, stats: Stats) -> dict[Color, set[Point]]:
        """Compare every point's legality for both colours; return the points both allow.

        miai's answer is ``Game.legal_moves``; the reason of every illegal empty point is
        asked of ``Game.legality`` too (the two doors must agree), and at every tenth
        position every point goes through ``legality``."""
        game = self.game
        size = self.size
        stats.positions += 1
        both: dict[Color, set[Point]] = {}
        grid = grid_of(game)
        every_point = stats.positions % 10 == 1
        for colour in (Color.BLACK, Color.WHITE):
            gnugo_legal = parse_vertices(self.gnugo(f"all_legal {colour}"), size)
            if stats.positions % 50 == 1:  # GNU Go's two doors agree (both use is_allowed_move)
                by_point = {p for p in game.board if self.gnugo(f"is_legal {colour} {point_to_gtp(p)}") == "1"}
                assert by_point == gnugo_legal, f"GNU Go's is_legal and all_legal differ\n{self.context()}"
            miai_legal = set(game.legal_moves(colour))
            stats.point_checks += size * size
            for r in range(size):
                for c in range(size):
                    p = (r, c)
                    legal = p in miai_legal
                    if legal and self.ruleset[0] is KoRule.SITUATIONAL:
                        b = game.board.copy()
                        b.place(p, colour)
                        if colour in self.seen_hashes.get(b.hash, ()):
                            stats.situational_only += 1  # positional superko would forbid it
                    if not every_point and (legal or grid[r][c]):
                        continue  # legal, or occupied (GNU Go lists only empty points: compared below)
                    reason = game.legality(Move(colour, p))
                    assert (reason is None) == legal, (
                        f"miai disagrees with itself about {colour} {point_to_gtp(p)}: legal_moves says "
                        f"{'legal' if legal else 'illegal'}, legality says {reason}\n{self.context()}"
                    )
                    if reason is IllegalReason.KO and p not in gnugo_legal:
                        stats.ko_illegal += 1
                    elif reason is IllegalReason.SUPERKO and p not in gnugo_legal:
                        stats.superko_illegal += 1
                        self.check_repeated_move(colour, p, grid)
            for p in sorted(miai_legal ^ gnugo_legal):
                self.disagree(colour, p, p in gnugo_legal, game.legality(Move(colour, p)), stats)
            both[colour] = miai_legal & gnugo_legal
        return both

    def check_repeated_move(self, colour: Color, p: Point, grid: Grid) -> None:
        """A superko error names the first move after which the repeated board stood (with the
        same player to move, for situational superko): check it against the reference."""
        try:
            self.game.copy().play(Move(colour, p))
        except IllegalMoveError as err:
            named = err.repeats_move
        else:  # pragma: no cover - legality said superko
            raise AssertionError(f"{colour} {point_to_gtp(p)}: legality() says superko but play() accepts it")
        result = reference_play(grid, p, int(colour)).grid
        earlier = [
            h.number
            for h in self.history
            if h.grid == result and (self.ruleset[0] is KoRule.POSITIONAL or h.to_move is colour.opponent)
        ]
        assert earlier and named == min(earlier), (
            f"{colour} {point_to_gtp(p)}: miai's superko error names move {named}, the reference finds the "
            f"board after move(s) {earlier}\n{self.context()}"
        )

    def disagree(self, colour: Color, p: Point, gnugo_legal: bool, reason: IllegalReason | None, stats: Stats) -> None:
        grid = grid_of(self.game)
        message = "no error"
        try:
            self.game.copy().play(Move(colour, p))  # on a copy: only for the error's message
        except IllegalMoveError as err:
            message = str(err)
        ref = reference_play(grid, p, int(colour)) if grid[p[0]][p[1]] == 0 else None
        repeats = [] if ref is None else [h for h in self.history if h.grid == ref.grid]
        d = Disagreement(
            self.ruleset, self.size, self.handicap, self.seed, list(self.game.moves), colour, p,
            gnugo_legal, reason, message, ref, repeats, self.gnugo("showboard"),
        )
        known = classify(d)
        if known is None:
            self.disagreements.append(d)
        else:
            stats.known[known.code] += 1
            stats.known_examples.setdefault(known.code, d.describe())

    def compare_after_move(self) -> None:
        game = self.game
        grid = grid_of(game)
        for colour in (Color.BLACK, Color.WHITE):
            theirs = parse_vertices(self.gnugo(f"list_stones {colour}"), self.size)
            ours = {(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == colour}
            assert theirs == ours, (
                f"the boards differ after {self.last()}: {colour} stones only in GNU Go "
                f"{sorted(map(point_to_gtp, theirs - ours))}, only in miai {sorted(map(point_to_gtp, ours - theirs))}\n"
                f"{self.context()}"
            )
            theirs_caps = int(self.gnugo(f"captures {colour}"))
            assert theirs_caps == game.captures(colour), (
                f"captures {colour} after {self.last()}: GNU Go {theirs_caps}, miai {game.captures(colour)}\n"
                f"{self.context()}"
            )

    def context(self) -> str:
        moves = " ".join(f"{m.color.letter}:{m.gtp()}" for m in self.game.moves)
        ko, suicide = self.ruleset
        return (
            f"{self.size}x{self.size} handicap {self.handicap} ko={ko.value} suicide={suicide} "
            f"game seed {self.seed!r}\nmoves: {moves}\nGNU Go showboard:\n{self.gnugo('showboard')}"
        )

    # ------------------------------------------------------------------ playing
    def play(self, point: Point | None, stats: Stats, colour: Color | None = None) -> None:
        """Play a move of ``colour`` (default: the side to move) in both."""
        game = self.game
        colour = colour or game.to_move
        before = grid_of(game)
        game.play(Move(colour, point))
        self.undone.append(None)
        response = self.engine.send_raw(f"play {colour} {point_to_gtp(point)}")
        assert response.ok, f"GNU Go refused {colour} {point_to_gtp(point)}: {response.text}\n{self.context()}"
        after = grid_of(game)
        stats.moves += 1
        if point is None:
            stats.passes += 1
        else:
            ref = reference_play(before, point, int(colour))
            assert ref.grid == after, f"miai's board after {colour} {point_to_gtp(point)} is not the reference's\n{self.context()}"
            stats.capturing_moves += ref.captured > 0
            stats.stones_captured += ref.captured
            stats.suicides += ref.suicide > 0
            stats.repetitions += after in self.grids
        self._push()
        self.compare_after_move()

    def undo(self, stats: Stats) -> None:
        """Take the last move back in both (GNU Go replays its history, miai too)."""
        undone = self.game.moves[-1]
        self.game.undo()
        self.gnugo("undo")
        self.history.pop()
        last = self.history[-1]
        self.history[-1] = Seen(last.grid, last.hash, last.number, last.to_move)
        self._index()
        stats.undos += 1
        self.undone.append(undone)
        self.compare_after_move()

    def last(self) -> str:
        if self.undone and self.undone[-1] is not None:
            return f"undoing {self.undone[-1]}"
        return str(self.game.moves[-1]) if self.game.moves else "the start"


def play_one_game(engine: GtpController, ruleset: tuple[KoRule, bool], index: int, stats: Stats) -> list[Disagreement]:
    seed = f"{BASE_SEED}-{ruleset_id(ruleset)}-{index}"
    rng = random.Random(seed)
    size = rng.choices([5, 6, 7, 8, 9], [45, 20, 15, 10, 10])[0]
    handicap = rng.choice([2, 3, 4]) if size in (7, 9) and rng.random() < 0.2 else 0
    length = rng.randint(100, 480)
    assert length < GNUGO_HISTORY - 10
    step = LockStep(engine, ruleset, size, handicap, seed)
    player = CaptureBiasedPlayer(rng, grid_of(step.game))
    stats.games += 1
    for _ in range(length):
        both = step.compare_position(stats)
        if step.disagreements:
            break
        game = step.game
        if game.moves and rng.random() < player.bias.undo_probability:
            step.undo(stats)
            player.undo()
            continue
        last_was_pass = bool(game.moves) and game.moves[-1].is_pass
        before = grid_of(game)
        colour = game.to_move
        if rng.random() < player.bias.out_of_turn_probability and both[colour.opponent]:
            colour = colour.opponent  # a stone out of turn, as GTP's play allows
            stats.out_of_turn += 1
        point = player.choose(before, int(colour), both[colour], last_was_pass or colour is not game.to_move)
        if point is None and last_was_pass:
            break  # nothing to play and a second pass would end the play phase
        step.play(point, stats, colour)
        player.record(before, grid_of(game))
    else:
        step.compare_position(stats)
    stats.max_moves = max(stats.max_moves, step.game.move_number)
    return step.disagreements


# ===================================================================================== tests
@pytest.fixture(scope="module")
def summary(request: pytest.FixtureRequest) -> Iterable[dict[str, Stats]]:
    yield SUMMARY
    if not SUMMARY:
        return
    total = Stats()
    for s in SUMMARY.values():
        for name in ("games", "positions", "point_checks", "moves", "passes", "capturing_moves", "suicides", "undos", "out_of_turn", "repetitions",
                     "ko_illegal", "superko_illegal", "situational_only", "seconds"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
        total.max_moves = max(total.max_moves, s.max_moves)
        total.known.update(s.known)
    lines = ["", f"GNU Go differential summary (base seed {BASE_SEED}, {GAMES_PER_RULESET} games per ruleset)"]
    lines += [s.line(name) for name, s in SUMMARY.items()]
    lines.append(total.line("total"))
    for name, s in SUMMARY.items():
        for code, example in s.known_examples.items():
            lines.append(f"first known difference {code} under {name}:\n{example}")
    # Shown even without -s (pytest's capture is suspended for it).
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:
        with capture.global_and_fixture_disabled():
            print("\n".join(lines), flush=True)
    else:  # pragma: no cover
        print("\n".join(lines))


@pytest.mark.timeout(600)
@pytest.mark.parametrize("ruleset", RULESETS, ids=ruleset_id)
def test_random_games_agree_with_gnugo(ruleset: tuple[KoRule, bool], summary: dict[str, Stats]) -> None:
    stats = Stats()
    summary[ruleset_id(ruleset)] = stats
    start = time.monotonic()
    unknown: list[Disagreement] = []
    with GtpController(gnugo_argv(*ruleset), timeout=30) as engine:
        for index in range(GAMES_PER_RULESET):
            if ONLY_GAMES and index not in ONLY_GAMES:
                continue
            unknown += play_one_game(engine, ruleset, index, stats)
            if len(unknown) >= 5:
                break
    stats.seconds = time.monotonic() - start
    print("\n" + stats.line(ruleset_id(ruleset)))
    assert not unknown, (
        f"{len(unknown)} disagreement(s) with GNU Go that are not known differences "
        f"(replay with MIAI_GNUGO_SEED={BASE_SEED}):\n\n" + "\n\n".join(d.describe() for d in unknown[:5])
    )
    assert stats.capturing_moves > 0 and stats.ko_illegal > 0
    if ruleset[0] is not KoRule.SIMPLE:
        assert stats.superko_illegal > 0


@pytest.mark.parametrize("known", KNOWN_DIFFERENCES, ids=lambda k: f"{k.code}-{k.ruleset[0].value}")
def test_known_difference_examples_still_differ(known: KnownDifference) -> None:
    """Each known difference's example shows it, and the classifier recognises it."""
    with GtpController(gnugo_argv(*known.ruleset), timeout=30) as engine:
        step = LockStep(engine, known.ruleset, known.size, 0, f"example {known.code}")
        for text in known.example:
            colour, vertex = text.split()
            move = Move.from_gtp(colour, vertex, known.size)
            step.play(move.point, Stats(), move.color)
        stats = Stats()
        step.compare_position(stats)
        assert not step.disagreements, "\n\n".join(d.describe() for d in step.disagreements)
        assert stats.known == Counter({known.code: 1}), stats.known
        example = stats.known_examples[known.code]
        assert example.startswith(f"{known.colour} {known.point} ")
