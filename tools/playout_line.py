"""Along a line of play, where do miai's playouts lose a group's fate? Their verdict and replies step by step.

A misread that no search depth mends (``misread.py``) need not be one shape: a group may die
only at the end of a line of forced replies, each of which the playouts must find. From a
position of a recorded game, this plays a line of moves and, after each, prints what the
playouts make of it without a tree: the watched chains' ownership from their owner's side
(``heavy.heavy_ownership``, as ``playout_bias.py``: +1 kept in every playout, -1 lost in
every one), and the playouts' first replies (the first move of many playouts, with its
share): where the judge's only move has a small share, the playouts give the group a chance
it does not have. With ``--judge`` (KataGo's analysis engine) each step also gets the judge's
lead, its ownership of the same chains and its best moves, so that the line can follow them.

Usage::

    python tools/playout_line.py GAME.sgf --at 196 --line S15 R15 T16 S17 S18 --watch Q16 R14 \\
        [--playouts 2000] [--replies 2000] [--set KNOB=VALUE] \\
        [--judge "KATAGO analysis -model NET -config analysis_example.cfg" --visits 400]

The line's moves alternate from the side to move after ``--at`` moves. A research tool: it
reads a record and runs engines, and changes nothing.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import misread
import numpy as np
import playout_bias

from miai._kernel import heavy
from miai._kernel.playout import _restore, _scratch
from miai.ai.config import MctsConfig
from miai.coords import Move, point_from_gtp, point_to_gtp
from miai.game import Setup
from miai.sgf import load_game


def positions_along(record_path: Path, at: int, line: list[str]) -> list[dict]:
    """The positions after ``at`` moves of the record and after each move of ``line`` (in
    ``playout_bias``'s form, ids ``"197"`` and on); a line move that is not legal is refused
    with the move's number and the reason."""
    record, _ = load_game(str(record_path))
    if record.handicap or any(isinstance(entry, Setup) for entry in record.history):
        raise SystemExit(f"{record_path}: only even games without set-up stones are read")
    moves = list(record.moves)
    if not 0 <= at <= len(moves):
        raise SystemExit(f"--at {at}: the game has {len(moves)} moves (0 to {len(moves)})")
    replay = record.after(at)
    played = [[move.color.name[0], move.gtp()] for move in moves[:at]]
    found = [_position(record.size, record.komi, played, at)]
    for number, vertex in enumerate(line, start=at + 1):
        colour = replay.to_move
        try:
            replay.play(Move(colour, point_from_gtp(vertex, record.size)))
        except ValueError as exc:
            raise SystemExit(f"--line: move {number}, {colour.name.lower()} {vertex}, cannot be played: {exc}") from exc
        played.append([colour.name[0], vertex.upper()])
        found.append(_position(record.size, record.komi, played, number))
    return found


def _position(size: int, komi: float, moves: list[list[str]], number: int) -> dict:
    """One position in ``playout_bias``'s form, its id the number of moves played."""
    return {"id": str(number), "size": size, "komi": komi, "moves": [list(m) for m in moves]}


def chain_fates(pos: dict, own: np.ndarray, watch: list[str]) -> list[str]:
    """Each watched stone's chain and its mean ownership in ``own`` (Black's side, rows from
    the top) from its owner's side, or that it is gone from the board."""
    game, _, _ = playout_bias.replay(pos)
    by_point = own[::-1]  # misread.chain_ownership indexes by point, rows from the bottom
    fates = []
    for vertex in watch:
        point = point_from_gtp(vertex, pos["size"])
        chain = next((c for c in game.board.chains() if point in c.stones), None)
        if chain is None:
            fates.append(f"{vertex} gone")
            continue
        mine = misread.chain_ownership(chain, by_point) + 0.0  # + 0.0: no "-0.00"
        fates.append(f"{vertex} ({len(chain.stones)}) {mine:+.2f}")
    return fates


def first_replies(pos: dict, count: int, config: MctsConfig, seed: int) -> Counter[str]:
    """The first move of ``count`` playouts from the position (the search's policy, one turn
    of ``heavy.heavy_playout`` each): how often the playouts choose each reply."""
    game, last, last2 = playout_bias.replay(pos)
    board = game.board
    g, m = _scratch(board.grid, board.meta, seed)
    first = np.zeros(board.grid.shape[1], np.int8)
    params = config.policy_params(pos["size"])
    replies: Counter[str] = Counter()
    for _ in range(count):
        _restore(g, m, board.grid, board.meta)
        first[:] = 0
        heavy.heavy_playout(g, m, int(game.to_move), last, last2, 1, heavy.PAT3, params, first)
        played = np.flatnonzero(first)
        replies[point_to_gtp(board.point(int(played[0]))) if len(played) else "pass"] += 1
    return replies


def shares(replies: Counter[str], count: int, top: int) -> str:
    """The most frequent replies with their share, e.g. ``T17 62%, S18 34%``."""
    return ", ".join(f"{v} {100 * n / count:.0f}%" for v, n in replies.most_common(top))


def add_reading_arguments(parser: argparse.ArgumentParser, visits: int) -> None:
    """The options of the tools that read positions with miai's playouts and KataGo: the
    playouts' seed and knobs, the judge and its visits (``visits`` by default)."""
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, as miai gtp's")
    parser.add_argument("--judge", help="KataGo's analysis engine command line (optional)")
    parser.add_argument("--visits", type=int, default=visits, help=f"the judge's visits a position (default {visits})")


def search_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> MctsConfig:
    """The search configuration of ``--set``'s knobs; a knob that is wrong ends the tool with
    the parser's error."""
    try:
        return MctsConfig(**MctsConfig.parse_settings(args.set))
    except ValueError as exc:
        parser.error(f"--set {exc}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sgf", type=Path, help="a game record")
    parser.add_argument("--at", type=int, required=True, help="the line starts after this many of the game's moves")
    parser.add_argument("--line", nargs="*", default=[], help="the moves played from there, alternating")
    parser.add_argument("--watch", nargs="+", required=True, help="a stone of each chain to follow")
    parser.add_argument("--playouts", type=int, default=2000, help="playouts a position for the verdict (default 2,000)")
    parser.add_argument("--replies", type=int, default=2000, help="first moves drawn a position (default 2,000)")
    add_reading_arguments(parser, visits=400)
    args = parser.parse_args(argv)
    config = search_config(parser, args)
    positions = positions_along(args.sgf, args.at, args.line)
    for vertex in args.watch:
        try:
            point_from_gtp(vertex, positions[0]["size"])
        except ValueError as exc:
            parser.error(f"--watch {vertex}: {exc}")
    judged = playout_bias.judged_now(args.judge, positions, args.visits) if args.judge else {}
    for i, pos in enumerate(positions):
        last = pos["moves"][-1] if pos["moves"] else None
        to_move = "white" if last and last[0] == "B" else "black"
        print(f"after {pos['id']}" + (f" ({last[0]} {last[1]})" if last else "") + f", {to_move} to move:")
        _, own = playout_bias.playouts(pos, args.playouts, config, args.seed + i)
        print(f"  playouts: {'; '.join(chain_fates(pos, own, args.watch))}")
        print(f"  replies:  {shares(first_replies(pos, args.replies, config, args.seed + i), args.replies, 5)}")
        if pos["id"] in judged:
            j = judged[pos["id"]]
            truth = np.array(j["ownership"]).reshape(pos["size"], pos["size"])
            print(f"  judge:    lead (Black) {j['lead']:+.1f}; {'; '.join(chain_fates(pos, truth, args.watch))};"
                  f" best {', '.join(j.get('best', []))}")


if __name__ == "__main__":
    main()
