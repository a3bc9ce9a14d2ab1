"""Random requests on every HTTP route of the application (hypothesis).

For each route of ``app.routes``: random methods, path parameters, query strings, headers
(``Authorization`` variants, ``Content-Type``, ``Origin``) and bodies (JSON of any shape, wrong
types, oversized, not UTF-8). Invariants: never a 5xx; a 4xx always carries a JSON body
``{"error": code, "message": ...}``; the server logs no internal error; and the game is never
changed by a request without its valid seat token.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route

from miai.server.play.actions import ActionKind
from tests.server.conftest import Table, make_client
from tests.server.fuzzing import live_and_replayed, server_errors

METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
plain_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=24)
# JSON text may hold lone surrogates: json.dumps escapes them ("\ud800")
text = st.text(max_size=24) | st.text(st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=4)
ascii_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)
FIELDS = ["move", "v", "a", "l", "dead", "seki", "accept", "size", "komi", "rules", "handicap", "time", "black",
          "white", "colour", "open", "username", "password", "sgf", "record", "lang"]


@pytest.fixture(scope="module")
def app_client(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("fuzz-http") / "miai.db")
    with make_client(db) as client:
        yield client


@pytest.fixture(scope="module")
def game(app_client) -> Table:
    table = Table(app_client, size=9)
    table.moves("E5 D4")
    return table


def route_templates(app) -> list[tuple[str, tuple[str, ...]]]:
    """Every HTTP route's path template and methods (a mount: a path under it)."""
    found = []
    for route in app.routes:
        if isinstance(route, Route):
            found.append((route.path, tuple(sorted(route.methods or ()))))
        elif isinstance(route, Mount):
            found.append((route.path + "/{file}", ("GET", "HEAD")))
    return found


def fill(template: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values[m.group(1)], template)


def request_parts(table: Table, v: int) -> st.SearchStrategy[dict[str, Any]]:
    """A request's parts for ``table`` at version ``v``: mostly its real id, tokens and version."""
    token, other = table.tokens["black"], table.tokens["white"]
    ids = st.one_of(
        st.just(table.id),
        st.just(table.id),
        st.sampled_from(["nosuchgame", table.id.upper(), table.id + "x"]),
        plain_text.map(lambda t: quote(t, safe="")),
    )
    params = st.fixed_dictionaries(
        {
            "id": ids,
            "action": st.sampled_from([k.value for k in ActionKind] + ["join", "takeback"]) | plain_text.map(
                lambda t: quote(t, safe="")
            ),
            "lang": st.sampled_from(["en", "es", "it", "pt", "xx", "..", "en-US"]),
            "file": st.sampled_from(["app.js", "nothing.css", "..%2F..%2Fpyproject.toml", "%00"]),
            "name": st.sampled_from(["alice", "nobody", "x" * 70]) | plain_text.map(lambda t: quote(t, safe="")),
            "lesson": st.sampled_from(["01-board", "02-capture", "nosuch"]) | plain_text.map(lambda t: quote(t, safe="")),
            "step": st.sampled_from(["0", "1", "2", "99", "123456789012345678901234567890"]),
        }
    )
    authorization = st.sampled_from(
        [
            None,
            f"Bearer {token}",
            f"bearer  {other}",
            f"Bearer {token[:-1]}{'A' if token[-1] != 'A' else 'B'}",
            f"Token {token}",
            f"Basic {token}",
            "Bearer",
            "Bearer ",
            "",
            "Bearer " + "x" * 200,
            f"Bearer {token} {other}",
        ]
    ) | ascii_text
    content_types = st.sampled_from(
        [None, "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
         "application/json; charset=latin-1", "application/x-go-sgf"]
    )
    origins = st.sampled_from([None, "http://testserver", "https://evil.example", "null", ""]) | ascii_text
    json_bodies = st.one_of(
        json_values,
        st.dictionaries(st.sampled_from(FIELDS), json_values | st.sampled_from([v, v, v - 1, v + 1, "E5", "F6", "G7", "pass", True, [], ["E5"]]),
                        max_size=4),
    ).map(lambda value: json.dumps(value).encode())
    bodies = st.one_of(
        st.none(),
        json_bodies,
        json_bodies,
        st.binary(max_size=64),
        st.sampled_from(
            [
                b'{"move": "\xff\xfe", "v": 2}',
                b'{"move": "F6", "v": 2' + b" " * 20_000 + b"}",
                b"[" * 5000 + b"]" * 5000,
                b'{"v": 1e999}',
                b'{"move": "F6", "v": ' + b"9" * 5000 + b"}",
                b'{"move": "\\ud800", "v": 2}',
                b"(;GM[1]SZ[9];B[ee];W[dd])",
            ]
        ),
    )
    known = st.sampled_from(["after", "limit", "status", "moves", "number", "v", "token", "since"])
    queries = st.dictionaries(
        known | known | ascii_text,
        # "²" and "٣" are digits to str.isdigit, but "²" is not to int()
        st.sampled_from(["0", "1", "-1", "99999999999", "abc", "", "²", "٣", "1-²", token]) | ascii_text | plain_text,
        max_size=3,
    )
    return st.fixed_dictionaries(
        {
            "params": params,
            "authorization": authorization,
            "content_type": content_types,
            "origin": origins,
            "body": bodies,
            "query": queries,
            "method": st.sampled_from(METHODS),
        }
    )


