"""Calibrate miai's levels 1–10 against fixed anchors (GNU Go's levels, Pachi at a number of
playouts), so that README can tell a player where to start.

    python benchmarks/levels.py --out runs/levels --games 16 --jobs 2 --pachi12 PATH
    python benchmarks/levels.py --out runs/levels --report      # the table of what is played

Each cell of the table is one ``miai match`` run (9×9, Chinese rules, komi 7.5, colours
alternating) in ``OUT/L<level>-<anchor>``; a run that is already there is resumed, so the
script can be stopped and started again. Levels 1 to 9 are a number of playouts a move
(``miai.ai.config.LEVEL_PLAYOUTS``) and the anchors play at a fixed level or number of
playouts, so the results do not depend on the machine's speed or load, and cells can be
played side by side. Level 10 is limited by time (``--level10-seconds`` a move, default 2):
play its cells alone on an idle machine.

Not every level meets every anchor: the default schedule pairs each level with the anchors
near its strength (``SCHEDULE``); ``--cells 3:gnugo1 9:pachi5k`` plays other cells.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from miai.match import MatchError, load_run, summarize

GNUGO = "/usr/games/gnugo --mode gtp --quiet --chinese-rules --level {level}"
ANCHORS = {
    "gnugo1": GNUGO.format(level=1),
    "gnugo5": GNUGO.format(level=5),
    "gnugo10": GNUGO.format(level=10),
    "pachi1k": "{pachi} -r chinese -t =1000 threads=1,pondering=0",
    "pachi5k": "{pachi} -r chinese -t =5000 threads=1,pondering=0",
    "pachi12-1k": "{pachi12} -r chinese -t =1000 threads=1,pondering=0,resign_threshold=0",
    "pachi12-5k": "{pachi12} -r chinese -t =5000 threads=1,pondering=0,resign_threshold=0",
}
"""Anchor name -> its GTP command. ``{pachi}`` is Pachi 11.99 without its pattern files
(benchmarks/build_pachi.sh), the anchor of the tables before 2026-11-29; ``{pachi12}`` is
Pachi 12.90 with its patterns (BENCHMARKS.md, "Strength against Pachi 12.90"). Pachi 12.90
never resigns here: far ahead of a weak level, its dynamic komi raises its own komi until
its win rate falls under the resignation threshold, and it resigns games it is winning."""

SCHEDULE = [
    *((level, "gnugo1") for level in range(1, 6)),
    *((level, "gnugo10") for level in range(4, 10)),
    *((level, "pachi12-1k") for level in range(6, 10)),
    *((level, "pachi12-5k") for level in range(8, 10)),
]
"""(level, anchor) cells played by default: the weak levels against GNU Go's weakest, the
middle and strong ones against its strongest, the strongest against Pachi 12.90 at 1,000 and
5,000 playouts a move. Level 10 is left out (its strength depends on the machine and its
load; ``--cells 10:gnugo10`` on an idle machine)."""

PACHI_HOMES = {
    "pachi": Path.home() / ".cache/miai-anchors/pachi/pachi",
    "pachi12": Path.home() / ".cache/miai-anchors/pachi-12.90/pachi12",
}
"""Where the two Pachi builds are looked for when no path is given."""


def miai_command(level: int, seconds: float) -> str:
    """The GTP command of miai at ``level`` (level 10: ``seconds`` a move)."""
    budget = f" --seconds {seconds:g}" if level == 10 else ""
    return f"{sys.executable} -m miai gtp --size 9 --level {level}{budget}"


def find_pachi(given: str | None, name: str) -> str | None:
    """The binary of Pachi build ``name``: the path given, else one on PATH, else its usual home."""
    if given:
        return given
    found = shutil.which(name)
    if found is None and PACHI_HOMES[name].exists():
        found = str(PACHI_HOMES[name])
    return found


def cell_dir(out: Path, level: int, anchor: str) -> Path:
    return out / f"L{level}-{anchor}"


def play_cell(
    out: Path, level: int, anchor: str, games: int, pachis: dict[str, str | None], seconds: float
) -> str:
    """Play (or finish) one cell's match; returns a line for the log."""
    command = ANCHORS[anchor]
    for name, path in pachis.items():
        if "{" + name + "}" in command:
            if not path:
                return f"L{level}-{anchor}: skipped (no {name}: pass --{name} PATH)"
            command = command.replace("{" + name + "}", path)
    target = cell_dir(out, level, anchor)
    args = [
        sys.executable, "-m", "miai", "match", "-n", str(games), "--size", "9", "--rules", "chinese",
        "--name-a", f"miai-L{level}", "--name-b", anchor, "-o", str(target), "--no-progress",
        "--move-timeout", "120",
    ]
    if (target / "match.json").exists():
        args.append("--resume")
    done = subprocess.run([*args, miai_command(level, seconds), command], capture_output=True, text=True)
    if done.returncode != 0:
        return f"L{level}-{anchor}: miai match failed ({done.returncode}): {done.stderr.strip()[-300:]}"
    return f"L{level}-{anchor}: done"


