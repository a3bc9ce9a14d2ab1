"""``miai match-report``: the results table of one or more ``miai match`` directories.

    miai match-report runs/s19a runs/s19b --name-a miai --name-b gnugo

Reads what ``miai match`` left in each directory (``match.json``, ``results.jsonl``), a
run still in progress included, and prints one line per run and the table of all their
games pooled: a long match is often played as several runs side by side (one per core) or
across sessions. Runs are pooled only if they were played under the same size, rules, komi,
handicap, time control and dead-stone rule; engine A of every run is counted as one engine
(``--name-a`` names it; default: the first run's label), and so is engine B, except in a run
whose two labels are the pooled table's, in either order: that run is counted by name, so
runs played with the engines swapped (each engine Black in one run's first game) pool right.
"""

from __future__ import annotations

import argparse
import sys

from miai.match import MatchError, format_summary, load_run, pool_runs, summarize


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``miai match-report`` on the ``miai`` command's subparsers."""
    p = subparsers.add_parser(
        "match-report",
        help="the results table of one or more miai match directories, pooled",
        description="Print the results of one or more miai match directories, pooled into one table.",
    )
    p.add_argument("dirs", nargs="+", metavar="DIR", help="a directory written by miai match (its --out)")
    p.add_argument("--name-a", metavar="LABEL", help="engine A's label in the pooled table (default: the first run's)")
    p.add_argument("--name-b", metavar="LABEL", help="engine B's label in the pooled table (default: the first run's)")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:


    try:
        runs = [load_run(d) for d in args.dirs]
        first_a, first_b = runs[0].labels
        labels = (args.name_a or first_a, args.name_b or first_b)
        labels, results = pool_runs(runs, labels)
    except MatchError as exc:
        print(f"miai match-report: {exc}", file=sys.stderr)
        return 2
    for r in runs:
        a, b = r.labels
        s = summarize(r.results, (a, b))
        print(
            f"{r.out_dir}: {s.games} of {r.settings.get('games', '?')} games, {a} (A) won {s.wins[a]}, "
            f"{b} (B) won {s.wins[b]}; A: {_command(r.settings['engines'][0])}"
        )
    print()
    print(format_summary(summarize(results, labels)))
    return 0


def _command(engine: dict[str, object]) -> str:
    """An engine's command line as match.json keeps it (a list of words)."""
    command = engine.get("command")
    return " ".join(str(w) for w in command) if isinstance(command, list) else "?"
