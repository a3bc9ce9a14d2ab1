"""``miai score FILE.sgf``: count the final position of a game record.

The record's main line is replayed (:func:`miai.sgf.game_from_record`) and its last
position counted under the record's rules, or under ``--rules``. Under rules that remove dead
stones, the dead and seki stones are miai's estimate (:func:`miai.ai.status.estimate_status`),
shown on the map (dead stones lower-case, territory as ``b``/``w``); under rules that count
stones as they stand (Tromp-Taylor, simple), the board is counted as it is. ``--json`` prints
the same for programs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable

from miai import coords
from miai.cli.terminal import Terminal
from miai.cli.texts import describe_rules
from miai.coords import Color, Point
from miai.errors import MiaiError
from miai.render import rich_diagram
from miai.rules import Rules
from miai.sgf import game_from_record, read_file

MAX_REPAIRS_SHOWN = 10


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="count the final position of a game record",
        description="Count the final position of a game record (SGF, GIB or NGF) with miai's estimate "
        "of the dead and seki stones: the breakdown and the map.",
    )
    p.add_argument("file", metavar="FILE.sgf", help="the game record")
    p.add_argument(
        "--rules",
        help="count under these rules instead of the record's: a preset with optional key=value changes; "
        "the record's komi is kept unless komi= is given",
    )
    p.add_argument("--json", action="store_true", help="print the count, the statuses and the map as JSON")
    p.add_argument("--playouts", type=int, default=None, help="playouts of the status estimate (default by board size)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:

    terminal = terminal or Terminal()
    say = terminal.say
    try:
        record = read_file(args.file)
        rules = None
        if args.rules:
            rules = Rules.parse(args.rules)
            if record.komi is not None and not any(w.lower().startswith("komi=") for w in args.rules.split()):
                rules = rules.replace(komi=record.komi)
        game = game_from_record(record, rules, strict=False)
    except OSError as exc:
        print(f"miai score: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except MiaiError as exc:
        print(f"miai score: {args.file}: {exc}", file=sys.stderr)
        return 1

    from miai.ai.status import estimate_status

    estimate = None
    if game.rules.remove_dead_stones:
        try:
            estimate = estimate_status(game, playouts=getattr(args, "playouts", None), seed=1)
        except ValueError as exc:
            print(f"miai score: {exc}", file=sys.stderr)
            return 1
        score = estimate.score
    else:
        score = game.score()

    def vertices(points: Iterable[Point]) -> list[str]:
        return coords.vertices(points).split()

    if getattr(args, "json", False):
        territory = estimate.territory if estimate else {}
        data = {
            "file": str(args.file),
            "size": game.size,
            "moves": game.move_number,
            "rules": str(game.rules),
            "handicap": game.handicap,
            "result": str(score.result),
            "margin": score.margin,
            "recorded_result": str(record.result) if record.result is not None else None,
            "score": {
                colour: {
                    "stones": part.stones,
                    "territory": part.territory,
                    "prisoners": part.prisoners,
                    "dead": part.dead,
                    "compensation": part.compensation,
                    "komi": part.komi,
                    "handicap_bonus": part.handicap_bonus,
                    "total": part.total,
                }
                for colour, part in (("black", score.black), ("white", score.white))
            },
            "neutral": score.neutral,
            "dead": vertices(score.dead_stones),
            "seki": vertices(estimate.seki) if estimate else [],
            "chains": [
                {
                    "color": str(ch.color),
                    "status": ch.status,
                    "confidence": round(ch.confidence, 3),
                    "proven": ch.proven,
                    "stones": vertices(ch.stones),
                }
                for ch in sorted(estimate.chains, key=lambda ch: min(ch.stones))
            ]
            if estimate
            else [],
            "territory": {
                str(c): vertices(p for p, owner in territory.items() if owner is c) for c in (Color.BLACK, Color.WHITE)
            },
            "repairs": list(record.repairs),
        }
        print(json.dumps(data, indent=2))
        return 0

    handicap = f", handicap {game.handicap}" if game.handicap else ""
    say(f"{args.file}")
    say(f"{game.size}x{game.size}, {game.move_number} moves; Black: {record.black or '?'}, White: {record.white or '?'}")
    say(f"Rules: {describe_rules(game.rules)}{handicap}")
    if record.repairs:
        say(f"Read with {len(record.repairs)} repair(s):")
        for line in record.repairs[:MAX_REPAIRS_SHOWN]:
            say(f"  - {line}")
        if len(record.repairs) > MAX_REPAIRS_SHOWN:
            say(f"  ... and {len(record.repairs) - MAX_REPAIRS_SHOWN} more")
    if estimate is None:
        terminal.show(rich_diagram(game.board, last_move=game.last_move))
        say("Stones count as they stand under these rules: no stone is removed as dead.")
    else:
        marks = {p: "b" if owner is Color.BLACK else "w" for p, owner in estimate.territory.items() if owner and game.board[p] is None}
        terminal.show(rich_diagram(game.board, last_move=game.last_move, dead=estimate.dead, marks=marks))
        say("Map: x o dead stones (miai's estimate), b w territory.")
        for colour in (Color.BLACK, Color.WHITE):
            dead = [ch for ch in estimate.chains_of("dead") if ch.color is colour]
            if dead:
                shown = "; ".join(f"{' '.join(vertices(ch.stones))} ({ch.confidence:.0%})" for ch in dead)
                say(f"Dead {colour}: {shown}")
        seki = estimate.chains_of("seki")
        if seki:
            say("Seki: " + "; ".join(" ".join(vertices(ch.stones)) for ch in seki))
        if not estimate.dead and not seki:
            say("No dead stones and no seki.")
    say(str(score))
    say(f"Count: {score.result}. {score.result.describe()}")
    recorded = record.result
    if recorded is not None:
        say(f"Recorded result: {recorded}. {recorded.describe()}")
    return 0
