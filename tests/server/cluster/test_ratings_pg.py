"""Ratings on PostgreSQL with two processes: games of one player ending at the same moment on
two processes take turns (their players' rows locked), and the stored ratings are the rated
games replayed in the order of the history."""

from __future__ import annotations

import threading

import httpx
import pytest

from tests.server.cluster.test_automatch import on, person
from tests.server.cluster.test_processes import Serve, balanced, cluster  # noqa: F401 (the fixture)
from tests.server.ratings_replay import check_postgres


def rated(server: Serve, black: httpx.Client, white: httpx.Client) -> tuple[str, dict[str, str]]:
    created = black.post("/api/games", json={"size": 9, "rated": True})
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = {"black": body["black_token"], "white": body["white_token"]}
    for client, seat, move, v in ((black, "black", "E5", 0), (white, "white", "C3", 1)):
        answer = client.post(f"/api/games/{body['id']}/play", json={"move": move, "v": v}, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert answer.status_code == 200, answer.text
    return body["id"], tokens


@pytest.mark.timeout(120)
def test_rated_games_of_one_player_ending_together_on_two_processes(cluster, pg_url):
    first, second = cluster(), cluster()
    balanced(pg_url, [first, second])  # the second's shards handed over: no request meets a handover's 503
    ann, ben = person(first, "ann"), person(first, "ben")
    cid = person(second, "cid")
    ann_there = on(second, ann)
    rounds = 6
    for _ in range(rounds):
        one, one_tokens = rated(first, ann, ben)
        two, two_tokens = rated(second, ann_there, cid)
        start = threading.Barrier(2)
        answers: list[tuple[int, str]] = []

        def resign(client: httpx.Client, game: str, token: str) -> None:
            start.wait()
            answer = client.post(f"/api/games/{game}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
            answers.append((answer.status_code, answer.text))

        # ann loses one and wins the other, at the same moment, through two processes
        threads = [
            threading.Thread(target=resign, args=(ann, one, one_tokens["black"])),
            threading.Thread(target=resign, args=(cid, two, two_tokens["white"])),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert [status for status, _ in answers] == [200, 200], answers
    assert check_postgres(pg_url) == 2 * rounds
    assert first.http.get("/api/players/ann").json()["games"] == 2 * rounds
    for client in (ann, ben, cid, ann_there):
        client.close()