def cell_text(out: Path, level: int, anchor: str) -> str:
    """``wins/games (low–high%)`` from the cell's run, or blank when it was not played."""
    try:
        run = load_run(cell_dir(out, level, anchor))
    except MatchError:
        return ""
    s = summarize(run.results, run.labels)
    if not s.decided:
        return ""
    lo, hi = s.interval
    return f"{s.points:g}/{s.decided} ({100 * lo:.0f}–{100 * hi:.0f}%)"


def report(out: Path) -> str:
    """The markdown table of every cell played under ``out``: a row per level, a column per
    anchor, miai's wins over the decided games and the 95% Wilson interval."""
    anchors = [a for a in ANCHORS if any(cell_dir(out, lv, a).exists() for lv in range(1, 11))]
    if not anchors:
        return f"no cell played under {out}"
    lines = ["| level | " + " | ".join(anchors) + " |", "|---" * (len(anchors) + 1) + "|"]
    for level in range(1, 11):
        cells = [cell_text(out, level, a) for a in anchors]
        if any(cells):
            lines.append(f"| {level} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_cell(text: str, ap: argparse.ArgumentParser) -> tuple[int, str]:
    """``LEVEL:ANCHOR`` as (level, anchor); a usage error that says what is wrong otherwise."""
    level, sep, anchor = text.partition(":")
    if not sep or not level.isdigit() or not 1 <= int(level) <= 10:
        ap.error(f"{text!r} is not LEVEL:ANCHOR with a level from 1 to 10 (e.g. 3:gnugo1)")
    if anchor not in ANCHORS:
        ap.error(f"{text!r}: no anchor {anchor!r} (anchors: {', '.join(ANCHORS)})")
    return int(level), anchor


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="directory of the runs (one per cell)")
    ap.add_argument("--games", type=int, default=8, help="games per cell (default: 8)")
    ap.add_argument("--jobs", type=int, default=2, help="cells played at once (default: 2)")
    ap.add_argument("--pachi", help="Pachi 11.99 (default: the one build_pachi.sh made, if any)")
    ap.add_argument("--pachi12", help="Pachi 12.90 with its patterns (default: its usual path, if any)")
    ap.add_argument("--level10-seconds", type=float, default=2.0, help="level 10's seconds a move")
    ap.add_argument("--cells", nargs="+", metavar="LEVEL:ANCHOR", help="cells to play instead of SCHEDULE")
    ap.add_argument("--report", action="store_true", help="only print the table of what is played")
    args = ap.parse_args()
    if not args.report:
        pachis = {name: find_pachi(getattr(args, name), name) for name in PACHI_HOMES}
        cells = SCHEDULE
        if args.cells:
            cells = [parse_cell(text, ap) for text in args.cells]
        args.out.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            jobs = [
                pool.submit(play_cell, args.out, lv, a, args.games, pachis, args.level10_seconds) for lv, a in cells
            ]
            for job in jobs:
                print(job.result(), flush=True)
    print(report(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
