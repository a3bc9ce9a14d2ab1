"""Where did a judge's move stand in miai's search? One position of a record, searched again.

``point_loss.py`` names the moves that lost the most and the judge's move beside each. This
searches the position before such a move as the match did (the same knobs, the same time) and
prints where the judge's move and the move played stand among the root's moves: their rank by
visits and by prior, their visits and win rate, their AMAF visits and AMAF win rate. A move
the priors rank far down and the search never visits is a knowledge miss; one searched
thousands of times and found a little worse is a misread fight. ``--after`` then plays each
move given and searches the position after it for the whole time (no early stop): the
mover's win rate there and the opponent's answer, so that a move the search never tried can
be told from one it would have misjudged anyway. ``--below`` lists the replies the same
search gave the opponent below a root move: a subtree that keeps its visits on a reply the
search after that move does not play overrates the move. Usage::

    python tools/root_probe.py runs/p19j-a/game-001.sgf 66 C18 --seconds 10 --after C18 F10
    python tools/root_probe.py runs/p19j-a/game-001.sgf 66 C18 --below H5 C4

(66 moves played, then the judge's move C18). A research tool: it reads the record and
changes nothing.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from miai.ai.config import MctsConfig
from miai.ai.mcts import Candidate, MctsPlayer
from miai.coords import Move, point_from_gtp, point_to_gtp
from miai.game import Game
from miai.sgf import load_game


def describe(move: str, candidates: list[Candidate]) -> str:
    """The move's ranks (by visits, as listed, and by prior) and statistics at the root."""
    by_prior = sorted(candidates, key=lambda c: -c.prior)
    for rank, c in enumerate(candidates, start=1):
        if point_to_gtp(c.point) == move:
            prior_rank = by_prior.index(c) + 1
            return (f"{move}: rank {rank} by visits, {prior_rank} by prior ({c.prior:.4f}); {c.visits} visits, "
                    f"win rate {c.winrate:.3f}, {c.amaf_visits} AMAF visits at {c.amaf_winrate:.3f}")
    return f"{move}: not among the root's moves"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="an SGF record (a miai match game)")
    parser.add_argument("moves", type=int, help="how many of its moves to play before the search")
    parser.add_argument("judge", help="the judge's move there, in GTP (C18)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the search's time (10)")
    parser.add_argument("--seed", type=int, default=7, help="the search's random seed (7)")
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, as miai gtp's")
    parser.add_argument("--after", nargs="+", default=[], metavar="MOVE",
                        help="then search the position after each of these moves (GTP points)")
    parser.add_argument("--below", nargs="+", default=[], metavar="MOVE",
                        help="list the search's replies below each of these root moves (GTP points)")
    args = parser.parse_args()
    record, _ = load_game(args.record)
    played = list(record.moves)
    if not 0 <= args.moves <= len(played):
        parser.error(f"moves {args.moves}: the game has {len(played)} moves (0 to {len(played)})")

    def position() -> Game:
        return record.after(args.moves)

    config = MctsConfig(**{"max_seconds": args.seconds, "seed": args.seed, **MctsConfig.parse_settings(args.set)})
    game = position()
    player = MctsPlayer(config)
    result = player.search(game)
    candidates = list(result.candidates)
    best = candidates[0]
    print(f"{args.record} after {args.moves} moves: {result.playouts} playouts in {result.seconds:.1f} s; "
          f"most visited {point_to_gtp(best.point)}, {best.visits} visits, win rate {best.winrate:.3f}")
    print("  judge's  " + describe(args.judge.upper(), candidates))
    if args.moves < len(played):
        print("  played   " + describe(point_to_gtp(played[args.moves].point), candidates))
    for text in args.below:
        point = point_from_gtp(text, game.size)
        replies = player.candidates(game, pv_length=1, below=[point])[:6]
        print(f"  below {text.upper()}: " + ("; ".join(
            f"{point_to_gtp(r.point)} {r.visits} visits at {r.winrate:.3f}, prior {r.prior:.3f}" for r in replies)
            or "no replies in the tree"))
    for text in args.after:
        game = position()
        mover = game.to_move
        game.play(Move(mover, point_from_gtp(text, game.size)))
        answer = MctsPlayer(replace(config, early_stop=False)).search(game).candidates[0]
        print(f"  after {text.upper()}: the mover's win rate {1 - answer.winrate:.3f}; "
              f"the answer {point_to_gtp(answer.point)}")


if __name__ == "__main__":
    main()
