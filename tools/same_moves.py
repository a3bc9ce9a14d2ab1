"""Where does a knob change the search? The same positions searched by two configurations with
the same seed, and how often they choose the same move.

A self-play match between an engine with a knob and one without measures the knob only in
the positions where it changes the search; elsewhere the two engines play alike and the
games are noise. This reads positions of game records (every ``--every`` moves) and searches
each twice, at a fixed number of playouts and one seed, with ``--set-a`` and with
``--set-b``: a knob that acts nowhere in a position leaves the two searches bit-identical.
``--without-race N`` keeps only the games in which no capturing race between chains of N
stones or more stands on the board (``races.first_settled_race``), where a knob of the
races (``p_race_reply``) can act only inside the search.

Usage::

    python tools/same_moves.py "runs/eye8-19/*.sgf" --every 40 --playouts 2000 \\
        --set-a p_race_reply=1 --set-b p_race_reply=0 --without-race 8

Prints each position where the two differ and a tally: positions read, the same move chosen,
the same visits of the first five candidates. A research tool: it changes nothing.
"""

from __future__ import annotations

import argparse
import glob
from pathlib import Path

from races import first_settled_race

from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.coords import point_to_gtp
from miai.game import Game
from miai.sgf import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help="SGF files or glob patterns")
    parser.add_argument("--every", type=int, default=40, help="read the position after every N-th move")
    parser.add_argument("--playouts", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set-a", action="append", default=[], metavar="KNOB=VALUE")
    parser.add_argument("--set-b", action="append", default=[], metavar="KNOB=VALUE")
    parser.add_argument("--without-race", type=int, default=None, metavar="N")
    args = parser.parse_args()
    base = {"playouts": args.playouts, "max_seconds": None, "seed": args.seed}
    configs = [MctsConfig(**(base | MctsConfig.parse_settings(s))) for s in (args.set_a, args.set_b)]
    read = same_move = same_visits = 0
    for path in (Path(p) for pattern in args.records for p in sorted(glob.glob(pattern))):
        if args.without_race is not None and first_settled_race(path, args.without_race) is not None:
            continue
        played, _ = load_game(path)
        game = Game(size=played.size, rules=played.rules, komi=played.komi)
        for number, move in enumerate(played.moves):
            if number % args.every == args.every // 2:
                found = [MctsPlayer(cfg).search(game) for cfg in configs]
                moves = [r.best.point if r.best else None for r in found]
                visits = [tuple(c.visits for c in r.candidates[:5]) for r in found]
                read += 1
                same_move += moves[0] == moves[1]
                same_visits += visits[0] == visits[1]
                if visits[0] != visits[1]:
                    print(f"{path} after {number}: {point_to_gtp(moves[0])} {visits[0]} against "
                          f"{point_to_gtp(moves[1])} {visits[1]}")
            game.play(move)
    print(f"{read} positions: the same move in {same_move}, the same visits in {same_visits}")


if __name__ == "__main__":
    main()