def valid_token(table: Table, authorization: str | None, query: dict[str, str]) -> bool:
    """Whether the request names one of the game's seats by its token in the Authorization header."""
    if not authorization:
        return False
    scheme, _, rest = authorization.strip().partition(" ")
    return scheme.lower() == "bearer" and rest.strip() in table.tokens.values()


def busy(answer: Any) -> bool:
    """Whether the answer is the server's designed back-pressure, 503 with the typed ``busy``
    error: an estimate asked for while the one worker for estimates still runs an earlier
    request's job (one that outlasted its wait on a loaded machine)."""
    if answer.status_code != 503 or not answer.headers.get("content-type", "").startswith("application/json"):
        return False
    return bool(answer.json().get("error") == "busy")


def without_players(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("presence",)}


def test_every_route_is_fuzzed(app_client):
    templates = {path for path, _ in route_templates(app_client.app)}
    assert {"/api/games", "/api/games/{id}/{action}", "/api/session", "/g/{id}", "/static/{file}"} <= templates


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_requests_never_crash_and_never_change_a_game_without_its_token(app_client, game, data):
    templates = route_templates(app_client.app)
    actions = [t for t in templates if t[0] == "/api/games/{id}/{action}"]
    template, methods = data.draw(st.sampled_from(templates) | st.sampled_from(actions), label="route")
    before = game.state()
    parts = data.draw(request_parts(game, before["v"]), label="request")
    method = data.draw(st.sampled_from(methods) | st.just(parts["method"]), label="method")
    path = fill(template, parts["params"])
    headers = {}
    for name, key in (("Authorization", "authorization"), ("Content-Type", "content_type"), ("Origin", "origin")):
        if parts[key] is not None:
            headers[name] = parts[key]
    with server_errors() as errors:
        answer = app_client.request(method, path, params=parts["query"], headers=headers, content=parts["body"])
        assert answer.status_code < 500 or busy(answer), (method, path, answer.status_code, answer.text[:300])
        assert not errors.records, errors.describe()
    event(f"{template} {answer.status_code}")
    if (400 <= answer.status_code < 500 or answer.status_code == 503) and method != "HEAD":
        assert answer.headers.get("content-type", "").startswith("application/json"), (method, path, answer.text[:200])
        body = answer.json()
        assert isinstance(body.get("error"), str) and body["error"], body
        assert isinstance(body.get("message"), str) and body["message"], body
    after = game.state()
    if not valid_token(game, parts["authorization"], parts["query"]):
        assert without_players(after) == without_players(before), (method, path, headers, parts["body"])
    live, rebuilt = live_and_replayed(app_client, game.id)
    assert live == rebuilt


NUMBERS = ["0", "1", "3-", "1-2", "-1", "99999999999", "", "²", "٣", "¹²", "3²", "1-²", "０", "1e3", " 1", "0x10"]


READ_ROUTES = ["/api/games", "/api/games/{id}", "/api/games/{id}/events", "/api/games/{id}/sgf",
               "/api/games/{id}/diagram.svg", "/api/games/{id}/review", "/g/{id}", "/api/me",
               "/api/players/{name}", "/api/players/{name}/games", "/api/me/games", "/api/games/{id}/seat", "/api/automatch"]


def test_the_read_routes_are_the_apps(app_client):
    gets = {t for t, methods in route_templates(app_client.app) if "GET" in methods and "{file}" not in t}
    assert set(READ_ROUTES) <= gets


@pytest.mark.parametrize("template", READ_ROUTES)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_numeric_query_parameters_of_every_read_route(app_client, game, template, data):
    """Every GET route on the real game with its numeric parameters given odd "numbers"
    (Unicode digits that ``str.isdigit`` accepts and ``int`` may not): a 2xx or a 400 that
    names the parameter, never a 5xx."""
    path = fill(template, {"id": game.id, "lang": "en", "action": "play", "name": "nobody", "lesson": "01-board", "step": "0"})
    names = st.sampled_from(["after", "limit", "moves", "number", "v", "status"])
    query = data.draw(st.dictionaries(names, st.sampled_from(NUMBERS), min_size=1, max_size=2), label="query")
    with server_errors() as errors:
        answer = app_client.get(path, params=query)
        assert answer.status_code < 500, (path, query, answer.text[:300])
        assert not errors.records, errors.describe()
    event(f"{template} {answer.status_code}")
    if answer.status_code >= 400:
        assert answer.json()["error"] and answer.json()["message"], answer.text
