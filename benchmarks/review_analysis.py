"""How fast a review's win-rate graph fills (docs/SERVER.md §3.6): a real ``miai serve`` on a fresh
SQLite file, a record uploaded (``POST /api/reviews``), its analysis started
(``POST /api/reviews/{id}/analysis``) and read every 0.1 s as the page polls it, until done.

Measured per record: the time to the first position analysed (the graph's first point), to half
of them, to all of them, and to the end (the suspected mistakes' positions searched again), and while the analysis runs, how long a single position's analysis
(``POST /api/analysis`` from another address: what another reader's "Analyse" click waits)
takes, to see that a running game analysis leaves the pool to others between its jobs.

    PYTHONPATH=src python3 benchmarks/review_analysis.py [RECORD.sgf ...]

Without arguments: a 36-move 9×9 game and a 204-move 19×19 game from tests/data/sgf. Also printed:
the CPU seconds one position of the graph costs (the jobs run here, in this process), which
does not depend on how busy the machine is as the times above do.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from miai.testing.serve import ServeProcess

SAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "sgf"
DEFAULT = ["kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf", "igs-pandanet-CoPyright-multiline.sgf"]


def other_reader(base: str, review: dict, stop: threading.Event, waits: list[float]) -> None:
    """Another address's single analyses, one after another, while the game's runs."""
    body = {"size": review["size"], "rules": review["rules"], "handicap": review["handicap"],
            "start": review["start"], "moves": [], "seconds": 0.2}
    with httpx.Client(base_url=base, timeout=60, headers={"X-Forwarded-For": "198.51.100.7"}) as client:
        while not stop.is_set():
            t = time.monotonic()
            if client.post("/api/analysis", json=body).status_code == 200:
                waits.append(time.monotonic() - t)
            time.sleep(0.5)


def measure(base: str, path: Path) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        review = client.post("/api/reviews", content=path.read_bytes(), headers={"content-type": "application/x-go-sgf"}).json()
        url = review["links"]["analysis"]
        total = len(review["moves"]) + 1
        stop, waits = threading.Event(), []
        helper = threading.Thread(target=other_reader, args=(base, review, stop, waits))
        start = time.monotonic()
        state = client.post(url).json()
        helper.start()
        first = half = full = None
        while not state["done"]:
            time.sleep(0.1)
            state = client.get(url).json()
            known = sum(p is not None for p in state["positions"])
            now = time.monotonic() - start
            first = first if first is not None or known == 0 else now
            half = half if half is not None or known < total / 2 else now
            full = full if full is not None or known < total else now
            if not state["running"] and not state["done"]:
                raise SystemExit(f"the analysis stopped: {state['error']}")
        done = time.monotonic() - start
        deep = sum(1 for p in state["positions"] if p and p.get("deep"))
        stop.set()
        helper.join()
    waits.sort()
    print(f"{path.name}: {review['size']}x{review['size']}, {total - 1} moves: first point {first:.2f} s, "
          f"half {half:.1f} s, full graph {full:.1f} s ({full / total:.2f} s a position); "
          f"mistakes checked ({deep} positions searched deeper) and done at {done:.1f} s; "
          f"{len(state['mistakes'])} mistakes; another reader's 0.2 s analysis meanwhile: "
          f"median {waits[len(waits) // 2]:.2f} s, max {waits[-1]:.2f} s ({len(waits)} requests)")


def cpu_per_position(path: Path) -> float:
    """The CPU seconds of :func:`analyse_line` per position over the whole record, in this process."""
    from miai.server.compute.analysis import review_position
    from miai.server.compute.gameanalysis import analyse_line, graph_playouts
    from miai.server.records.review import upload_facts

    review, _ = upload_facts(path.read_bytes(), 10_000)
    position = review_position(review)
    analyse_line(position, 0, 0, 10)  # the kernel loaded
    start = time.process_time()
    found = analyse_line(position, 0, len(position.moves), graph_playouts(position.size))
    return (time.process_time() - start) / len(found)


def main(names: list[str]) -> None:
    paths = [Path(n) for n in names] or [SAMPLES / n for n in DEFAULT]
    with tempfile.TemporaryDirectory() as folder:
        server = ServeProcess(f"sqlite:///{folder}/bench.db", extra=["--no-rate-limits"],
                              env={"MIAI_SECRET": "benchmark-secret-0123456789abcdef"})
        base = server.start()
        try:
            for path in paths:
                measure(base, path)
                print(f"  {path.name}: {cpu_per_position(path):.3f} CPU s a position")
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
