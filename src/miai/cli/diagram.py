"""``miai diagram FILE.sgf``: a numbered figure of a record's moves, as Go books print games.

The record's main line is replayed (:func:`miai.sgf.load_game`) and moves ``--moves FIRST-LAST``
drawn by :func:`miai.render.move_diagram`: as text on standard output (the default, or
``--text``), or as an SVG file (``--svg out.svg``; ``-`` for standard output). Every user error
(a record that cannot be read, a range outside the game) is one line on standard error and
exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from miai.cli.diagram_texts import figure_text
from miai.cli.language import add_language_option, use_language
from miai.errors import ArgumentError, MiaiError
from miai.render import MoveRange, move_diagram
from miai.sgf import load_game

USAGE_ERROR = 2


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "diagram",
        help="draw a record's moves as a numbered diagram (text or SVG)",
        description="Draw a range of a game record's moves as a numbered diagram, as Go books print "
        "games: each stone numbered with its move, earlier stones plain, moves on an already numbered "
        "point (a retaken ko) and passes listed under the board.",
    )
    p.add_argument("file", metavar="FILE.sgf", help="the game record (SGF, GIB or NGF)")
    p.add_argument(
        "--moves",
        default=None,
        metavar="FIRST-LAST",
        help="the moves to draw, counted from 1 with passes: 1-50, 51- (to the end) or 7 (default: all)",
    )
    p.add_argument(
        "--first-number",
        type=int,
        default=None,
        metavar="N",
        help="the number printed on the first move of the range (default: its real number; books use 1)",
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--svg", metavar="OUT.svg", help="write an SVG file (- for standard output)")
    out.add_argument("--text", action="store_true", help="print the diagram as text (the default)")
    p.add_argument("--no-coordinates", action="store_true", help="leave out the coordinates around the board")
    add_language_option(p, "the language of the text figure's legend and notes (default: the environment's)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"miai diagram: {message}", file=sys.stderr)
        return USAGE_ERROR

    try:
        game, _record = load_game(Path(args.file), strict=False)
    except OSError as exc:
        return fail(f"cannot read {args.file}: {exc.strerror or exc}")
    except MiaiError as exc:
        message = str(exc)
        return fail(message if message.startswith(str(args.file)) else f"{args.file}: {message}")
    try:
        total = len(game.moves)
        if args.moves is None:
            moves = MoveRange.within(1, total, total)
        else:
            moves = MoveRange.parse(args.moves, total)
        if args.first_number is not None and args.first_number < 1:
            raise ArgumentError(f"--first-number must be at least 1, not {args.first_number}")
        figure = move_diagram(
            game, moves.first, moves.last, first_number=args.first_number, coordinates=not args.no_coordinates
        )
    except MiaiError as exc:
        return fail(str(exc))
    if args.svg is None:
        use_language(args)
        print(figure_text(figure))
        return 0
    document = figure.svg()
    if args.svg == "-":
        sys.stdout.write(document)
        return 0
    try:
        Path(args.svg).write_text(document, encoding="utf-8")
    except OSError as exc:
        return fail(f"cannot write {args.svg}: {exc.strerror or exc}")
    print(f"moves {moves.first}-{moves.last} drawn in {args.svg}", file=sys.stderr)
    return 0
