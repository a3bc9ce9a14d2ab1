"""The statistics of a match: win rates with Wilson intervals, Elo differences, and the
results table ``miai match`` and ``miai match-report`` print.

Everything is read from the :class:`~miai.match.results.GameResult` s (their
:class:`~miai.result.Result` says who won; a draw is half a win), so the same table serves a
finished run, a run still going and several runs pooled (:func:`miai.match.runs.pool_runs`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from miai.coords import Color
from miai.match.results import GameResult

__all__ = ["MatchSummary", "elo_difference", "format_summary", "summarize", "wilson_interval"]

def wilson_interval(score: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``score`` successes of ``n``; a draw is
    half a success). (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if p == 0 else max(0.0, centre - half)
    hi = 1.0 if p == 1 else min(1.0, centre + half)
    return lo, hi


def elo_difference(p: float) -> float:
    """The Elo difference that gives a win rate ``p`` (±inf at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


@dataclass(slots=True)
class MatchSummary:
    """The numbers of the results table, from engine A's point of view: the counts, which
    :meth:`add` adds a game to, and the rates read from them (so that they cannot disagree)."""

    labels: tuple[str, str]
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    no_result: int = 0
    """Games without a winner or a draw (left out of the rates)."""
    wins_as: dict[tuple[str, str], int] = field(default_factory=dict)
    """(label, "black"|"white") -> wins."""
    games_as: dict[tuple[str, str], int] = field(default_factory=dict)
    black_wins: int = 0
    white_wins: int = 0
    time_ms: dict[str, int] = field(default_factory=dict)
    """label -> thinking time in the games that report it."""
    moves: dict[str, int] = field(default_factory=dict)
    """label -> moves generated in those games."""
    reasons: Counter[str] = field(default_factory=Counter)
    forfeits: Counter[str] = field(default_factory=Counter)
    """label -> games it forfeited."""
    offturn_ms: dict[str, int] = field(default_factory=dict)
    """label -> CPU time its processes used during the other engine's turns, in the games
    that report it."""
    offturn_basis_ms: dict[str, int] = field(default_factory=dict)
    """label -> the other engine's thinking time in those games."""
    by_opening: dict[str, list[float]] = field(default_factory=dict)
    """opening name -> [engine A's points, decided games] in the games that started from it."""

    def __post_init__(self) -> None:
        # both engines appear in the table, with zeros until they win or play
        for x in self.labels:
            self.wins.setdefault(x, 0)
            self.time_ms.setdefault(x, 0)
            self.moves.setdefault(x, 0)
            for c in ("black", "white"):
                self.wins_as.setdefault((x, c), 0)
                self.games_as.setdefault((x, c), 0)

    def add(self, r: GameResult) -> None:
        """Count one more game."""
        self.games += 1
        self.reasons[r.reason.value] += 1
        if r.at_fault:
            self.forfeits[r.at_fault] += 1
        for label, colour in ((r.black, "black"), (r.white, "white")):
            if label in self.labels:
                self.games_as[(label, colour)] += 1
        for label, ms in r.time_ms.items():
            if label in self.time_ms:
                self.time_ms[label] += ms
                self.moves[label] += r.genmoves.get(label, 0)
        for label, ms in r.offturn_cpu_ms.items():
            if label in self.labels:
                other = r.white if label == r.black else r.black
                self.offturn_ms[label] = self.offturn_ms.get(label, 0) + ms
                self.offturn_basis_ms[label] = self.offturn_basis_ms.get(label, 0) + r.time_ms.get(other, 0)
        if r.opening and (r.winner is not None or r.result.is_draw):
            tally = self.by_opening.setdefault(r.opening, [0.0, 0])
            tally[0] += 1.0 if r.winner == self.labels[0] else 0.5 if r.result.is_draw else 0.0
            tally[1] += 1
        w = r.winner
        if w is not None:
            self.wins[w] = self.wins.get(w, 0) + 1
            if r.result.winner is Color.BLACK:
                colour = "black"
                self.black_wins += 1
            else:
                colour = "white"
                self.white_wins += 1
            self.wins_as[(w, colour)] = self.wins_as.get((w, colour), 0) + 1
        elif r.result.is_draw:
            self.draws += 1
        else:
            self.no_result += 1

    @property
    def decided(self) -> int:
        """Games with a winner or a draw: the ones the rates count."""
        return self.games - self.no_result

    @property
    def points(self) -> float:
        """Engine A's wins, a draw counting half."""
        return self.wins[self.labels[0]] + 0.5 * self.draws

    @property
    def win_rate(self) -> float:
        """Engine A's share of the decided games' points (0.5 before any)."""
        return self.points / self.decided if self.decided else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval."""
        return wilson_interval(self.points, self.decided)

    @property
    def elo(self) -> float:
        """The Elo difference A - B the win rate gives (0 before any decided game)."""
        return elo_difference(self.win_rate) if self.decided else 0.0

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The Elo differences of the interval's ends (unbounded before any decided game)."""
        if not self.decided:
            return -math.inf, math.inf
        lo, hi = self.interval
        return elo_difference(lo), elo_difference(hi)

    @property
    def offturn_share(self) -> dict[str, float]:
        """label -> the CPU time it used during the other engine's turns, as a share of
        that engine's thinking time (only the engines the games measured, with some
        thinking time to compare with): near 0 for an engine that waits its turn, near 1
        for one that searches through its opponent's turns on a core of its own."""
        return {x: self.offturn_ms[x] / basis for x, basis in self.offturn_basis_ms.items() if basis > 0}

    @property
    def openings_ahead(self) -> tuple[int, int, int]:
        """Of the openings played: in how many engine A scored more than half its games
        from it, exactly half, less (an opening played both ways that one colour always
        wins is even: it says nothing about the engines)."""
        shares = [points / games for points, games in self.by_opening.values()]
        return sum(x > 0.5 for x in shares), sum(x == 0.5 for x in shares), sum(x < 0.5 for x in shares)

    @property
    def ms_per_move(self) -> dict[str, float | None]:
        """label -> mean thinking time per generated move (None without moves)."""
        return {x: (self.time_ms[x] / self.moves[x] if self.moves[x] else None) for x in self.labels}


PONDERING_SHARE = 0.1
"""From this share of the opponent's thinking time on, an engine's CPU use during the
opponent's turns is reported (a GTP engine that waits for its turn uses next to none)."""


def summarize(results: Iterable[GameResult], labels: tuple[str, str]) -> MatchSummary:
    """The numbers of the results table of ``results`` between the engines ``labels``
    (engine A, engine B). Games without a winner or a draw are left out of the rates."""
    summary = MatchSummary(labels)
    for r in results:
        summary.add(r)
    return summary


def _elo_text(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x) + 0:+d}"


