"""Agreement with GNU Go on finished games: dead stones and the final score (issue 4).

GNU Go plays itself (``--seed S``) until both pass; then GNU Go is asked, under Japanese and
under Chinese rules (a second GNU Go replays the moves with ``--chinese-rules``), for
``final_status_list dead`` and ``final_score``; miai's estimator (:func:`miai.ai.status.
estimate_status`) answers the same questions, and the two are compared.

Run by hand (GNU Go's games are cached, so a second run only re-scores)::

    python benchmarks/gnugo_agreement.py --size 9 --games 50
    python benchmarks/gnugo_agreement.py --size 19 --games 10 --level 5
    python benchmarks/gnugo_agreement.py --size 9 --games 50 --show   # diagrams of the differences
    python benchmarks/gnugo_agreement.py --gnugo /opt/gnugo/bin/gnugo --cache /tmp/gnugo-games

GNU Go is the ``gnugo`` on the ``PATH`` (or in ``/usr/games``, where Debian installs it), or
the program ``--gnugo`` names. A game agrees when the dead-stone sets are equal and the results (``B+3.5``…) are equal, under
both rules. The tests run a small version of this (``tests/ai/test_status_gnugo.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
"""The GNU Go program found on this machine (None if there is none); ``--gnugo`` overrides it."""
CACHE = Path(os.environ.get("MIAI_GNUGO_CACHE", Path.home() / ".cache" / "miai" / "gnugo-games"))
"""Where GNU Go's games are kept between runs; ``--cache`` overrides it."""
KOMI = {"japanese": 6.5, "chinese": 7.5}
RULE_FLAGS = {"japanese": "--japanese-rules", "chinese": "--chinese-rules"}


@dataclass
class FinishedGame:
    """A GNU Go self-play game and GNU Go's verdict on its end, per ruleset."""

    size: int
    seed: int
    level: int
    moves: list[tuple[str, str]]  # (colour letter, vertex), passes included
    dead: dict[str, list[str]]  # rules -> GNU Go's dead vertices
    seki: dict[str, list[str]]
    score: dict[str, str]  # rules -> GNU Go's final_score

    @property
    def finished(self) -> bool:
        """The game ended by two passes (not by the move cap, nor by a resignation, which
        GNU Go made before ``--never-resign`` was passed)."""
        return len(self.moves) >= 2 and self.moves[-1][1] == "PASS" and self.moves[-2][1] == "PASS"

    def to_json(self) -> dict:
        return self.__dict__

    @classmethod
    def from_json(cls, data: dict) -> FinishedGame:
        data = dict(data)
        data["moves"] = [tuple(m) for m in data["moves"]]
        return cls(**data)


def _vertices(text: str) -> list[str]:
    return sorted(v.upper() for v in text.split())


def play_gnugo_game(
    size: int, seed: int, level: int, max_moves: int | None = None, gnugo: str | None = None
) -> FinishedGame:
    """GNU Go (``gnugo``, default :data:`GNUGO`) against itself from an empty board until two
    consecutive passes."""
    from miai.gtp.controller import GtpController

    gnugo = gnugo or GNUGO
    if gnugo is None:
        raise RuntimeError("GNU Go is not installed (apt-get install gnugo, or name it with --gnugo)")
    max_moves = max_moves or 4 * size * size
    # --never-resign: GNU Go resigns lost games by default, and a resigned game has no end
    # position to count
    argv = [gnugo, "--mode", "gtp", "--quiet", "--level", str(level), "--seed", str(seed), "--never-resign"]
    moves: list[tuple[str, str]] = []
    with GtpController(argv, timeout=120) as engine:
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        engine.send(f"komi {KOMI['japanese']}")
        passes = 0
        colour = "B"
        while passes < 2 and len(moves) < max_moves:
            vertex = engine.send(f"genmove {colour}").strip().upper()
            moves.append((colour, vertex))
            passes = passes + 1 if vertex == "PASS" else 0
            colour = "W" if colour == "B" else "B"
    dead, seki, score = {}, {}, {}
    for rules, flag in RULE_FLAGS.items():
        with GtpController([gnugo, "--mode", "gtp", "--quiet", flag], timeout=300) as judge:
            judge.send(f"boardsize {size}")
            judge.send("clear_board")
            judge.send(f"komi {KOMI[rules]}")
            for colour, vertex in moves:
                judge.send(f"play {colour} {vertex}")
            dead[rules] = _vertices(judge.send("final_status_list dead"))
            seki[rules] = _vertices(judge.send("final_status_list seki"))
            score[rules] = judge.send("final_score").strip()
    return FinishedGame(size, seed, level, moves, dead, seki, score)


