"""``miai gtp``: serve the Go Text Protocol on stdin/stdout, for GUIs (Sabaki, GoGui,
Lizzie), servers (kgsGtp, gtp2ogs) and match tools (gogui-twogtp, gomill).

This module is imported whenever the ``miai`` command builds its parser, so it imports
nothing but ``argparse`` at the top: the engine and the session load when the command
runs, and the compiled board kernel only when a GTP command needs the board.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from miai.ai.config import MctsConfig
from miai.errors import MiaiError
from miai.gtp.engine import MAX_KOMI, GtpEngine, check_version_text
from miai.gtp.resigning import Resigning
from miai.gtp.session import run as serve
from miai.rules import Rules


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``miai gtp`` on the ``miai`` command's subparsers."""
    p = subparsers.add_parser(
        "gtp",
        help="speak the Go Text Protocol on stdin/stdout (for GUIs, servers and match tools)",
        description="Run miai as a GTP engine (GTP version 2 with GNU Go's and KataGo's common extensions).",
    )
    p.add_argument(
        "--rules",
        default="chinese",
        metavar="RULES",
        help="ruleset: a preset (chinese, japanese, korean, aga, new-zealand, tromp-taylor, simple), "
        "optionally followed by key=value overrides (default: chinese)",
    )
    p.add_argument("--size", type=int, default=19, metavar="N", help="board size, 2 to 25 (default: 19)")
    p.add_argument("--komi", type=float, default=None, metavar="K", help="komi (default: the ruleset's)")
    p.add_argument(
        "--level", type=int, default=10, choices=range(1, 11), metavar="N",
        help="the computer's strength for genmove, 1 (a few playouts) to 10 (the full budget; default)",
    )
    p.add_argument(
        "--seconds", type=float, default=None, metavar="S",
        help="most seconds per genmove when the controller sets no clock (default: 5)",
    )
    p.add_argument(
        "--resign", nargs="?", const="always", default="auto", metavar="WHEN",
        help="when to resign clearly lost games: auto (in timed games, as KGS bots do; the default), "
        "always (--resign alone), never",
    )
    p.add_argument(
        "--threads", type=int, default=None, metavar="N",
        help="threads searching the one tree, one per core (default 1; the same as --set threads=N)",
    )
    p.add_argument(
        "--set", action="append", default=[], metavar="KNOB=VALUE",
        help="set one of the search's knobs (miai.ai.config.MctsConfig), e.g. prior_ladder=0; repeatable",
    )
    p.add_argument(
        "--version-string", default=None, metavar="TEXT",
        help="what the GTP command 'version' answers (default: miai's version). Lizzie reads it as a "
        "Leela Zero version and wants 0.15 or later: give it --version-string 0.17",
    )
    p.add_argument(
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help="do not load the board kernel in the background after the first reply",
    )
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Start the engine with the command line's settings and serve until ``quit``."""


    def refuse(message: str) -> int:
        print(f"miai gtp: {message}", file=sys.stderr)
        return 2

    try:
        rules = Rules.parse(args.rules)
    except MiaiError as exc:
        return refuse(str(exc))
    if not 2 <= args.size <= 25:
        return refuse(f"the board size must be from 2 to 25, not {args.size}")
    if args.komi is not None and not (math.isfinite(args.komi) and abs(args.komi) <= MAX_KOMI):
        return refuse(f"komi must be a number from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {args.komi}")
    if args.seconds is not None and not (math.isfinite(args.seconds) and args.seconds > 0):
        return refuse(f"--seconds must be a number of seconds above 0, not {args.seconds}")
    version = None
    if args.version_string is not None:
        try:
            version = check_version_text(args.version_string)
        except MiaiError as exc:
            return refuse(f"--version-string: {exc}")

    try:
        resigning = Resigning.parse(args.resign)
    except MiaiError as exc:
        return refuse(f"--resign: {exc}")
    changes: dict[str, Any] = {}
    if args.seconds is not None:
        changes["max_seconds"] = args.seconds
    if args.threads is not None:
        changes["threads"] = args.threads
    try:
        changes.update(MctsConfig.parse_settings(args.set))
        config = MctsConfig.for_level(args.level, **changes)
        engine = GtpEngine(
            size=args.size, rules=rules, komi=args.komi, ai_config=config, version=version, resigning=resigning
        )
    except ValueError as exc:  # MiaiErrors are ValueErrors too
        return refuse(f"--set {exc}" if args.set else str(exc))
    return serve(engine, warm_up=args.warm_up)
