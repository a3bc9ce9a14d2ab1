"""``miai bench``: the speed of the kernel and of the checked Game API, printed as JSON.

``miai bench playouts --size 9 --seconds 5`` runs uniformly random playouts (the rule of
``miai._kernel.playout``, the one the C baseline follows) on one thread; ``--policy light``
or ``--policy heavy`` times the status estimate's or the search's playout policy instead
(``miai._kernel.light``, ``miai._kernel.heavy``); ``miai bench play --size 19`` replays recorded games
through the checked ``Game.play`` (positional superko on). The comparison with the C
baseline is ``benchmarks/playouts.py``; results live in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from miai.coords import Move, Point
from miai.game import Game
from miai.rules import Rules
from miai.sgf import load_game


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("bench", help="measure the kernel's and the Game API's speed (JSON)")
    sub = p.add_subparsers(dest="bench", metavar="WHAT", required=True)

    po = sub.add_parser("playouts", help="random playouts per second, one thread")
    po.add_argument("--size", type=int, default=9)
    po.add_argument("--seconds", type=float, default=5.0)
    po.add_argument("--seed", type=int, default=1)
    po.add_argument(
        "--policy", choices=POLICIES, default="uniform",
        help="uniform (the C baseline's rule; default), light (the status estimate's) or heavy (the search's)",
    )
    po.set_defaults(func=run_playouts)

    pl = sub.add_parser("play", help="checked Game.play calls per second, replaying recorded games")
    pl.add_argument("--size", type=int, default=19)
    pl.add_argument("--games", type=int, default=20, help="random games to record and replay")
    pl.add_argument("--seconds", type=float, default=5.0, help="replay the games for about this long")
    pl.add_argument("--rules", default="chinese", help="ruleset (default chinese: positional superko)")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("sgf", nargs="*", help="replay these records instead of random games")
    pl.set_defaults(func=run_play)


POLICIES = ("uniform", "light", "heavy")
"""The kernel's playout policies, lightest first."""


def _playout_batch(policy: str, size: int) -> Callable[[int, int], tuple[int, int | None, int | None]]:
    """A function running ``count`` playouts of ``policy`` from the empty board with a seed,
    returning (turns, passes, Black's wins); None where the policy's loop does not count it
    (the light policy's ``ownership`` counts owners, not wins)."""
    import numpy as np

    from miai import _kernel as K
    from miai._kernel import heavy, light

    grid, meta = K.new_board(size)
    if policy == "uniform":
        return lambda count, seed: K.run_playouts(grid, meta, K.BLACK, count, 7.5, seed)
    if policy == "heavy":
        from miai.ai.config import MctsConfig

        params = MctsConfig().policy_params(size)  # the search's, on this board

        def run_heavy(count: int, seed: int) -> tuple[int, int | None, int | None]:
            turns, wins = heavy.run_heavy_playouts(grid, meta, K.BLACK, count, 7.5, seed, heavy.PAT3, params)
            return turns, None, wins

        return run_heavy
    owned = np.zeros((3, grid.shape[1]), np.int32)
    return lambda count, seed: (light.ownership(grid, meta, K.BLACK, count, seed, owned), None, None)


def playout_speed(size: int, seconds: float, seed: int = 1, policy: str = "uniform") -> dict[str, Any]:
    """Run playouts of ``policy`` from the empty board for about ``seconds``; the figures as
    a dict (passes and wins where the policy's loop counts them)."""
    run = _playout_batch(policy, size)
    run(2, seed)  # compile (or load the cache) first
    batch = max(1, int(20000 / (size * size)))
    playouts = turns = passes = wins = 0
    rng_seed = seed
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        t, p, w = run(batch, rng_seed)
        rng_seed = (rng_seed * 6364136223846793005 + 1442695040888963407) % (1 << 62) + 1
        playouts += batch
        turns += t
        passes += p or 0
        wins += w or 0
        elapsed = time.perf_counter() - start
    out: dict[str, Any] = {
        "impl": "miai-numba" if policy == "uniform" else f"miai-numba {policy}",
        "size": size,
        "playouts": playouts,
        "seconds": round(elapsed, 3),
        "playouts_per_second": round(playouts / elapsed, 1),
        "moves_per_playout": round(turns / playouts, 3),
    }
    if policy == "uniform":
        out["stones_per_playout"] = round((turns - passes) / playouts, 3)
    if policy != "light":
        out["black_wins"] = wins
        out["black_win_rate"] = round(wins / playouts, 4)
    return out


def run_playouts(args: argparse.Namespace) -> int:
    print(json.dumps(playout_speed(args.size, args.seconds, args.seed, args.policy)))
    return 0


def record_random_games(size: int, games: int, seed: int) -> list[list[tuple[int, int] | None]]:
    """Move lists of ``games`` random games (the playout policy), to replay."""
    from miai import _kernel as K
    from miai.board import Board

    records = []
    for g in range(games):
        board = Board(size)
        board.meta[K.board.M_RNG] = seed * 1000003 + g + 1
        moves: list[tuple[int, int] | None] = []
        c, passes = K.BLACK, 0
        while passes < 2 and len(moves) < 3 * size * size:
            p = K.choose_random_move(board.grid, board.meta, c)
            if p == 0:
                K.pass_turn(board.meta)
                moves.append(None)
                passes += 1
            else:
                K.play_stone(board.grid, board.meta, p, c)
                moves.append(board.point(p))
                passes = 0
            c = 3 - c
        records.append(moves)
    return records


def play_speed(size: int, games: int, seconds: float, rules_text: str, seed: int = 1, sgf: list[str] | None = None) -> dict[str, Any]:
    """Replay recorded games through the checked ``Game.play``; the figures as a dict."""

    rules = Rules.parse(rules_text)
    records: list[tuple[int, list[Point], list[Move] | list[Point | None]]]
    if sgf:

        loaded = [load_game(path, rules=rules)[0] for path in sgf]
        records = [(g.size, g.handicap_points, g.moves) for g in loaded]
        source = f"{len(sgf)} records"
    else:
        records = [(size, [], moves) for moves in record_random_games(size, games, seed)]
        source = f"{games} random games on {size}x{size}"

    def replay_all() -> int:
        calls = 0
        for n, handicap, moves in records:
            game = Game(n, rules)
            if handicap:
                game.set_handicap(handicap)
            for m in moves:
                game.play(m)
                calls += 1
                if game.consecutive_passes >= 2:
                    break
        return calls

    replay_all()  # warm up (compile or load the cache)
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        calls += replay_all()
        elapsed = time.perf_counter() - start
    return {
        "impl": "miai Game.play (checked)",
        "rules": str(rules),
        "source": source,
        "calls": calls,
        "seconds": round(elapsed, 3),
        "plays_per_second": round(calls / elapsed, 1),
    }


def run_play(args: argparse.Namespace) -> int:
    print(json.dumps(play_speed(args.size, args.games, args.seconds, args.rules, args.seed, args.sgf)))
    return 0