def cached_game(size: int, seed: int, level: int, gnugo: str | None = None, cache: Path | None = None) -> FinishedGame:
    """The game of this seed from the cache (``cache``, default :data:`CACHE`), played now if
    it is not there yet."""
    path = (cache or CACHE) / f"{size}x{size}-level{level}-seed{seed}.json"
    if path.exists():
        cached = FinishedGame.from_json(json.loads(path.read_text()))
        if cached.finished or len(cached.moves) >= 4 * size * size:  # else resigned: play it again
            return cached
    game = play_gnugo_game(size, seed, level, gnugo=gnugo)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(game.to_json()))
    tmp.replace(path)
    return game


@dataclass
class Comparison:
    game: FinishedGame
    rules: str
    ours_dead: list[str]
    ours_seki: list[str]
    ours_score: str
    seconds: float
    seki_eyes_score: str | None = None
    """Our result with the eyes of seki groups counted as dame, as GNU Go counts them (its
    known fault 4 in docs/REFEREES.md: under area scoring an eye of a seki
    group is its owner's); None when no seki group has an eye under area scoring."""

    @property
    def same_dead(self) -> bool:
        return self.ours_dead == self.game.dead[self.rules]

    @property
    def same_score(self) -> bool:
        return self.ours_score == self.game.score[self.rules]

    @property
    def agrees(self) -> bool:
        return self.same_dead and self.same_score

    @property
    def gnugo_known_difference(self) -> bool:
        """The only difference is GNU Go's known error: eyes of seki groups counted as dame
        under area scoring (the dead and seki stones are the same)."""
        return (
            self.same_dead
            and not self.same_score
            and self.ours_seki == self.game.seki[self.rules]
            and self.seki_eyes_score == self.game.score[self.rules]
        )


def replay(game: FinishedGame, rules: str):
    from miai.coords import point_from_gtp
    from miai.game import Game
    from miai.rules import Rules

    g = Game(game.size, Rules.preset(rules).replace(komi=KOMI[rules]))
    for colour, vertex in game.moves:
        if vertex == "PASS":
            g.pass_move()
        else:
            g.play(point_from_gtp(vertex, game.size))
    return g


def compare(game: FinishedGame, rules: str, playouts: int | None = None) -> Comparison:
    from miai.ai.status import estimate_status
    from miai.coords import point_to_gtp

    g = replay(game, rules)
    start = time.perf_counter()
    kwargs = {} if playouts is None else {"playouts": playouts}
    est = estimate_status(g, seed=game.seed, **kwargs)
    seconds = time.perf_counter() - start
    dead = sorted(point_to_gtp(p) for p in est.dead)
    seki = sorted(point_to_gtp(p) for p in est.seki)
    return Comparison(game, rules, dead, seki, str(est.score.result), seconds, _seki_eyes_as_dame(g, est))


def _seki_eyes_as_dame(g, est) -> str | None:
    """The result with every point counted for a colour next to that colour's seki stones
    made neutral (GNU Go's count), or None if there is no such point."""
    from miai.coords import Color
    from miai.result import Result

    size = est.size
    shift = 0.0
    for (r, c), owner in est.territory.items():
        if owner is None or g.board[(r, c)] is not None:
            continue
        near = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < size and 0 <= c + dc < size]
        if any(q in est.seki and g.board[q] is owner for q in near):
            shift += 1.0 if owner is Color.BLACK else -1.0
    if not shift and not any(est.territory[p] is not None for p in est.seki):
        return None
    margin = est.score.margin - shift
    return str(Result.by_score(margin))


