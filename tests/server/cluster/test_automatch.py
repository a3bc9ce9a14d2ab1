"""Automatch over several processes on PostgreSQL (docs/SERVER.md §6.2): a request made through
one process pairs with one made through another, the waiting player's long poll hears it at
once, and two requests made at the same moment through two processes make one game."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.server.cluster.test_processes import Serve, act, cluster  # noqa: F401 (the fixture)

PASSWORD = "a long password"


def person(server: Serve, name: str) -> httpx.Client:
    """A signed-in player's browser on ``server`` (its cookie is good on every process)."""
    client = httpx.Client(base_url=server.url, timeout=30)
    answer = client.post("/api/users", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def on(server: Serve, browser: httpx.Client) -> httpx.Client:
    """The same browser (its cookies) talking to another process."""
    return httpx.Client(base_url=server.url, timeout=30, cookies=browser.cookies)


@pytest.mark.timeout(90)
def test_requests_through_two_processes_pair_and_the_waiting_player_hears_at_once(cluster, pg_url):
    first, second = cluster(), cluster()
    alice, bob = person(first, "alice"), person(second, "bob")
    wish = {"size": 9, "time_control": "fischer:3d:1d"}
    assert alice.post("/api/automatch", json=wish).status_code == 202
    heard: dict = {}

    def wait() -> None:
        answer = alice.get("/api/automatch?wait=20")
        heard.update(answer.json(), at=time.monotonic())

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)
    paired = bob.post("/api/automatch", json=wish)
    at = time.monotonic()
    waiter.join(25)
    assert paired.status_code == 200, paired.text
    game = paired.json()["game"]
    assert heard["status"] == "paired" and heard["game"] == game and heard["at"] - at < 2
    tokens = {heard["seat"]: heard["token"], paired.json()["seat"]: paired.json()["token"]}
    assert act(second, game, tokens["black"], {"move": "E5", "v": 0}).json() == {"v": 1}
    assert act(first, game, tokens["white"], {"move": "C3", "v": 1}).json() == {"v": 2}
    for client in (alice, bob):
        client.close()


@pytest.mark.timeout(90)
def test_requests_at_the_same_moment_on_two_processes_make_one_game(cluster, pg_url):
    first, second = cluster(), cluster()
    for round_ in range(5):
        carol, dave = person(first, f"carol{round_}"), person(second, f"dave{round_}")
        start = threading.Barrier(2)
        answers: dict[str, httpx.Response] = {}

        def ask(name: str, client: httpx.Client) -> None:
            start.wait()
            answers[name] = client.post("/api/automatch", json={"size": 13, "rated": False})

        threads = [threading.Thread(target=ask, args=pair) for pair in (("carol", carol), ("dave", dave))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        codes = sorted(a.status_code for a in answers.values())
        assert codes == [200, 202], {k: a.text for k, a in answers.items()}  # one pairs, one had waited
        waiting = carol if answers["carol"].status_code == 202 else dave
        game = next(a.json()["game"] for a in answers.values() if a.status_code == 200)
        assert on(second, waiting).get("/api/automatch?wait=5").json()["game"] == game
        for client in (carol, dave):
            client.close()
