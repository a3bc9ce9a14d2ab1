"""Soak: upload bombs against the computer's clock (issue #39, item 3; docs/SERVER.md §1.8).

Eight clients, each from its own loopback address, upload a 1 MB SGF bomb
(``;AB[aa:ss];AE[aa:ss]`` repeated) in a loop, while a person plays a 9x9 ``absolute:20`` game
against the computer at level 5 on the same ``miai serve``. Before the workers were split, the
computer's reply went from 0.12 s to 34.6 s and it lost on time. Now every reply comes within
2 s, the computer never loses on time, and the workers' memory stays bounded.

    python -m pytest tests/soak/test_upload_bombs.py -m soak -s -p no:cacheprovider -n 0

Not in the default suite (marker ``soak``); it takes about a minute and prints its figures.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from miai.testing.serve import ServeProcess

pytestmark = pytest.mark.soak

BOMB = ("(;SZ[19]" + ";AB[aa:ss];AE[aa:ss]" * 50_000)[: 1024 * 1024 - 1] + ")"
BOMBERS = 8
MOVES = int(os.environ.get("MIAI_SOAK_MOVES", "12"))
REPLY_S = 2.0


def group_rss_mb(leader: int) -> dict[int, float]:
    """The resident memory of every process of ``leader``'s process group but the leader: its workers."""
    sizes = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == leader:
            continue
        try:
            if os.getpgid(int(entry.name)) != leader:
                continue
            pages = int((entry / "statm").read_text().split()[1])
        except (OSError, ValueError):
            continue
        sizes[int(entry.name)] = pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    return sizes


def bomber(base: str, address: str, stop: threading.Event, answers: list[int]) -> None:
    with httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=address), timeout=60) as client:
        while not stop.is_set():
            try:
                answer = client.post("/api/reviews", content=BOMB, headers={"content-type": "application/x-go-sgf"})
                answers.append(answer.status_code)
            except httpx.HTTPError:
                answers.append(0)


def play(base: str) -> tuple[list[float], list[dict]]:
    """A person plays ``MOVES`` moves against computer:5; the computer's reply times, and the events."""
    rng = random.Random(7)
    replies: list[float] = []
    with httpx.Client(base_url=base, timeout=30) as client:
        game = client.post("/api/games", json={"size": 9, "time": "absolute:20", "white": "computer:5"}).json()
        url, auth = f"/api/games/{game['id']}", {"Authorization": f"Bearer {game['black_token']}"}
        socket = connect(f"ws{base[4:]}/ws/game/{game['id']}?v=0", open_timeout=30)
        for _ in range(MOVES):
            state = client.get(url).json()
            if state["phase"] != "play":
                break
            taken = set(state["stones"]["black"]) | set(state["stones"]["white"])
            free = [f"{c}{r}" for c in "ABCDEFGHJ" for r in range(1, 10) if f"{c}{r}" not in taken]
            rng.shuffle(free)
            for move in free[:20] + ["pass"]:
                answer = client.post(f"{url}/play", json={"move": move, "v": state["v"]}, headers=auth)
                if answer.status_code == 200:
                    break
            v, sent = answer.json()["v"], time.monotonic()
            while True:  # the computer's reply (or the flag) is the event after the move
                frame = json.loads(socket.recv(timeout=120))
                if frame["t"] == "event" and frame["d"]["v"] > v:
                    break
            replies.append(time.monotonic() - sent)
        socket.close()
        return replies, client.get(f"{url}/events").json()["events"]


def test_upload_bombs_never_make_the_computer_late(tmp_path):
    server = ServeProcess(f"sqlite:///{tmp_path / 'soak.db'}", log_path=tmp_path / "serve.log")
    base = server.start()
    stop, answers = threading.Event(), list[int]()
    try:
        baseline = group_rss_mb(server.pid)
        quiet, _ = play(base)
        bombers = [
            threading.Thread(target=bomber, args=(base, f"127.0.0.{2 + n}", stop, answers), daemon=True)
            for n in range(BOMBERS)
        ]
        for thread in bombers:
            thread.start()
        time.sleep(3)
        replies, events = play(base)
        peak = group_rss_mb(server.pid)
    finally:
        stop.set()
        for thread in bombers if "bombers" in locals() else []:
            thread.join(timeout=60)  # the uploads under way are answered before the server stops
        server.stop()
    flags = [e for e in events if e["kind"] == "flag"]
    figures = {
        "quiet_reply_s": round(max(quiet), 2),
        "reply_s_under_bombs": {"median": round(sorted(replies)[len(replies) // 2], 2), "max": round(max(replies), 2)},
        "moves": len(replies),
        "uploads": {str(code): answers.count(code) for code in sorted(set(answers))},
        "worker_mb_before": sorted(round(v) for v in baseline.values()),
        "worker_mb_after": sorted(round(v) for v in peak.values()),
        "lost_on_time": bool(flags),
    }
    print(json.dumps(figures))
    assert not flags, flags
    assert max(replies) < REPLY_S, replies
