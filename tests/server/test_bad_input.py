"""Every malformed request gets a 4xx JSON answer that says what was wrong, and changes nothing."""

from __future__ import annotations

import pytest

from tests.server.conftest import Table

CREATE = [
    # body (JSON text), the status, a word the message must hold
    ("not json", 400, "JSON"),
    ("[1, 2]", 400, "object"),
    ('{"size": "9"}', 400, "size"),
    ('{"size": true}', 400, "size"),
    ('{"size": 9.0}', 400, "size"),
    ('{"size": 1}', 400, "size"),
    ('{"size": 26}', 400, "size"),
    ('{"colour": "black"}', 400, "colour"),
    ('{"rules": "nonsense"}', 400, "nonsense"),
    ('{"rules": "japanese komi=lots"}', 400, "komi"),
    ('{"rules": 7}', 400, "rules"),
    ('{"komi": "6.5"}', 400, "komi"),
    ('{"komi": NaN}', 400, "NaN"),
    ('{"komi": 1e400}', 400, "komi"),
    ('{"handicap": 10}', 400, "handicap"),
    ('{"handicap": -1}', 400, "handicap"),
    ('{"size": 5, "handicap": 2}', 400, "handicap"),
    ('{"time": 300}', 400, "time"),
    ('{"time": "byoyomi:300:30"}', 400, "not a time control"),
    ('{"time": "byoyomi:300:x:5"}', 400, "the period time must be a number"),
    ('{"time": "fischer:300:10:100"}', 400, "the cap"),
    ('{"time": "simple:0"}', 400, "time per move"),
    ('{"time": "-5"}', 400, "negative"),
    ('{"time": "hourglass:60"}', 400, "not a time control"),
    ('{"black": "computer:3", "white": "computer:1"}', 422, "human"),
    ('{"white": "computer:0"}', 400, "computer:LEVEL"),
    ('{"white": "computer:11"}', 400, "computer:LEVEL"),
    ('{"black": "robot"}', 400, "human"),
    ('{"black": null}', 400, "black"),
    ("[" * 5000 + "]" * 5000, 400, "nested"),
    ('{"size": 9', 400, "JSON"),
]


def check(answer, status, word):
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = answer.json()
    assert body["error"] and word.lower() in body["message"].lower(), body


@pytest.mark.parametrize(("body", "status", "word"), CREATE)
def test_malformed_game_creation(client, body, status, word):
    check(client.post("/api/games", content=body.encode()), status, word)


def test_bodies_that_are_not_utf8_or_too_large(client):
    check(client.post("/api/games", content=b'{"rules": "\xff\xfe"}'), 400, "UTF-8")
    big = b'{"rules": "' + b"x" * 20_000 + b'"}'
    check(client.post("/api/games", content=big), 413, "limit")

    def chunks():  # no Content-Length: the limit still holds while reading
        for _ in range(40):
            yield b" " * 1000

    check(client.post("/api/games", content=chunks()), 413, "limit")


ACTIONS = [
    # action, body (JSON text; None: no body), status, word
    ("play", None, 400, "move"),
    ("play", '{"move": 4, "v": 0}', 400, "move"),
    ("play", '{"move": "E5"}', 400, "'v'"),
    ("play", '{"move": "E5", "v": "0"}', 400, "'v'"),
    ("play", '{"move": "E5", "v": -1}', 400, "'v'"),
    ("play", '{"move": "E5", "v": 1.0}', 400, "'v'"),
    ("play", '{"move": "E5", "v": true}', 400, "'v'"),
    ("play", '{"move": "E5", "v": 0, "color": "white"}', 400, "color"),
    ("play", '{"move": "Z9", "v": 0}', 400, "Z9"),
    ("play", '{"move": "J10", "v": 0}', 400, "off"),
    ("play", '{"move": "", "v": 0}', 400, "move"),
    ("play", '{"move": "E5", "v": 0, "a": ""}', 400, "'a'"),
    ("play", '{"move": "E5", "v": 0, "a": 7}', 400, "'a'"),
    ("play", '"E5"', 400, "object"),
    ("resign", '{"v": "now"}', 400, "'v'"),
    ("dead", '{"dead": "C3", "v": 0}', 400, "dead"),
    ("dead", '{"dead": [1], "v": 0}', 400, "dead"),
    ("dead", '{"dead": ["pass"], "v": 0}', 400, "pass"),
    ("dead", '{"v": 0}', 400, "dead"),
    ("dead", '{"dead": [], "seki": {}, "v": 0}', 400, "seki"),
    ("accept", '{}', 400, "'v'"),
    ("refuse", '{"v": 0, "why": "no"}', 400, "why"),
    ("undo", '{}', 400, "'v'"),
    ("undo", '{"v": 0, "moves": 2}', 400, "moves"),
    ("undo-answer", '{"v": 0}', 400, "accept"),
    ("undo-answer", '{"accept": "yes", "v": 0}', 400, "true or false"),
    ("undo-answer", '{"accept": 1, "v": 0}', 400, "'accept'"),
    ("claim", '{"v": "0"}', 400, "'v'"),
    ("takeback", '{"v": 0}', 404, "takeback"),
]


