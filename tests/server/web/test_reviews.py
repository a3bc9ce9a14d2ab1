"""Reviews through the HTTP API (docs/SERVER.md §3.2, §3.6): the players' names of a game of
this server, an uploaded record kept with a permanent link (its review, record and numbered
diagram), and the analysis of every position of a review, read as it grows, with the game's
mistakes, kept so that a reload does not search again."""

from __future__ import annotations

import time
from typing import Any

import pytest

from miai.sgf import read_record
from tests.samples import SAMPLES
from tests.server.conftest import Table, make_client

SGF = {"content-type": "application/x-go-sgf"}
RECORD = (
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]HA[0]PB[Shin Jinseo]BR[9p]PW[Ke Jie]WR[9p]RE[B+R]"
    ";B[ee];W[cc];B[gc];W[cg];B[ge];W[ec];B[dd];W[dc];B[ed];W[fc];B[gd];W[fb])"
)


@pytest.fixture
def reviews(db, estimate_pool):
    """A server whose reviews' worker pool is the tests' process pool."""
    with make_client(db, executor=estimate_pool) as client:
        yield client


def test_a_games_review_names_its_players_as_its_record_does(client):
    client.get("/api/me")  # a guest session: the game's creator is named after it
    me = client.get("/api/me").json()["name"]
    table = Table(client, size=9, white="computer:3")
    table.send("black", "resign")
    review = client.get(f"{table.url}/review").json()
    assert review["players"] == {"black": me, "white": "miai level 3"}
    assert review["links"]["page"] == f"/r/{table.id}" and review["kind"] == "game"
    sgf = client.get(f"{table.url}/sgf").text
    assert f"PB[{me}]" in sgf and "PW[miai level 3]" in sgf


