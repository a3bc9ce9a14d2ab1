"""kill -9 and ratings: rated games end (by resignation) while the server is killed and restarted
again and again. Every game whose end was acknowledged is rated once, and the stored ratings are
exactly the finished rated games replayed in order (a rating is committed with its game's end
or not at all)."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest

from tests.server.ratings_replay import check_sqlite
from tests.server.test_kill9 import ServerProcess, killer

RUN_SECONDS = 12
MIN_KILLS = 3
PASSWORD = "a long password"


class Person:
    """A signed-in player with their own cookies, retrying a request whose answer was lost."""

    def __init__(self, server: ServerProcess, name: str):
        self.server, self.name = server, name
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=10)
        self.request("POST", "/api/users", json={"username": name, "password": PASSWORD})

    def request(self, method: str, path: str, **kw) -> dict:
        while True:
            try:
                answer = self.http.request(method, path, **kw)
            except httpx.TransportError:
                self.server.ensure_running()
                continue
            if answer.status_code == 503:
                time.sleep(0.05)
                continue
            assert answer.status_code in (200, 201), answer.text
            return answer.json()


def rated_game(black: Person, white: Person, rng: random.Random, n: int) -> str:
    """A rated game between the two: a few moves, then one resigns; its id once the end is acknowledged."""
    created = black.request("POST", "/api/games", json={"size": 9, "rated": True})
    game, tokens = created["id"], {"black": created["black_token"], "white": created["white_token"]}
    people = {"black": black, "white": white}
    moves = ["E5", "C3", "G7", "C7", "G3", "E3"][: rng.randint(2, 6)]
    for v, move in enumerate(moves):
        seat = "black" if v % 2 == 0 else "white"
        body = {"move": move, "v": v, "a": f"{game}-{v}"}
        people[seat].request("POST", f"/api/games/{game}/play", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
    loser = rng.choice(["black", "white"])
    body = {"a": f"{game}-resign-{n}"}
    people[loser].request("POST", f"/api/games/{game}/resign", json=body, headers={"Authorization": f"Bearer {tokens[loser]}"})
    return game


@pytest.mark.timeout(120)
def test_kill_9_leaves_the_ratings_those_of_the_finished_rated_games(tmp_path):
    db = str(tmp_path / "miai.db")
    server = ServerProcess(db, "--no-rate-limits")
    server.start()
    rng = random.Random(20261128)
    people = [Person(server, name) for name in ("ann", "ben", "cid", "dot")]
    stop = threading.Event()

    thread = threading.Thread(target=killer, args=(server, stop, random.Random(11), 0.3, 1.2), daemon=True)
    thread.start()
    ended: list[str] = []
    deadline = time.monotonic() + RUN_SECONDS
    try:
        while time.monotonic() < deadline or (server.kills < MIN_KILLS and time.monotonic() < deadline + 20):
            black, white = rng.sample(people, 2)
            ended.append(rated_game(black, white, rng, len(ended)))
    finally:
        stop.set()
        thread.join()
    server.ensure_running()  # a kill is reaped before it counts: a server killed last is started again
    for person in people:
        person.http.close()
    assert server.stop() == 0
    assert server.kills >= MIN_KILLS
    print(f"{server.kills} kills, {len(ended)} rated games")
    assert check_sqlite(db) == len(ended)  # each acknowledged end rated once, the ratings its replay
