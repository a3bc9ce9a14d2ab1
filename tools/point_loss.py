"""How many points did each move lose? KataGo's score estimate along every game of a match.

Every position of every game of one or more ``miai match`` runs goes to KataGo's analysis
engine (``katago analysis``, JSON on its standard input and output), which gives Black's
expected lead in points (``scoreLead``) and its preferred move. A move's loss is the fall of
its player's lead from the position before it to the position after it (KaTrain's "points
lost"); a negative figure is a gain the judge did not expect. The summary gives each engine's
mean loss a move in stretches of 50 moves, so that the phase where one engine gives away its
points shows, and the largest single losses with KataGo's move beside each.

Usage::

    python tools/point_loss.py runs/p12-19-a runs/p12-19-b --visits 16 \\
        --judge "KATAGO analysis -model NET -config analysis_example.cfg" [--top 15] [--stretch 50]

``--games p12-19-b#2 --moves 100-240`` judges only that game's moves 100 to 240.

The judge's configuration must report figures from Black's side (``reportAnalysisWinratesAs =
BLACK``, as KataGo's ``analysis_example.cfg`` does).

KataGo is not part of miai: it is the judge that benchmarks use (see BENCHMARKS.md for how it
was built). With a few visits a position its figures still move by a point or two from one
position to the next, so a single small loss means little; the means over many moves, and the
large losses, are what to read. A research tool: it reads records and runs the judge, and
changes nothing.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from miai.coords import Color
from miai.game import Game
from miai.match.results import GameResult, load_results
from miai.sgf import load_game


@dataclass(frozen=True)
class Loss:
    """One move and the points its player lost by it, in the judge's eyes."""

    run: str
    game: int
    number: int
    player: str
    played: str
    judge_move: str
    lead_before: float
    loss: float


def query(query_id: str, size: int, komi: float, moves: list[list[str]], visits: int, turns: list[int]) -> str:
    """One analysis-engine query (Chinese rules) for the positions after ``turns`` of
    ``moves`` (0: the empty board; ``len(moves)``: the last position)."""
    return json.dumps(
        {
            "id": query_id,
            "moves": moves,
            "rules": "chinese",
            "komi": komi,
            "boardXSize": size,
            "boardYSize": size,
            "analyzeTurns": turns,
            "maxVisits": visits,
        }
    )


