"""Entry point of the ``miai`` command; each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

from miai import __version__

# subcommand name -> module (imported lazily so that `miai gtp` starts fast)
SUBCOMMANDS = {
    "play": "miai.cli.play",
    "gtp": "miai.cli.gtp",
    "score": "miai.cli.score",
    "bench": "miai.cli.bench",
    "match": "miai.cli.match",
    "match-report": "miai.cli.match_report",
    "serve": "miai.cli.serve",
    "bot": "miai.cli.bot",
    "diagram": "miai.cli.diagram",
    "train": "miai.cli.train",
    "learn": "miai.cli.learn",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with the subcommands registered by their modules' ``add_parser``:
    all of them, or ``only`` that one (so that ``miai gtp`` imports nothing it does not need
    and answers a GUI at once)."""

    parser = argparse.ArgumentParser(prog="miai", description="miai: the game of Go, exactly.")
    parser.add_argument("--version", action="version", version=f"miai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``miai`` with ``argv``; returns the process exit code."""
    args_list = sys.argv[1:] if argv is None else argv
    first = args_list[0] if args_list else None
    parser = build_parser(first if first in SUBCOMMANDS else None)
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
