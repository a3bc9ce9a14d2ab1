"""``miai score FILE.sgf``: count the final position of a game record.

The record's main line is replayed (:func:`miai.sgf.game_from_record`) and its last
position counted under the record's rules, or under ``--rules``. Stones count as they stand:
miai does not estimate dead stones yet, and the output says so.
"""

from __future__ import annotations

import argparse
import sys

from miai.cli.play import describe_result, describe_rules
from miai.cli.terminal import Terminal
from miai.errors import MiaiError
from miai.render import rich_diagram
from miai.rules import Rules

MAX_REPAIRS_SHOWN = 10


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="count the final position of a game record",
        description="Count the final position of a game record (SGF, GIB or NGF), stones as they stand.",
    )
    p.add_argument("file", metavar="FILE.sgf", help="the game record")
    p.add_argument(
        "--rules",
        help="count under these rules instead of the record's: a preset with optional key=value changes; "
        "the record's komi is kept unless komi= is given",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace, terminal: Terminal | None = None) -> int:
    from miai.sgf import game_from_record, read_file

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
    terminal.show(rich_diagram(game.board, last_move=game.last_move))
    say("Stones count as they stand: miai does not estimate dead stones yet,")
    say("so dead stones still on the board are counted as alive.")
    score = game.score()
    say(str(score))
    say(f"Count: {score.result}. {describe_result(score.result)}")
    if record.result:
        say(f"Recorded result: {record.result}. {describe_result(record.result)}")
    return 0
