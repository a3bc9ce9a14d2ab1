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
from dataclasses import dataclass

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
    """The numbers of the results table, from engine A's point of view."""

    labels: tuple[str, str]
    games: int
    decided: int
    """Games with a winner or a draw (no-result games are left out of the rates)."""
    wins: dict[str, int]
    draws: int
    no_result: int
    wins_as: dict[tuple[str, str], int]
    """(label, "black"|"white") -> wins."""
    games_as: dict[tuple[str, str], int]
    black_wins: int
    white_wins: int
    win_rate: float
    interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]
    ms_per_move: dict[str, float | None]
    reasons: Counter[str]
    forfeits: Counter[str]
    """label -> games it forfeited."""


def summarize(results: Iterable[GameResult], labels: tuple[str, str]) -> MatchSummary:
    """The numbers of the results table of ``results`` between the engines ``labels``
    (engine A, engine B). Games without a winner or a draw are left out of the rates."""
    recs = list(results)
    a, b = labels
    wins = {a: 0, b: 0}
    wins_as: dict[tuple[str, str], int] = {(x, c): 0 for x in labels for c in ("black", "white")}
    games_as: dict[tuple[str, str], int] = dict(wins_as)
    draws = no_result = black_wins = white_wins = 0
    time_ms = {a: 0, b: 0}
    moves = {a: 0, b: 0}
    reasons: Counter[str] = Counter()
    forfeits: Counter[str] = Counter()
    for r in recs:
        reasons[r.reason.value] += 1
        if r.at_fault:
            forfeits[r.at_fault] += 1
        for label, colour in ((r.black, "black"), (r.white, "white")):
            if label in (a, b):
                games_as[(label, colour)] += 1
        for label, ms in r.time_ms.items():
            if label in time_ms:
                time_ms[label] += ms
                moves[label] += r.genmoves.get(label, 0)
        w = r.winner
        if w is not None:
            wins[w] = wins.get(w, 0) + 1
            if r.result.winner is Color.BLACK:
                black_wins += 1
                wins_as[(w, "black")] = wins_as.get((w, "black"), 0) + 1
            else:
                white_wins += 1
                wins_as[(w, "white")] = wins_as.get((w, "white"), 0) + 1
        elif r.result.is_draw:
            draws += 1
        else:
            no_result += 1
    decided = len(recs) - no_result
    points = wins[a] + 0.5 * draws
    rate = points / decided if decided else 0.5
    lo, hi = wilson_interval(points, decided)
    return MatchSummary(
        labels=labels,
        games=len(recs),
        decided=decided,
        wins=wins,
        draws=draws,
        no_result=no_result,
        wins_as=wins_as,
        games_as=games_as,
        black_wins=black_wins,
        white_wins=white_wins,
        win_rate=rate,
        interval=(lo, hi),
        elo=elo_difference(rate) if decided else 0.0,
        elo_interval=(elo_difference(lo), elo_difference(hi)) if decided else (-math.inf, math.inf),
        ms_per_move={x: (time_ms[x] / moves[x] if moves[x] else None) for x in labels},
        reasons=reasons,
        forfeits=forfeits,
    )


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
    return "\n".join(lines)
