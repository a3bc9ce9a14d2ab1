"""Checked ``Game.play`` calls per second, beside sgfmill's board in the same run.

Records random games (the kernel's playout policy, seeded), then replays them, alternately,
through miai's ``Game.play`` (every move checked: occupancy, suicide, ko, positional
superko) and through sgfmill's ``Board.play`` (which checks only occupancy: no ko, no
superko), round after round; prints medians and the ratio as a Markdown table.

    python benchmarks/game_play.py --sizes 9 19 --runs 5 --seconds 3

sgfmill is a benchmark-only dependency (``pip install sgfmill``).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import time

from miai.cli.bench import record_random_games
from miai.game import Game
from miai.rules import Rules


def timed(replay, seconds: float) -> float:
    replay()  # warm up
    calls, start, elapsed = 0, time.perf_counter(), 0.0
    while elapsed < seconds:
        calls += replay()
        elapsed = time.perf_counter() - start
    return calls / elapsed


def main() -> None:
    from sgfmill import boards

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    rules = Rules.preset("chinese")
    rows = []
    for size in args.sizes:
        games = record_random_games(size, args.games, seed=1)

        def miai_replay() -> int:
            calls = 0
            for moves in games:
                game = Game(size, rules)
                for m in moves:
                    game.play(m)
                    calls += 1
            return calls

        def sgfmill_replay() -> int:
            calls = 0
            for moves in games:
                board = boards.Board(size)
                colour = "b"
                for m in moves:
                    if m is not None:
                        board.play(m[0], m[1], colour)
                    colour = "w" if colour == "b" else "b"
                    calls += 1
            return calls

        ours, theirs, ratios = [], [], []
        for _ in range(args.runs):
            a = timed(miai_replay, args.seconds)
            b = timed(sgfmill_replay, args.seconds)
            ours.append(a)
            theirs.append(b)
            ratios.append(a / b)
            print(f"{size}x{size}: miai {a:,.0f}/s, sgfmill {b:,.0f}/s", flush=True)
        rows.append((size, statistics.median(ours), statistics.median(theirs), statistics.median(ratios)))
    print()
    print("| Board | miai Game.play (checked, superko) /s | sgfmill Board.play (unchecked) /s | miai / sgfmill |")
    print("|---|---:|---:|---:|")
    for size, a, b, r in rows:
        print(f"| {size}×{size} | {a:,.0f} | {b:,.0f} | {r:.2f} |")
    print()
    print(f"Medians of {args.runs} rounds of {args.seconds:g} s, replaying {args.games} random games per size.")
    print(f"- Command: `python benchmarks/game_play.py --sizes {' '.join(map(str, args.sizes))} --runs {args.runs} --seconds {args.seconds:g}`")
    print(f"- Machine: {platform.machine()}, Python {platform.python_version()}; date {datetime.date.today()}")


if __name__ == "__main__":
    main()
