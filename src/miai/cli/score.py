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
from miai.cli import score_texts, texts
from miai.cli.language import add_language_option, help_texts, use_language
from miai.coords import Color, Point
from miai.errors import MiaiError
from miai.render import rich_diagram
from miai.rules import Rules
from miai.sgf import game_from_record, read_file

MAX_REPAIRS_SHOWN = 10


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    options = help_texts(score_texts.score_options)
    p = subparsers.add_parser("score", help=options["score"], description=options["description"])
    p.add_argument("file", metavar="FILE.sgf", help=options["file"])
    p.add_argument("--rules", help=options["rules"])
    p.add_argument("--json", action="store_true", help=options["json"])
    p.add_argument("--playouts", type=int, default=None, help=options["playouts"])
    add_language_option(p, options["lang"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:
    """Count the record; the texts (not the JSON, which is for programs) in ``--lang``."""
    use_language(args)
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
        print(score_texts.score_cannot_read(str(args.file), exc), file=sys.stderr)
        return 1
    except MiaiError as exc:
        print(score_texts.score_bad_record(str(args.file), exc), file=sys.stderr)
        return 1

    from miai.ai.status import estimate_status

    estimate = None
    if game.rules.remove_dead_stones:
        try:
            estimate = estimate_status(game, playouts=getattr(args, "playouts", None), seed=1)
        except ValueError as exc:
            print(score_texts.score_error(exc), file=sys.stderr)
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

    say(f"{args.file}")
    say(score_texts.record_heading(game.size, game.move_number, record.black, record.white))
    say(score_texts.record_rules(game.rules, game.handicap))
    if record.repairs:
        say(score_texts.record_repairs(len(record.repairs)))
        for line in record.repairs[:MAX_REPAIRS_SHOWN]:
            say(f"  - {line}")
        if len(record.repairs) > MAX_REPAIRS_SHOWN:
            say(score_texts.more_repairs(len(record.repairs) - MAX_REPAIRS_SHOWN))
    if estimate is None:
        terminal.show(rich_diagram(game.board, last_move=game.last_move))
        say(score_texts.stones_as_they_stand())
    else:
        marks = {p: "b" if owner is Color.BLACK else "w" for p, owner in estimate.territory.items() if owner and game.board[p] is None}
        terminal.show(rich_diagram(game.board, last_move=game.last_move, dead=estimate.dead, marks=marks))
        say(score_texts.map_legend())
        for colour in (Color.BLACK, Color.WHITE):
            dead = [ch for ch in estimate.chains_of("dead") if ch.color is colour]
            if dead:
                shown = "; ".join(f"{' '.join(vertices(ch.stones))} ({ch.confidence:.0%})" for ch in dead)
                say(score_texts.dead_chains(colour, shown))
        seki = estimate.chains_of("seki")
        if seki:
            say(score_texts.seki_chains("; ".join(" ".join(vertices(ch.stones)) for ch in seki)))
        if not estimate.dead and not seki:
            say(score_texts.no_dead_no_seki())
    say(texts.score_table(score))
    say(score_texts.count_line(score.result))
    recorded = record.result
    if recorded is not None:
        say(score_texts.recorded_line(recorded))
    return 0
