"""Entry point of the ``miai`` command; each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand name -> module (imported lazily so that `miai gtp` starts fast)
SUBCOMMANDS = {
    "play": "miai.cli.play",
    "gtp": "miai.cli.gtp",
    "score": "miai.cli.score",
    "bench": "miai.cli.bench",
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered by its module's ``add_parser``."""
    from miai import __version__

    parser = argparse.ArgumentParser(prog="miai", description="miai: the game of Go, exactly.")
    parser.add_argument("--version", action="version", version=f"miai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue  # subcommand not built yet
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``miai`` with ``argv``; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
