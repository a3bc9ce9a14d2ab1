"""Play the MCTS player (in process) against GNU Go over GTP, alternating colours, and
print each game's result and a summary as JSON lines.

    python benchmarks/vs_gnugo.py --games 10 --seconds 2 --size 9

Scoring: both players pass, then the final position is counted by GNU Go's
``final_score`` (Chinese rules: dead stones by its judgement), which miai checks against
its own count of the stones as they stand. A stop-gap until ``miai match`` is the referee.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.coords import Color, Move, point_from_gtp, point_to_gtp
from miai.game import Game, Phase
from miai.gtp.controller import GtpController
from miai.rules import Rules

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--quiet", "--level", "10", "--chinese-rules"]


def play_game(size: int, komi: float, seconds: float, miai_color: Color, seed: int, max_moves: int) -> dict:
    game = Game(size, Rules.preset("chinese").replace(komi=komi))
    player = MctsPlayer(MctsConfig(max_seconds=seconds, seed=seed))
    times = []
    with GtpController(GNUGO) as gnugo:
        gnugo.send(f"boardsize {size}")
        gnugo.send("clear_board")
        gnugo.send(f"komi {komi}")
        result = None
        while game.phase is Phase.PLAY and game.move_number < max_moves:
            color = game.to_move
            if color == miai_color:
                t = time.monotonic()
                decision = player.genmove(game)
                times.append(time.monotonic() - t)
                if decision.resign:
                    result = f"{color.opponent.letter}+R"
                    break
                game.play(Move(color, decision.point))
                gnugo.send(f"play {color.letter} {point_to_gtp(decision.point)}")
            else:
                vertex = gnugo.send(f"genmove {color.letter}", timeout=120)
                if vertex.lower() == "resign":
                    result = f"{color.opponent.letter}+R"
                    break
                game.play(Move(color, point_from_gtp(vertex, size)))
        if result is None:
            result = gnugo.send("final_score")
        own = game.score().result
    winner = result[0]
    return {
        "miai": miai_color.letter,
        "result": result,
        "miai_count_as_stands": own,
        "miai_won": winner == miai_color.letter,
        "moves": game.move_number,
        "miai_seconds_per_move": round(sum(times) / max(len(times), 1), 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--max-moves", type=int, default=400)
    args = ap.parse_args()
    wins = 0
    for i in range(args.games):
        color = Color.BLACK if i % 2 == 0 else Color.WHITE
        record = play_game(args.size, args.komi, args.seconds, color, seed=i + 1, max_moves=args.max_moves)
        wins += record["miai_won"]
        print(json.dumps({"game": i + 1, **record}), flush=True)
    print(json.dumps({"games": args.games, "miai_wins": wins, "win_rate": wins / max(args.games, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
