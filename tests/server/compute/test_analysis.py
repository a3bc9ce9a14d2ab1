"""POST /api/analysis: the computer's analysis of a review's position, through the real worker
pool (a small, fixed number of playouts), for a game of this server and an uploaded record;
illegal moves (422 with the rule), bad input (400), the per-address limit and the time cap."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.coords import point_from_gtp
from miai.errors import IllegalMoveError
from miai.game import Game
from miai.rules import Rules
from miai.server.compute.analysis import (
    TOP_CANDIDATES,
    Position,
    analyse_position,
    parse_position,
    replay,
)
from miai.server.errors import BadRequest, WireReason
from tests.server.conftest import Table, make_client

PLAYOUTS = 300


def request_of(review: dict[str, Any], n: int, **extra: Any) -> dict[str, Any]:
    """The analysis request for the position after ``n`` moves of a review, as the page sends it."""
    steps = [{k: s[k] for k in ("color", "move", "edits") if k in s} for s in review["moves"][:n]]
    return {"size": review["size"], "rules": review["rules"], "handicap": review["handicap"],
            "start": review["start"], "moves": steps, **extra}


@pytest.fixture
def client(db, estimate_pool):
    with make_client(db, executor=estimate_pool, analysis_playouts=PLAYOUTS, review_wait_seconds=600) as c:
        yield c


def check_answer(answer: dict[str, Any], stones: set[str], to_move: str) -> None:
    assert answer["to_move"] == to_move
    assert 0.0 <= answer["winrate"] <= 1.0
    cands = answer["candidates"]
    assert 1 <= len(cands) <= TOP_CANDIDATES
    assert all(c["visits"] > 0 and 0.0 <= c["winrate"] <= 1.0 for c in cands)
    assert [c["visits"] for c in cands] == sorted((c["visits"] for c in cands), reverse=True)
    assert not {c["move"] for c in cands} & stones  # never on a stone
    assert sum(c["visits"] for c in cands) <= answer["playouts"] <= PLAYOUTS
    assert answer["winrate"] == cands[0]["winrate"]  # the most visited move's, as Lizzie shows


def test_a_position_of_a_game_of_this_server(client):
    table = Table(client, size=9)
    table.moves("E5 C3 G3")
    review = client.get(f"/api/games/{table.id}/review").json()
    answer = client.post("/api/analysis", json=request_of(review, 3))
    assert answer.status_code == 200, answer.text
    check_answer(answer.json(), {"E5", "C3", "G3"}, "white")
    first = client.post("/api/analysis", json=request_of(review, 1)).json()
    check_answer(first, {"E5"}, "white")
    empty = client.post("/api/analysis", json=request_of(review, 0)).json()
    check_answer(empty, set(), "black")


def test_the_capture_that_wins_comes_first_and_win_rates_are_blacks(client):
    # 7x7: Black (to move) captures the three white stones in atari at D5, and then wins easily
    moves = "C4 D4 C3 D3 E4 E3 E2 pass D2 pass C5 pass E5 pass F3 pass".split()
    black = client.post("/api/analysis", json={"size": 7, "rules": "chinese", "moves": moves}).json()
    assert black["to_move"] == "black"
    assert black["candidates"][0]["move"] == "D5", black
    assert black["winrate"] > 0.7
    # Black passes: White to move cannot save them; the win rate is still Black's, still high
    white = client.post("/api/analysis", json={"size": 7, "rules": "chinese", "moves": [*moves, "pass"]}).json()
    assert white["to_move"] == "white"
    assert white["winrate"] > 0.7, white


def test_an_uploaded_record_with_handicap_stones_and_two_moves_of_one_colour(client):
    sgf = b"(;GM[1]SZ[9]HA[2]KM[0.5]RU[Japanese]AB[cc][gg];W[ee];B[ce];B[ec])"
    review = client.post("/api/reviews", content=sgf, headers={"Content-Type": "application/x-go-sgf"}).json()
    assert review["handicap"] == 2
    answer = client.post("/api/analysis", json=request_of(review, 3))
    assert answer.status_code == 200, answer.text
    # Black moved twice in a row: White is to move (the record's colours are kept)
    check_answer(answer.json(), {"C7", "G3", "E5", "C5", "E7"}, "white")
    after_handicap = client.post("/api/analysis", json=request_of(review, 0)).json()
    check_answer(after_handicap, {"C7", "G3"}, "white")


def test_the_handicap_and_setup_are_replayed_as_the_record_reader_does():
    fixed = replay(parse_position({"size": 9, "handicap": 2, "moves": []}, max_moves=10))
    assert fixed.handicap == 2 and len(list(fixed.board.stones(fixed.to_move.opponent))) == 2
    free = replay(parse_position({"size": 9, "handicap": 2, "start": {"black": ["A1", "J9"], "white": []}},
                                 max_moves=10))
    assert sorted(free.handicap_points) == sorted([point_from_gtp("A1", 9), point_from_gtp("J9", 9)])
    # the handicap's number need not match its stones (as the record reader takes HA and AB)
    three = replay(parse_position({"size": 9, "handicap": 3, "start": {"black": ["A1", "J9"]}}, max_moves=10))
    assert three.handicap == 2 and three.to_move.name == "WHITE"
    setup = replay(parse_position({"size": 9, "start": {"black": ["A1"], "white": ["J9"]}}, max_moves=10))
    assert setup.handicap == 0 and setup.board[point_from_gtp("J9", 9)] is not None
    # the same moves as a Game played directly
    game = Game(9, Rules.parse("japanese"))
    for m in ["D4", "E5", "pass", "F6"]:
        game.play(m)
    again = replay(parse_position({"size": 9, "rules": "japanese", "moves": ["D4", "E5", "pass", "F6"]}, max_moves=10))
    assert again.board.stones(game.to_move) == game.board.stones(game.to_move) and again.to_move == game.to_move


def test_an_illegal_move_is_a_422_with_the_rule_and_the_move(client):
    answer = client.post("/api/analysis", json={"size": 9, "moves": ["D4", "E5", "D4"]})
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "illegal" and body["reason"] == "occupied" and body["move"] == 3
    assert "move 3 (D4)" in body["message"]
    # Black's E4 takes the ko at D4; White retakes it at once
    ko = "C4 E5 D5 F4 D3 E3 A1 D4 E4 D4".split()
    assert client.post("/api/analysis", json={"size": 9, "moves": ko[:9]}).status_code == 200
    answer = client.post("/api/analysis", json={"size": 9, "moves": ko})
    assert answer.status_code == 422
    assert answer.json()["reason"] == "ko" and answer.json()["move"] == 10


@pytest.mark.parametrize(
    "body, words",
    [
        ([], "JSON object"),
        ({"size": 9, "colour": 1}, "unknown field 'colour'"),
        ({"size": 1}, "size must be"),
        ({"size": True}, "size must be"),
        ({"size": 9, "rules": "no such rules"}, "rules 'no such rules' cannot be read"),
        ({"size": 9, "moves": "D4 E5"}, "moves must be a list"),
        ({"size": 9, "moves": [4]}, "moves[0] must be"),
        ({"size": 9, "moves": [{"color": "red", "move": "D4"}]}, "moves[0].color"),
        ({"size": 9, "moves": ["D4", "Z9"]}, "move 2"),
        ({"size": 9, "moves": ["D4", "K10"]}, "off the 9x9 board"),
        ({"size": 9, "start": {"black": ["D44"]}}, "starting position"),
        ({"size": 9, "start": {"red": []}}, "start must be"),
        ({"size": 9, "seconds": 0}, "seconds must be"),
        ({"size": 9, "seconds": "1"}, "seconds must be"),
        ({"size": 9, "handicap": -1}, "handicap must be"),
    ],
)
def test_bad_input_is_a_400_that_says_what(client, body, words):
    answer = client.post("/api/analysis", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad-request"
    assert words in answer.json()["message"]


def test_a_body_that_is_not_json_and_a_game_already_over(client):
    answer = client.post("/api/analysis", content=b"{size: 9", headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "not valid JSON" in answer.json()["message"]
    # under Chinese rules with no dead stones to remove, two passes end play: it resumes for the analysis
    answer = client.post("/api/analysis", json={"size": 9, "moves": ["D4", "pass", "pass"]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["to_move"] == "white"


def test_the_analysis_limit_per_address(db, estimate_pool):
    with make_client(db, executor=estimate_pool, analysis_playouts=20, limit_analysis="2/minute",
                     review_wait_seconds=600) as client:
        for _ in range(2):
            assert client.post("/api/analysis", json={"size": 9}).status_code == 200
        answer = client.post("/api/analysis", json={"size": 9})
        assert answer.status_code == 429
        assert answer.json()["limit"] == "analysis" and "positions analysed" in answer.json()["message"]
        assert int(answer.headers["retry-after"]) >= 1


def test_the_time_asked_is_capped_by_the_server():
    position = parse_position({"size": 9, "seconds": 60}, max_moves=10)
    assert position.seconds == 60
    kind, answer = analyse_position(position, 0.2, 10**9)
    assert kind == "analysis"
    assert answer["seconds"] < 2.0  # 0.2 s asked of the search, not 60
    assert isinstance(position, Position)


VERTICES = [f"{c}{r}" for c in "ABCDE" for r in range(1, 6)] + ["pass"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(VERTICES), max_size=30))
def test_the_replay_is_the_games_own(moves):
    """Any list of moves on 5x5: the replay ends where Game.play does, or fails at the very
    move Game refuses, for the same rule (captures, ko and superko are Game's)."""
    game = Game(5, Rules.parse("chinese"))
    illegal_at = None
    for n, m in enumerate(moves, 1):
        if game.phase.value != "play":
            game.resume()
        try:
            game.play(m)
        except IllegalMoveError as e:
            illegal_at = (n, e.reason)
            break
    kind, answer = analyse_position(parse_position({"size": 5, "moves": moves}, max_moves=100), 0.01, 1)
    if illegal_at is None:
        assert kind == "analysis"
        assert answer["to_move"] == str(game.to_move)
        again = replay(parse_position({"size": 5, "moves": moves}, max_moves=100))
        assert {c: again.board.stones(c) for c in (game.to_move, game.to_move.opponent)} == {
            c: game.board.stones(c) for c in (game.to_move, game.to_move.opponent)}
        assert again.to_move == game.to_move
    else:
        assert kind == "illegal"
        assert answer[0] == illegal_at[0] and answer[2] is WireReason.of(illegal_at[1])


def test_too_many_moves_is_refused_before_any_work():
    with pytest.raises(BadRequest, match="at most 3"):
        parse_position({"size": 9, "moves": ["pass"] * 4}, max_moves=3)
