"""``miai match``: play games between two GTP engines and report the results.

    miai match "miai gtp" "/usr/games/gnugo --mode gtp --quiet --level 10" \\
        --games 10 --size 9 --rules chinese --out runs/miai-vs-gnugo

Each engine is one command line (quoted). Engine A takes Black in the odd-numbered games
(in every game with ``--no-alternate``), engine B in the others. The referee
(:mod:`miai.match`) judges every move with miai's rules, writes one SGF per game and
``results.jsonl`` into the output directory as each game ends, and ``--resume`` continues
an interrupted run there; Ctrl-C or SIGTERM stops the engines and keeps every finished
game. GNU Go's rules are its own command-line flags (``--chinese-rules``): pass them in its
command line.

``--openings PATH`` starts the games from the moves of SGF records instead of the empty
board (a directory: its ``.sgf`` files by name; repeat it for more; ``--opening-moves N``:
their first N moves), each opening twice, the colours swapped (:mod:`miai.match.openings`)::

    miai match "miai gtp" "miai gtp --set p_race_reply=0" --size 19 --openings races/ -n 40

``--no-alternate`` gives engine A Black in every game, and plays each opening once (as
``gogui-twogtp`` does without ``-alternate``): to ask how an engine plays one side of given
positions, as the side that leads in each, run the positions where Black leads with it as A
and those where White leads with it as B.
"""

from __future__ import annotations

import argparse
import signal
import sys

from rich.console import Console

from miai.clock import TimeControl
from miai.errors import MiaiError
from miai.match import (
    DeadStones,
    EngineSpec,
    GameResult,
    Match,
    MatchConfig,
    MatchError,
    format_summary,
    load_openings,
    load_results,
    opening_files,
    summarize,
)
from miai.rules import Rules


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``miai match`` on the ``miai`` command's subparsers."""
    p = subparsers.add_parser(
        "match",
        help="play games between two GTP engines (a referee) and print a results table",
        description="Play N games between two GTP engines, alternating colours, judged by miai's rules.",
    )
    p.add_argument("engine_a", metavar="ENGINE_A", help='engine A\'s command line, quoted (e.g. "miai gtp")')
    p.add_argument("engine_b", metavar="ENGINE_B", help="engine B's command line, quoted")
    p.add_argument("--name-a", metavar="LABEL", help="engine A's label in the results (default: from its command)")
    p.add_argument("--name-b", metavar="LABEL", help="engine B's label in the results")
    p.add_argument("-n", "--games", type=int, default=2, metavar="N", help="number of games (default: 2)")
    p.add_argument("--size", type=int, default=9, metavar="N", help="board size, 2 to 25 (default: 9)")
    p.add_argument(
        "--rules",
        default="chinese",
        metavar="RULES",
        help="ruleset: a preset or rules text such as 'japanese komi=0.5' (default: chinese)",
    )
    p.add_argument("--komi", type=float, default=None, metavar="K", help="komi (default: the ruleset's)")
    p.add_argument("--handicap", type=int, default=0, metavar="N", help="fixed handicap stones (default: none)")
    p.add_argument(
        "--time",
        default="none",
        metavar="TC",
        help="time control: none, SECONDS (absolute), byoyomi:MAIN:PERIOD:PERIODS, canadian:MAIN:PERIOD:STONES, "
        "fischer:MAIN:INCREMENT[:CAP] or simple:SECONDS (seconds; default: none)",
    )
    p.add_argument(
        "--move-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="without a time control, seconds an engine may take for one move before it forfeits (default: 60)",
    )
    p.add_argument("--max-moves", type=int, default=None, metavar="N", help="move cap (default: 3 x points); the game is void")
    p.add_argument(
        "--dead-stones",
        choices=["agreed", "union", "none", "estimator"],
        default="agreed",
        help="after two passes, remove the stones both engines list as dead (agreed, default), either lists "
        "(union), none, or those miai's estimator calls dead (estimator)",
    )
    p.add_argument(
        "--openings",
        action="append",
        default=[],
        metavar="PATH",
        help="start the games from the moves of this SGF record, or of each .sgf file in this directory (by name), "
        "each twice with the colours swapped; repeat for more (default: the empty board)",
    )
    p.add_argument(
        "--no-alternate",
        dest="alternate",
        action="store_false",
        help="engine A plays Black in every game, and each opening is played once (default: the engines take turns "
        "at Black, each opening twice)",
    )
    p.add_argument(
        "--opening-moves", type=int, default=None, metavar="N", help="only the first N moves of each opening (default: all)"
    )
    p.add_argument("-o", "--out", default="match-results", metavar="DIR", help="output directory (default: match-results)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping the games it finished")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.set_defaults(func=run)
    return p


class _Terminated(Exception):
    """Raised in the main thread when the referee receives SIGTERM."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def run(args: argparse.Namespace) -> int:



    def fail(message: str) -> int:
        print(f"miai match: {message}", file=sys.stderr)
        return 2

    try:
        a = EngineSpec.parse(args.engine_a, args.name_a)
        b = EngineSpec.parse(args.engine_b, args.name_b)
        if a.label == b.label:
            a, b = EngineSpec(a.command, a.label + " #1"), EngineSpec(b.command, b.label + " #2")
        config = MatchConfig(
            engines=(a, b),
            games=args.games,
            size=args.size,
            rules=Rules.parse(args.rules),
            komi=args.komi,
            handicap=args.handicap,
            time_control=TimeControl.parse(args.time),
            move_timeout=args.move_timeout,
            max_moves=args.max_moves,
            dead_stones=DeadStones(args.dead_stones),
            openings=load_openings(opening_files(args.openings), args.size, args.opening_moves),
            alternate=args.alternate,
        )
    except MiaiError as exc:
        return fail(str(exc))
    console = Console(stderr=True)
    progress = None
    task = None
    if args.progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[status]}"),
            console=console,
        )

    def started(index: int) -> None:
        if progress is not None and task is not None:
            progress.update(task, description=f"game {index + 1}")

    def ended(r: GameResult) -> None:
        line = f"game {r.index + 1}: {r.black} (B) vs {r.white} (W): {r.result} ({r.reason.value})"
        if progress is not None and task is not None:
            progress.update(task, advance=1, status=line)
        else:
            console.print(line, highlight=False)

    match = Match(config, args.out, resume=args.resume, on_game_start=started, on_game_end=ended)
    # SIGTERM (a batch system, kill) ends the run like Ctrl-C: the engines are stopped and
    # every finished game stays in results.jsonl
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        if progress is not None:
            with progress:
                done = 0
                if args.resume:
                    done = len({r.index for r in load_results(match.results_path) if r.index < config.games})
                task = progress.add_task("match", total=config.games, completed=done, status="")
                results = match.run()
        else:
            results = match.run()
    except MatchError as exc:
        partial = match.results
        if partial:
            print(format_summary(summarize(partial, (a.label, b.label))))
        return fail(str(exc))
    except (KeyboardInterrupt, _Terminated) as exc:
        print(f"\ninterrupted: {len(match.results)} games are in {args.out}; --resume continues", file=sys.stderr)
        return 143 if isinstance(exc, _Terminated) else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(format_summary(summarize(results, (a.label, b.label))))
    print(f"\nresults: {args.out}/results.jsonl and one SGF per game")
    return 0