def _one(args: tuple[int, int, int, str | None, Path | None]) -> FinishedGame:
    return cached_game(*args)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--level", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2, help="GNU Go games played in parallel")
    ap.add_argument("--playouts", type=int, default=None)
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--show", action="store_true", help="draw every position where miai and GNU Go differ")
    ap.add_argument("--gnugo", metavar="PATH", default=GNUGO,
                    help=f"the GNU Go program (default: {GNUGO or 'gnugo on the PATH, or in /usr/games'})")
    ap.add_argument("--cache", metavar="DIR", type=Path, default=CACHE,
                    help=f"where GNU Go's games are kept between runs (default: {CACHE}; also $MIAI_GNUGO_CACHE)")
    args = ap.parse_args(argv)
    gnugo = shutil.which(args.gnugo) if args.gnugo else None
    if gnugo is None:
        print(f"GNU Go not found{f' at {args.gnugo}' if args.gnugo else ''}: install it "
              "(apt-get install gnugo) or name it with --gnugo PATH", file=sys.stderr)
        return 2
    seeds = range(args.first_seed, args.first_seed + args.games)
    jobs = [(args.size, s, args.level, gnugo, args.cache) for s in seeds]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        games = list(pool.map(_one, jobs))
    print(f"{len(games)} GNU Go games {args.size}x{args.size} level {args.level} ready in {time.perf_counter() - start:.0f} s "
          f"(mean {sum(len(g.moves) for g in games) / len(games):.0f} moves)")
    unfinished = [g.seed for g in games if not g.finished]
    if unfinished:
        print(f"left out, not ended by two passes within the move cap: seeds {unfinished}")
        games = [g for g in games if g.finished]
    if args.generate_only:
        return 0
    from miai.render.text import diagram

    total = {r: 0 for r in RULE_FLAGS}
    agree = {r: 0 for r in RULE_FLAGS}
    same_dead = {r: 0 for r in RULE_FLAGS}
    same_score = {r: 0 for r in RULE_FLAGS}
    both = 0
    both_explained = 0
    explained = {r: 0 for r in RULE_FLAGS}
    seconds = 0.0
    for game in games:
        all_agree = True
        all_explained = True
        for rules in RULE_FLAGS:
            c = compare(game, rules, args.playouts)
            seconds += c.seconds
            total[rules] += 1
            agree[rules] += c.agrees
            same_dead[rules] += c.same_dead
            same_score[rules] += c.same_score
            all_agree &= c.agrees
            all_explained &= c.agrees or c.gnugo_known_difference
            explained[rules] += c.agrees or c.gnugo_known_difference
            if not c.agrees:
                why = " [GNU Go's known difference 4: eyes of seki groups as dame]" if c.gnugo_known_difference else ""
                print(f"seed {game.seed} {rules}{why}: miai {c.ours_score} dead {' '.join(c.ours_dead) or '-'} "
                      f"seki {' '.join(c.ours_seki) or '-'} | GNU Go {game.score[rules]} dead "
                      f"{' '.join(game.dead[rules]) or '-'} seki {' '.join(game.seki[rules]) or '-'}")
                if args.show:
                    from miai.coords import point_from_gtp

                    g = replay(game, rules)
                    print(diagram(g.board, dead=[point_from_gtp(v, game.size) for v in c.ours_dead]))
        both += all_agree
        both_explained += all_explained
    n = len(games)
    for rules in RULE_FLAGS:
        print(f"{rules:9s}: same dead stones {same_dead[rules]}/{n}, same score {same_score[rules]}/{n}, "
              f"both {agree[rules]}/{n} ({100 * agree[rules] / n:.0f}%); with GNU Go's known errors "
              f"set aside {explained[rules]}/{n} ({100 * explained[rules] / n:.0f}%)")
    print(f"agree under both rules: {both}/{n} ({100 * both / n:.0f}%), with GNU Go's known errors set aside "
          f"{both_explained}/{n} ({100 * both_explained / n:.0f}%); "
          f"miai's estimate takes {seconds / (2 * n):.2f} s per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
