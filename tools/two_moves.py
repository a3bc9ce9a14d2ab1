"""Two candidate moves side by side: which chains' fates the choice decides, by a judge and by miai's playouts.

When a judge says one move lost many points against another (``point_loss.py``), this says
where the points went: from the position after ``--at`` moves of a record (and the moves
of ``--line``, if any), each move is played, and the ownership after it is read twice, by
the judge (KataGo's analysis engine, optional) and by miai's playouts without a tree
(``playout_bias.playout_scores``, with how often Black wins them). The chains of
the position whose fate differs between the two moves (their mean ownership from their
owner's side, +1 alive in every playout, -1 captured in every one) are listed with both
readings, and a map shows the points that change owner. Where the judge's difference is
large and the playouts' small, the search had little to choose the right move by.

Usage::

    python tools/two_moves.py GAME.sgf J7 J8 --at 186 [--line MOVES...] [--playouts 2000] [--threshold 0.5] \\
        [--judge "KATAGO analysis -model NET -config analysis_example.cfg" --visits 200]

A research tool: it reads a record and runs engines, and changes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import misread
import numpy as np
import playout_bias
import playout_line

from miai.board import Chain
from miai.coords import point_to_gtp

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def decided_chains(before: dict, first: np.ndarray, second: np.ndarray, threshold: float) -> list[Chain]:
    """The chains of ``before`` (a position in ``playout_bias``'s form) whose fate differs by at
    least ``threshold`` between the ownerships ``first`` and ``second`` (Black's side, rows
    from the top), largest stakes (stones times difference) first. A chain captured by a
    move reads as its points' new owner: dead."""
    game, _, _ = playout_bias.replay(before)
    stakes = []
    for chain in game.board.chains():
        swing = abs(fate(chain, first) - fate(chain, second))
        if swing >= threshold:
            stakes.append((swing * len(chain.stones), chain))
    return [chain for _, chain in sorted(stakes, key=lambda s: -s[0])]


def fate(chain: Chain, own: np.ndarray) -> float:
    """The chain's mean ownership in ``own`` (Black's side, rows from the top) from its owner's side."""
    return misread.chain_ownership(chain, own[::-1])  # chain_ownership indexes by point, rows from the bottom


def label(chain: Chain) -> str:
    """The chain as ``W E4 (4)``: its colour, its stone nearest the top left and its size."""
    first = min(chain.stones, key=lambda p: (-p[0], p[1]))  # the top row first, then the left
    return f"{chain.color.name[0]} {point_to_gtp(first)} ({len(chain.stones)})"


def difference_map(first: np.ndarray, second: np.ndarray, threshold: float) -> list[str]:
    """The board's rows from the top: ``+`` where the first move gives Black at least
    ``threshold`` more of the point than the second, ``-`` where it gives White as much more."""
    size = first.shape[0]
    delta = first - second
    rows = []
    for r in range(size):
        marks = ("+" if v >= threshold else "-" if v <= -threshold else "." for v in delta[r])
        rows.append(f"{size - r:2d} " + " ".join(marks))
    rows.append("   " + " ".join(COLUMNS[:size]))
    return rows


def report(before: dict, moves: list[str], readings: dict[str, list[np.ndarray]], summary: list[str],
           threshold: float) -> list[str]:
    """The text: the readers' ``summary`` lines, the chains the first reader (the judge when
    there is one) says the choice decides, with each reader's fates, and each reader's map."""
    first, second = moves
    out = [f"after {before['id']} moves: {first} against {second}"] + [f"  {line}" for line in summary]
    lead_reader = next(iter(readings))
    first_own, second_own = readings[lead_reader]
    decided = decided_chains(before, first_own, second_own, threshold)
    out.append(f"chains whose fate the choice changes by {threshold} or more ({lead_reader}), from their owner's side:")
    for chain in decided:
        cells = "; ".join(f"{name} {fate(chain, a):+.2f} / {fate(chain, b):+.2f}" for name, (a, b) in readings.items())
        out.append(f"  {label(chain):<12} {cells}")
    if not decided:
        out.append("  none")
    for name, (a, b) in readings.items():
        out.append(f"{name}: + where {first} gives Black {threshold} or more of the point than {second}, - White")
        out += difference_map(a, b, threshold)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sgf", type=Path, help="a game record")
    parser.add_argument("--at", type=int, required=True, help="the choice is made after this many of the game's moves")
    parser.add_argument("moves", nargs=2, help="the two moves of the side to move, in GTP (J7 J8)")
    parser.add_argument("--line", nargs="*", default=[], help="moves played first from there, alternating")
    parser.add_argument("--playouts", type=int, default=2000, help="playouts after each move (default 2,000)")
    parser.add_argument("--threshold", type=float, default=0.5, help="the difference shown (default 0.5)")
    playout_line.add_reading_arguments(parser, visits=200)
    args = parser.parse_args(argv)
    config = playout_line.search_config(parser, args)
    before = playout_line.positions_along(args.sgf, args.at, args.line)[-1]
    after = [playout_line.positions_along(args.sgf, args.at, args.line + [move])[-1] for move in args.moves]
    for pos, move in zip(after, args.moves):
        pos["id"] = move
    readings: dict[str, list[np.ndarray]] = {}
    summary = []
    if args.judge:
        judged = playout_bias.judged_now(args.judge, after, args.visits)
        size = before["size"]
        readings["judge"] = [np.array(judged[m]["ownership"]).reshape(size, size) for m in args.moves]
        leads = [judged[m]["lead"] for m in args.moves]
        summary.append(f"judge: Black's lead {leads[0]:+.1f} after {args.moves[0]}, {leads[1]:+.1f} after {args.moves[1]}")
    played = [playout_bias.playout_scores(pos, args.playouts, config, args.seed) for pos in after]
    readings["playouts"] = [own for _, own in played]
    means = [float(scores.mean()) for scores, _ in played]
    wins = [float((scores > 0).mean()) for scores, _ in played]
    summary.append(f"playouts: Black's mean score {means[0]:+.1f} after {args.moves[0]}, {means[1]:+.1f} after"
                   f" {args.moves[1]}; Black wins {wins[0]:.3f} and {wins[1]:.3f} of them")
    print("\n".join(report(before, args.moves, readings, summary, args.threshold)))

if __name__ == "__main__":
    main()
