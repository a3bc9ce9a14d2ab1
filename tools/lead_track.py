"""Were the games lost from ahead? A judge's lead for one player every few moves of each game.

Every ``--every``-th position of each game of one or more ``miai match`` runs goes to KataGo's
analysis engine (as in ``point_loss.py``), which gives Black's expected lead in points. For
the engine named ``--player`` each game's line gives its colour, the result, its lead at a
few moves (``--at``), its largest lead and where, and the last position it was ahead in. The
summary counts the games it lost after leading by ``--margin`` points or more (and won after
trailing by as much), and sets its own win rate (the ``winrates`` its searches reported,
kept in ``results.jsonl``) beside the judge's lead in the same positions: whether the
player knows when it is ahead.

Usage::

    python tools/lead_track.py runs/pf-a runs/pf-b --player miai --every 10 --visits 16 \\
        --judge "KATAGO analysis -model NET -config analysis_example.cfg" [--at 100 150 200] [--margin 5]

A position's lead is read from the judge at a few visits, so one figure may be a few points
off; the question asked here is about leads of many points. A research tool: it reads
records and runs the judge, and changes nothing.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from pathlib import Path

from point_loss import analyse, load_games, query

from miai.coords import Color
from miai.match.results import GameResult

BANDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)
"""The edges of the win-rate bands the summary sets beside the judge's leads."""


@dataclass(frozen=True)
class Track:
    """One game from the player's side: its colour, whether it won (None: a draw or no
    result), and the judge's lead for it (points) at each position read, by turn (the
    number of moves played before it)."""

    game: str
    colour: Color
    won: bool | None
    moves: int
    leads: dict[int, float]
    winrates: dict[int, float]
    """The player's own win rate at its moves, by move number (its search of the position
    before that move)."""

    def peak(self) -> tuple[int, float]:
        """The turn of the largest lead, and the lead (the first such turn on ties)."""
        turn = max(sorted(self.leads), key=lambda t: self.leads[t])
        return turn, self.leads[turn]

    def low(self) -> float:
        """The deepest the player trailed (negative) or its smallest lead."""
        return min(self.leads.values())

    def last_ahead(self) -> int | None:
        """The last turn read at which the player was ahead, or None if it never was."""
        ahead = [t for t, lead in self.leads.items() if lead > 0]
        return max(ahead) if ahead else None

    def own_winrate(self, turn: int) -> float | None:
        """The player's win rate at its first move after ``turn`` moves (that move or the next)."""
        for number in (turn + 1, turn + 2):
            if number in self.winrates:
                return self.winrates[number]
        return None


def turns_to_read(moves: int, every: int, at: list[int]) -> list[int]:
    """Every ``every``-th turn from the first move on, the turns ``at`` the game reached, and
    the last position."""
    return sorted({t for t in range(every, moves + 1, every)} | {t for t in at if t <= moves} | {moves})


def player_colour(result: GameResult, player: str) -> Color:
    """The colour ``player`` had in this game; raises SystemExit if it did not play."""
    if player == result.black:
        return Color.BLACK
    if player == result.white:
        return Color.WHITE
    raise SystemExit(f"lead_track: {player!r} did not play game {result.index + 1} ({result.black} against {result.white})")


def track(game_id: str, result: GameResult, player: str, moves: int, leads: dict[int, tuple[float, str]]) -> Track:
    """The game from ``player``'s side: the judge's leads for Black turned to the player's."""
    colour = player_colour(result, player)
    sign = 1.0 if colour is Color.BLACK else -1.0
    winner = result.result.winner
    won = None if winner is None else winner is colour
    own = {int(number): rate for number, rate in result.winrates.get(player, [])}
    return Track(game_id, colour, won, moves, {t: sign * lead for t, (lead, _) in leads.items()}, own)


def game_line(t: Track, at: list[int]) -> str:
    """One game's line: colour, result, the leads at the chosen moves, the peak, the last lead."""
    cells = [f"{n}: {t.leads[n]:+6.1f}" if n in t.leads else f"{n}:    -  " for n in at]
    turn, lead = t.peak()
    last = t.last_ahead()
    outcome = "draw" if t.won is None else "won " if t.won else "lost"
    return (f"{t.game:>8} {t.colour.name[0]} {outcome} {t.moves:3d} moves  "
            + "  ".join(cells) + f"  peak {lead:+6.1f} at {turn:3d}, low {t.low():+6.1f}, "
            + (f"last ahead at {last}" if last is not None else "never ahead"))


def calibration(tracks: list[Track]) -> list[tuple[float, float, int, float, float]]:
    """For each win-rate band (low, high): how many positions, and the judge's mean and
    median lead for the player in them."""
    pairs = [(rate, t.leads[turn]) for t in tracks for turn in t.leads if (rate := t.own_winrate(turn)) is not None]
    rows = []
    for low, high in zip(BANDS, BANDS[1:]):
        leads = [lead for rate, lead in pairs if low <= rate < high]
        if leads:
            rows.append((low, min(high, 1.0), len(leads), statistics.mean(leads), statistics.median(leads)))
    return rows


def report(tracks: list[Track], player: str, at: list[int], margin: float) -> None:
    """Each game's line, the games lost from ahead and won from behind, and the calibration."""
    for t in tracks:
        print(game_line(t, at))
    lost = [t for t in tracks if t.won is False]
    won = [t for t in tracks if t.won is True]
    from_ahead = [t.game for t in lost if t.peak()[1] >= margin]
    from_behind = [t.game for t in won if t.low() <= -margin]
    print(f"\n{player} lost {len(lost)} of {len(tracks)}; {len(from_ahead)} of them after leading by {margin:g} points "
          f"or more: {' '.join(from_ahead) or '-'}")
    print(f"{player} won {len(won)}; {len(from_behind)} of them after trailing by {margin:g} points or more: "
          f"{' '.join(from_behind) or '-'}")
    if drawn := [t.game for t in tracks if t.won is None]:
        print(f"no winner in {len(drawn)}: {' '.join(drawn)}")
    print(f"\n{player}'s own win rate beside the judge's lead for it (points), same positions:")
    print(f"{'win rate':>11} {'positions':>9} {'mean lead':>9} {'median':>7}")
    for low, high, count, mean, median in calibration(tracks):
        print(f"{low:4.2f}-{high:4.2f} {count:9d} {mean:+9.1f} {median:+7.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="miai match output directories")
    parser.add_argument("--player", required=True, help="the engine's label in the runs (such as miai)")
    parser.add_argument("--judge", required=True, help="the command that starts `katago analysis`")
    parser.add_argument("--visits", type=int, default=16, help="the judge's visits a position (16)")
    parser.add_argument("--every", type=int, default=10, help="read every N-th position (10)")
    parser.add_argument("--at", type=int, nargs="+", default=[100, 150, 200], help="moves whose lead each line shows")
    parser.add_argument("--margin", type=float, default=5.0, help="the lead that counts as ahead, in points (5)")
    args = parser.parse_args(argv)
    if args.every < 1:
        raise SystemExit(f"lead_track: --every must be 1 or more, not {args.every}")
    games = load_games(args.runs)
    for result, _, _ in games.values():
        player_colour(result, args.player)
    queries = {gid: query(gid, g.size, g.komi, moves, args.visits, turns_to_read(len(moves), args.every, args.at))
               for gid, (_, g, moves) in games.items()}
    leads = analyse(args.judge, queries)
    tracks = [track(gid, result, args.player, len(moves), leads[gid]) for gid, (result, _, moves) in games.items()]
    report(tracks, args.player, args.at, args.margin)


if __name__ == "__main__":
    main()