def format_summary(s: MatchSummary) -> str:
    """The results table as plain text."""
    a, b = s.labels
    width = max(len(a), len(b), 6)
    lines = [f"{s.games} game{'s' if s.games != 1 else ''}: {a} (A) vs {b} (B)"]
    head = f"{'engine':<{width}}  {'wins':>5}  {'as Black':>9}  {'as White':>9}  {'ms/move':>8}  {'forfeits':>8}"
    lines += [head, "-" * len(head)]
    for x in s.labels:
        ms = s.ms_per_move[x]
        as_b = f"{s.wins_as[(x, 'black')]}/{s.games_as[(x, 'black')]}"
        as_w = f"{s.wins_as[(x, 'white')]}/{s.games_as[(x, 'white')]}"
        lines.append(
            f"{x:<{width}}  {s.wins[x]:>5}  {as_b:>9}  {as_w:>9}  "
            f"{(f'{ms:.0f}' if ms is not None else '-'):>8}  {s.forfeits.get(x, 0):>8}"
        )
    lines.append("")
    extra = []
    if s.draws:
        extra.append(f"{s.draws} draw{'s' if s.draws != 1 else ''}")
    if s.no_result:
        extra.append(f"{s.no_result} without result")
    lines.append(f"Black won {s.black_wins}, White won {s.white_wins}" + (f", {', '.join(extra)}" if extra else ""))
    lo, hi = s.interval
    lines.append(
        f"{a} win rate: {100 * s.win_rate:.1f}% (95% CI {100 * lo:.1f}%-{100 * hi:.1f}%, Wilson, {s.decided} decided games)"
    )
    lines.append(
        f"Elo difference {a} - {b}: {_elo_text(s.elo)} (95% CI {_elo_text(s.elo_interval[0])} to {_elo_text(s.elo_interval[1])})"
    )
    lines.append("Games ended by: " + ", ".join(f"{k} {v}" for k, v in s.reasons.most_common()))
    if s.by_opening:
        ahead, even, behind = s.openings_ahead
        lines.append(
            f"From {len(s.by_opening)} openings: {a} ahead in {ahead}, even in {even}, {b} ahead in {behind}"
        )
    for x, share in s.offturn_share.items():
        if share >= PONDERING_SHARE:
            other = b if x == a else a
            lines.append(
                f"Warning: {x} used the CPU during {other}'s turns ({s.offturn_ms[x] / 1000:.0f} s, "
                f"{100 * share:.0f}% of {other}'s thinking time): it thinks on its opponent's time (pondering), "
                "so the engines did not take turns at the CPU"
            )
    return "\n".join(lines)
