"""How far miai's own reading agrees with GNU Go's trees (docs/PROBLEMS.md): every legal first
move in view of every problem, judged by ``miai.testing.local_reader``.

    PYTHONPATH=src python3 tools/problems/agreement.py [ID ...]
"""

from __future__ import annotations

import sys
import time

from miai.coords import point_to_gtp
from miai.problems import load_problems
from miai.testing.local_reader import LocalReader


def main(ids: list[str]) -> None:
    total = agree = unknown = 0
    for problem in load_problems():
        if ids and problem.id not in ids:
            continue
        start = time.monotonic()
        verdicts = LocalReader(problem).first_moves()
        rights = set(problem.right_first_moves)
        unsure = {p for p, v in verdicts.items() if v is None}
        differ = {p for p, v in verdicts.items() if v is not None and v != (p in rights)}
        total += len(verdicts)
        unknown += len(unsure)
        agree += len(verdicts) - len(unsure) - len(differ)
        names = " ".join(sorted(point_to_gtp(p) for p in differ)) or "-"
        print(f"{problem.id:40} {time.monotonic() - start:5.1f} s  unknown {len(unsure):2}  differ {names}", flush=True)
    print(f"{total} points: {agree} agree, {unknown} unknown, {total - agree - unknown} differ")


if __name__ == "__main__":
    main(sys.argv[1:])
