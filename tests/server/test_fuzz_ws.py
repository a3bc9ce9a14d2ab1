"""Random frames on a game's WebSocket, as a spectator and as a seat (hypothesis).

Invariants: every frame gets an answer (``error``/``reject`` for a bad one, ``ack``, ``pong``,
``seat`` or ``chat`` for a good one) and the connection stays open (the frame limit is raised
out of the way: the flood limits have their own tests in test_ratelimit.py); the server logs
no internal error; and afterwards the game's live state equals a replay of its stored events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import Table, make_client
from tests.server.fuzzing import live_and_replayed, server_errors

REAL_TYPES = ["ping", "auth", "chat", "play", "resign", "dead", "accept", "refuse", "undo", "undo_answer", "claim"]
ANSWERS = {"error", "reject", "ack", "pong", "seat", "chat"}
"""The frames that answer a client's frame (the others are broadcasts: event, presence...)."""

plain_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
# JSON text may hold lone surrogates: json.dumps escapes them ("\ud800")
text = st.text(max_size=20) | st.text(st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=4)
numbers = st.one_of(
    st.integers(-3, 6),
    st.integers(),
    st.sampled_from([2**31 - 1, 2**31, 2**63, 2**64 + 1, 10**30, -(2**63)]),
    st.floats(allow_nan=False, allow_infinity=False),
)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
vertices = st.sampled_from(["E5", "D4", "C3", "e5", "pass", "PASS", "Z9", "J10", "A0", "", "tt", "E 5", "Ē5"]) | text


def plausible_body(tokens: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Bodies with the real fields (right and wrong values), and now and then an unknown one."""
    field_values = {
        "move": vertices | json_values,
        "v": st.integers(0, 4) | json_values,
        "a": st.sampled_from(["a1", "a2", "x" * 65]) | json_values,
        "l": st.integers(0, 10_001) | json_values,
        "dead": st.lists(vertices, max_size=4) | json_values,
        "seki": st.lists(vertices, max_size=3) | json_values,
        "accept": st.booleans() | json_values,
        "token": st.sampled_from(tokens) | json_values,
        "text": text | st.just(" ") | st.just("x" * 501) | json_values,
        "zz": json_values,
    }
    return st.dictionaries(st.sampled_from(sorted(field_values)), st.none(), max_size=4).flatmap(
        lambda keys: st.fixed_dictionaries({k: field_values[k] for k in keys})
    )


def frames(tokens: list[str]) -> st.SearchStrategy[str | bytes]:
    """One client frame: mostly JSON objects with a real or unknown ``t``, else raw text,
    deep nesting, escaped lone surrogates, oversized frames or binary."""
    kinds = st.sampled_from(REAL_TYPES) | text | json_values
    structured = st.builds(
        lambda t, d, extra: json.dumps({"t": t, **({} if d is ... else {"d": d}), **extra}),
        kinds,
        st.just(...) | plausible_body(tokens) | json_values,
        st.just({}) | st.dictionaries(text, json_values, max_size=2),
    )
    raw = st.sampled_from(
        [
            "",
            "null",
            "[]",
            '"ping"',
            "{",
            '{"t": "ping"} trailing',
            '{"t": NaN}',
            '{"t": "play", "d": {"move": "E5", "v": Infinity}}',
            '{"t": "chat", "d": {"text": "\\ud800"}}',
            '{"t": "auth", "d": {"token": "\\udfff\\ud800"}}',
            '{"t": "play", "d": {"move": "\\ud800", "v": 0}}',
            '{"t": "play", "d": {"move": "E5", "v": 0, "a": "\\ud800"}}',
            '{"t": "dead", "d": {"dead": ["\\udc00"], "v": 0, "a": "\\ud800x"}}',
            '{"t": "play", "d": {"move": "E5", "v": 1e400}}',
            '{"t": "play", "d": {"move": "E5", "v": ' + "9" * 5000 + "}}",
            '{"t": "ping", "t": "chat"}',
            "[" * 10_000 + "]" * 10_000,
            '{"t": "chat", "d": {"text": "' + "x" * 17_000 + '"}}',
            '{"t": "chat", "d": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}",
        ]
    )
    binary = st.binary(max_size=40) | st.just(b'{"t": "ping"}')
    return st.one_of(structured, structured, structured, raw, plain_text, binary)


@pytest.fixture(scope="module")
def app_client(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("fuzz-ws") / "miai.db")
    with make_client(db, ws_frames_per_second=1_000_000, chat_burst=1_000_000) as client:
        yield client


def answered(ws, sent: str | bytes) -> list[dict[str, Any]]:
    """Send ``sent`` then a ping; the frames up to the pong. The connection must stay open."""
    if isinstance(sent, bytes):
        ws.send_bytes(sent)
    else:
        ws.send_text(sent)
    ws.send_text('{"t": "ping"}')
    seen: list[dict[str, Any]] = []
    answers = 0
    while answers < 2:
        try:
            got = ws.receive_json()
        except WebSocketDisconnect as closed:  # pragma: no cover - the failure this test looks for
            raise AssertionError(f"the server closed the connection ({closed.code}) after {sent[:200]!r}") from None
        seen.append(got)
        if got["t"] in ANSWERS:
            answers += 1
    assert seen[-1]["t"] == "pong", (sent[:200], seen)
    return seen


def check_answer(frame: dict[str, Any]) -> None:
    """An error or reject frame says what was wrong: a 4xx status, a code and a message."""
    if frame["t"] in ("error", "reject"):
        d = frame["d"]
        assert 400 <= d["status"] < 500, frame
        assert isinstance(d["error"], str) and d["error"], frame
        assert isinstance(d["message"], str) and d["message"], frame


@pytest.mark.parametrize("role", ["spectator", "black", "white"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_frames_are_answered_and_leave_the_game_consistent(app_client, role, data):
    table = Table(app_client, size=9)
    tokens = [table.tokens["black"], table.tokens["white"], table.tokens["black"][:-1] + "A", "nope"]
    if data.draw(st.booleans(), label="a few moves first"):
        table.moves("E5 D4 C3")
    query = "" if role == "spectator" else f"&token={table.tokens[role]}"
    sent = data.draw(st.lists(frames(tokens), min_size=1, max_size=6), label="frames")
    with server_errors() as errors:
        with app_client.websocket_connect(f"/ws/game/{table.id}?v=0{query}") as ws:
            assert ws.receive_json()["t"] == "hello"
            for one in sent:
                seen = answered(ws, one)
                for frame in seen:
                    check_answer(frame)
                first = next(f for f in seen if f["t"] in ANSWERS)
                if role == "spectator" and first["t"] == "ack":
                    # a spectator acts only after taking a seat with a real token
                    assert any(isinstance(s, str) and '"auth"' in s for s in sent), sent
        assert not errors.records, errors.describe()
    live, rebuilt = live_and_replayed(app_client, table.id)
    assert live == rebuilt
    assert live["v"] == len(table.events())