@pytest.mark.parametrize(("action", "body", "status", "word"), ACTIONS)
def test_malformed_actions(client, action, body, status, word):
    table = Table(client, size=9)
    answer = client.post(
        f"{table.url}/{action}",
        content=body.encode() if body is not None else b"",
        headers=table.auth("black"),
    )
    check(answer, status, word)
    assert table.events() == []


def test_a_wrong_authorization_scheme(client):
    table = Table(client, size=9)
    answer = client.post(f"{table.url}/play", json={"move": "E5", "v": 0}, headers={"Authorization": "Basic abc"})
    check(answer, 400, "Bearer")


@pytest.mark.parametrize(
    ("method", "path", "status", "word"),
    [
        ("GET", "/api/games/nosuchgame", 404, "nosuchgame"),
        ("GET", "/api/games/bad%20id", 404, "bad id"),
        ("POST", "/api/games/nosuchgame/play", 400, "move"),  # the body is checked first
        ("GET", "/api/games/{id}/events?after=-1", 400, "after"),
        ("GET", "/api/games/{id}/events?after=abc", 400, "after"),
        ("GET", "/api/games/{id}/events?since=3", 400, "since"),
        ("GET", "/api/games/{id}/play", 405, "GET"),
        ("DELETE", "/api/games/{id}", 405, "DELETE"),
        ("GET", "/nothing/here", 404, "nothing"),
        ("GET", "/g/nosuchgame", 404, "nosuchgame"),
    ],
)
def test_bad_paths_and_parameters(client, method, path, status, word):
    table = Table(client, size=9)
    check(client.request(method, path.replace("{id}", table.id)), status, word)


def test_an_action_on_an_unknown_game(client):
    answer = client.post("/api/games/nosuchgame/play", json={"move": "E5", "v": 0})
    check(answer, 404, "nosuchgame")


@pytest.mark.parametrize(
    ("path", "word"),
    [
        # "²" passes str.isdigit but not int(): these were 500s (an internal error logged)
        ("/api/games/{id}/events?after=%C2%B2", "after"),
        ("/api/games/{id}/events?limit=%C2%B2", "limit"),
        ("/api/games?limit=%C2%B2", "limit"),
        ("/api/games/{id}/diagram.svg?number=%C2%B2", "number"),
        # other digits int() reads are refused too: the numbers are ASCII
        ("/api/games/{id}/events?after=%D9%A3", "after"),
        ("/api/games?limit=%D9%A3", "limit"),
    ],
)
def test_numbers_in_the_query_are_ascii_digits(client, path, word):
    table = Table(client, size=9)
    table.moves("E5 D4")  # a diagram needs moves to draw
    check(client.get(path.replace("{id}", table.id)), 400, word)



@pytest.mark.parametrize(
    ("path", "body", "seat"),
    [
        # a lone surrogate (the JSON escape "\ud800") is no Unicode text: these were a 503 that
        # reloaded the game (the action id could not be stored) and 500s (the password hash,
        # the database, the review's answer could not encode it)
        ("{url}/play", '{"move": "E5", "v": 0, "a": "\\ud800"}', "black"),
        ("/api/session", '{"username": "abc", "password": "\\ud800\\udfff\\ud800\\udfff\\ud800"}', None),
        ("/api/session", '{"username": "\\ud800bc", "password": "abcdefghij"}', None),
        ("/api/users", '{"username": "abcdef", "password": "xx\\udfffxxxxxxx"}', None),
        ("/api/reviews", '{"sgf": "(;SZ[9]C[\\ud800];B[aa])"}', None),
        ("/api/games", '{"size": 9, "rules": "chinese", "\\ud800": 1}', None),
    ],
)
def test_a_lone_surrogate_in_the_json_is_a_400(client, path, body, seat):
    table = Table(client, size=9)
    headers = {**table.auth(seat), "Content-Type": "application/json"}  # /api/reviews: JSON, not SGF text
    answer = client.post(path.replace("{url}", table.url), content=body.encode(), headers=headers)
    check(answer, 400, "surrogate")
    assert table.events() == []


def test_a_surrogate_pair_is_one_character_and_welcome(client):
    """An escaped pair (an emoji as ``json.dumps`` writes it) is valid text."""
    table = Table(client, size=9)
    answer = client.post(f"{table.url}/play", content=b'{"move": "E5", "v": 0, "a": "\\ud83d\\ude00"}',
                         headers=table.auth("black"))
    assert answer.status_code == 200, answer.text
    assert table.events()[0]["v"] == 1