def analyse(command: str, queries: dict[str, str]) -> dict[str, dict[int, tuple[float, str]]]:
    """Black's lead and the judge's move at every turn each query asked for, by query id:
    the analysis engine ``command`` starts reads them all, then its answers are collected."""
    proc = subprocess.Popen(
        shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert proc.stdin is not None and proc.stdout is not None
    for line in queries.values():
        proc.stdin.write(line + "\n")
    proc.stdin.close()
    found: dict[str, dict[int, tuple[float, str]]] = defaultdict(dict)
    for line in proc.stdout:
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit(f"point_loss: the judge refused a query: {answer}")
        if "warning" in answer:
            print(f"point_loss: judge warning: {answer}", file=sys.stderr)
            continue
        best = answer["moveInfos"][0]["move"] if answer.get("moveInfos") else "?"  # none at 1 visit
        found[answer["id"]][answer["turnNumber"]] = (answer["rootInfo"]["scoreLead"], best)
        done = sum(len(v) for v in found.values())
        print(f"\r  {done} positions read", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if proc.wait() != 0:
        raise SystemExit(f"point_loss: the judge exited with status {proc.returncode}")
    return found


def losses(run: str, number: int, players: dict[Color, str], moves: list[list[str]],
           leads: dict[int, tuple[float, str]]) -> list[Loss]:
    """Each move's loss from its player's side: the change of Black's lead, signed by colour
    (the moves whose positions before and after were both judged)."""
    out = []
    for i, (colour, point) in enumerate(moves):
        if i not in leads or i + 1 not in leads:
            continue
        before, best = leads[i]
        after, _ = leads[i + 1]
        sign = 1.0 if colour == "B" else -1.0
        player = players[Color.BLACK if colour == "B" else Color.WHITE]
        out.append(Loss(run, number, i + 1, player, point, best, sign * before, sign * (before - after)))
    return out


def summary(found: list[Loss], stretch: int) -> None:
    """Each player's mean loss a move in each stretch of moves, and over the whole games."""
    players = sorted({x.player for x in found})
    last = max(x.number for x in found)
    edges = list(range(0, last, stretch))
    print(f"{'moves':>9}  " + "  ".join(f"{p:>16}" for p in players))
    for start in edges + [None]:
        row = [x for x in found if start is None or start < x.number <= start + stretch]
        label = "all" if start is None else f"{start + 1}-{start + stretch}"
        cells = []
        for p in players:
            mine = [x.loss for x in row if x.player == p]
            cells.append(f"{sum(mine) / len(mine):6.2f} ({len(mine):4d})" if mine else " " * 13)
        print(f"{label:>9}  " + "  ".join(f"{c:>16}" for c in cells))


def load_games(runs: list[Path]) -> dict[str, tuple[GameResult, Game, list[list[str]]]]:
    """Every game of the runs by ``RUN#N`` (the folder's name, the game's number): its result
    line, its record, and its moves as the analysis engine takes them (``["B", "D4"]``)."""
    games = {}
    for run in runs:
        for result in load_results(run / "results.jsonl"):
            game, _ = load_game(str(run / f"game-{result.index + 1:03d}.sgf"))
            games[f"{run.name}#{result.index + 1}"] = (result, game, [[m.color.name[0], m.gtp()] for m in game.moves])
    return games


def move_range(text: str) -> tuple[int, int]:
    """``A-B`` as the first and last move numbers, checked: 1 <= A <= B."""
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a range of moves is A-B, such as 100-240, not {text!r}") from None
    if not 1 <= a <= b:
        raise argparse.ArgumentTypeError(f"a range of moves needs 1 <= A <= B, not {text!r}")
    return a, b


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="miai match output directories")
    parser.add_argument("--judge", required=True, help="the command that starts `katago analysis`")
    parser.add_argument("--visits", type=int, default=16, help="the judge's visits a position (16)")
    parser.add_argument("--top", type=int, default=15, help="how many of the largest losses to list (15)")
    parser.add_argument("--stretch", type=int, default=50, help="moves in each stretch of the summary (50)")
    parser.add_argument("--games", nargs="+", metavar="RUN#N", help="judge only these games (RUN: the folder's name)")
    parser.add_argument("--moves", type=move_range, default=None, metavar="A-B",
                        help="judge only moves A to B of each game (1-based, inclusive)")
    args = parser.parse_args(argv)
    first, last = args.moves or (1, None)
    games = {}
    for gid, (result, game, moves) in load_games(args.runs).items():
        players = {Color.BLACK: result.black, Color.WHITE: result.white}
        games[gid] = (gid.rsplit("#", 1)[0], result.index + 1, players, moves[:last], game, result)
    if args.games:
        unknown = sorted(set(args.games) - set(games))
        if unknown:
            raise SystemExit(f"point_loss: no game {', '.join(unknown)} in these runs (known: {', '.join(games)})")
        games = {gid: games[gid] for gid in args.games}
    games = {gid: g for gid, g in games.items() if len(g[3]) >= first}
    if not games:
        raise SystemExit(f"point_loss: no game has a move {first}")
    queries = {gid: query(gid, g[4].size, g[4].komi, g[3], args.visits, list(range(first - 1, len(g[3]) + 1)))
               for gid, g in games.items()}
    leads = analyse(args.judge, queries)
    found: list[Loss] = []
    for gid, (run, number, players, moves, _, result) in games.items():
        mine = losses(run, number, players, moves, leads[gid])
        found += mine
        totals = {p: sum(x.loss for x in mine if x.player == p) for p in players.values()}
        print(f"{gid}: {result.black} (B) vs {result.white} (W), {result.result}, {len(moves)} moves; "
              + ", ".join(f"{p} lost {t:.1f} points" for p, t in totals.items()))
    summary(found, args.stretch)
    print(f"\nthe {args.top} largest losses:")
    for x in sorted(found, key=lambda x: -x.loss)[: args.top]:
        print(f"  {x.run}#{x.game} move {x.number:3d} {x.player:>8} {x.played:>4} (judge: {x.judge_move:>4})"
              f"  lead {x.lead_before:+6.1f}, lost {x.loss:5.1f}")


if __name__ == "__main__":
    main()