def test_an_upload_is_kept_and_has_a_permanent_link(reviews):
    answer = reviews.post("/api/reviews", content=RECORD.encode(), headers=SGF)
    assert answer.status_code == 200, answer.text
    review = answer.json()
    review_id = review["id"]
    assert review["kind"] == "upload" and answer.headers["location"] == f"/review/{review_id}"
    assert review["players"] == {"black": "Shin Jinseo", "white": "Ke Jie"}
    assert review["ranks"] == {"black": "9p", "white": "9p"}
    assert review["links"] == {
        "page": f"/review/{review_id}", "sgf": f"/api/reviews/{review_id}/sgf",
        "diagram": f"/api/reviews/{review_id}/diagram.svg", "analysis": f"/api/reviews/{review_id}/analysis",
    }
    again = reviews.get(f"/api/reviews/{review_id}").json()
    assert again == review
    page = reviews.get(f"/review/{review_id}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    record = reviews.get(review["links"]["sgf"])
    assert record.headers["content-type"].startswith("application/x-go-sgf") and "PB[Shin Jinseo]" in record.text
    assert len(read_record(record.text).moves) == 12


def test_a_record_in_another_charset_is_kept_as_utf8(reviews):
    data = "(;CA[ISO-8859-1]SZ[9]PB[Pérez];B[ee];W[cc])".encode("latin-1")
    review = reviews.post("/api/reviews", content=data, headers=SGF).json()
    record = reviews.get(review["links"]["sgf"])
    assert "PB[Pérez]" in record.content.decode("utf-8") and "CA[UTF-8]" in record.text


def test_an_unknown_review_is_a_404(reviews):
    for path in ("/api/reviews/nosuch", "/api/reviews/nosuch/sgf", "/api/reviews/nosuch/diagram.svg",
                 "/api/reviews/nosuch/analysis", "/api/reviews/" + "x" * 40):
        assert reviews.get(path).status_code == 404, path


def test_an_uploaded_review_has_a_numbered_diagram(reviews):
    review = reviews.post("/api/reviews", content=RECORD.encode(), headers=SGF).json()
    answer = reviews.get(review["links"]["diagram"], params={"moves": "1-12"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml") and ">12<" in answer.text
    bad = reviews.get(review["links"]["diagram"], params={"moves": "5-40"})
    assert bad.status_code == 400 and "40" in bad.json()["message"]
    assert reviews.get(review["links"]["diagram"], params={"colour": "x"}).status_code == 400


def _analysed(client: Any, url: str, deadline_s: float = 120) -> list[dict[str, Any]]:
    """The states of an analysis started at ``url`` and read until it is done."""
    states = [client.post(url).json()]
    end = time.monotonic() + deadline_s
    while not states[-1]["done"] and time.monotonic() < end:
        time.sleep(0.2)
        states.append(client.get(url).json())
    assert states[-1]["done"], states[-1]
    return states


def test_a_reviews_analysis_grows_position_by_position_and_is_kept(reviews, db, estimate_pool):
    review = reviews.post("/api/reviews", content=RECORD.encode(), headers=SGF).json()
    url = review["links"]["analysis"]
    assert reviews.get(url).json()["positions"] == [None] * 13  # nothing searched until asked
    states = _analysed(reviews, url)
    counts = [sum(p is not None for p in s["positions"]) for s in states]
    assert counts == sorted(counts) and counts[-1] == 13
    assert any(0 < c < 13 for c in counts), counts  # read while it grew
    final = states[-1]
    for p in final["positions"]:
        assert 0 <= p["winrate"] <= 1 and p["best"] == p["candidates"][0]["move"]
    assert final["running"] is False and final["error"] is None
    # kept: another server on the same database answers it at once, without a worker
    with make_client(db) as other:
        kept = other.get(url).json()
    assert kept["done"] and kept["positions"] == final["positions"] and kept["mistakes"] == final["mistakes"]


def test_the_mistakes_are_the_largest_falls_of_each_players_win_rate(reviews):
    record = (SAMPLES / "kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf").read_bytes()  # a 36-move game lost
    review = reviews.post("/api/reviews", content=record, headers=SGF).json()
    final = _analysed(reviews, review["links"]["analysis"], deadline_s=300)[-1]
    rates = [p["winrate"] for p in final["positions"]]
    assert final["mistakes"] and len([m for m in final["mistakes"] if m["color"] == "black"]) <= 5
    for m in final["mistakes"]:
        n = m["move"]
        fall = rates[n - 1] - rates[n] if m["color"] == "black" else rates[n] - rates[n - 1]
        assert m["drop"] == pytest.approx(fall, abs=1e-3) and m["drop"] >= 0.05
        assert m["color"] == review["moves"][n - 1]["color"] and m["played"] == review["moves"][n - 1]["move"]
        assert m["best"] == final["positions"][n - 1]["best"] != m["played"]
        # a short search is noisy: the positions around a mistake were searched again, deeper
        assert final["positions"][n - 1]["deep"] and final["positions"][n]["deep"]
    assert [m["move"] for m in final["mistakes"]] == sorted(m["move"] for m in final["mistakes"])


def test_a_games_analysis_is_read_the_same_way(reviews):
    table = Table(reviews, size=9)
    table.moves("E5 C3 G3")
    table.send("white", "resign")
    states = _analysed(reviews, f"{table.url}/review/analysis")
    assert states[-1]["total"] == 4 and all(p is not None for p in states[-1]["positions"])


def test_one_address_analyses_one_game_at_a_time(db, estimate_pool):
    with make_client(db, executor=estimate_pool, rate_limits=True) as client:
        first = client.post("/api/reviews", content=RECORD.encode(), headers=SGF).json()
        second = client.post("/api/reviews", content=RECORD.encode(), headers=SGF).json()
        assert client.post(first["links"]["analysis"]).status_code == 202
        refused = client.post(second["links"]["analysis"])
        assert refused.status_code == 429 and refused.json()["limit"] == "worker-jobs"
        assert client.post(first["links"]["analysis"]).status_code == 202  # the same one: its state


def test_a_review_too_long_to_analyse_whole_is_a_422_and_the_runs_at_once_are_bounded(db, estimate_pool):
    with make_client(db, executor=estimate_pool, game_analysis_max_moves=10, game_analysis_runs=1,
                     rate_limits=False) as client:
        review = client.post("/api/reviews", content=RECORD.encode(), headers=SGF).json()  # 12 moves
        refused = client.post(review["links"]["analysis"])
        assert refused.status_code == 422 and "10 moves" in refused.json()["message"]
        short = client.post("/api/reviews", content=b"(;SZ[9];B[ee];W[cc])", headers=SGF).json()
        game = Table(client, size=9)
        game.moves("E5 C3")
        assert client.post(short["links"]["analysis"]).status_code == 202
        busy = client.post(f"{game.url}/review/analysis")  # another review while one runs
        assert busy.status_code == 503 or client.get(short["links"]["analysis"]).json()["done"], busy.text
