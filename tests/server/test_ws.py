"""The WebSocket of a game: replay after ``v``, live events, seats and spectators, presence,
chat with limits, and clear error frames for bad input (the connection stays open)."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import Table


def frames_until(ws, t: str) -> list[dict]:
    """Frames received up to and including the first of type ``t``."""
    seen = []
    while True:
        frame = ws.receive_json()
        seen.append(frame)
        if frame["t"] == t:
            return seen


def who(presence: dict) -> dict:
    """A presence frame without the absent seats' countdowns (tests/server/test_presence.py)."""
    return {k: v for k, v in presence.items() if k != "gone"}


def test_a_client_gets_the_events_after_its_version_then_live_ones(client):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    with client.websocket_connect(f"/ws/game/{table.id}?v=1") as ws:
        hello = ws.receive_json()
        assert hello["t"] == "hello" and hello["d"]["v"] == 3 and hello["d"]["seat"] is None
        replayed = [ws.receive_json() for _ in range(2)]
        assert [f["t"] for f in replayed] == ["event", "event"]
        assert [f["d"] for f in replayed] == table.events(after=1)
        table.play("white", "F6")
        live = frames_until(ws, "event")[-1]
        assert live["d"] == table.events(after=3)[0] and live["d"]["v"] == 4


@pytest.mark.parametrize("query", ["", "?v=99"])
def test_without_a_version_or_beyond_it_the_client_gets_the_full_state(client, query):
    table = Table(client, size=9)
    table.moves("E5")
    with client.websocket_connect(f"/ws/game/{table.id}{query}") as ws:
        assert ws.receive_json()["t"] == "hello"
        full = ws.receive_json()
        assert full["t"] == "full" and full["d"] == table.state()


def test_seats_act_through_the_socket_and_spectators_only_read(client):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}?v=0") as watcher, client.websocket_connect(
        f"/ws/game/{table.id}?v=0&token={table.tokens['black']}"
    ) as black:
        assert watcher.receive_json()["t"] == "hello"
        hello = black.receive_json()
        assert hello["d"]["seat"] == "black" and hello["d"]["presence"]["black"] is True
        presence = frames_until(watcher, "presence")[-1]
        assert who(presence["d"]) == {"black": True, "white": False, "spectators": 1}
        assert set(presence["d"]["gone"]) == {"white"}  # the absent human seat

        black.send_json({"t": "play", "d": {"move": "E5", "v": 0, "a": "x1"}})
        got = frames_until(black, "ack")
        assert got[-1]["d"] == {"v": 1, "a": "x1"}
        assert got[-2]["t"] == "event" and got[-2]["d"]["move"] == "E5"  # the event comes before the ack
        assert frames_until(watcher, "event")[-1]["d"]["move"] == "E5"

        black.send_json({"t": "play", "d": {"move": "E5", "v": 0, "a": "x1"}})  # a retry
        assert frames_until(black, "ack")[-1]["d"] == {"v": 1, "a": "x1"}

        watcher.send_json({"t": "play", "d": {"move": "D4", "v": 1}})
        reject = frames_until(watcher, "reject")[-1]["d"]
        assert reject["status"] == 403 and reject["error"] == "forbidden"

        watcher.send_json({"t": "auth", "d": {"token": table.tokens["white"]}})
        assert frames_until(watcher, "seat")[-1]["d"] == {"seat": "white"}
        watcher.send_json({"t": "play", "d": {"move": "D4", "v": 5}})
        reject = frames_until(watcher, "reject")[-1]["d"]
        assert reject["status"] == 409 and reject["v"] == 1
        watcher.send_json({"t": "play", "d": {"move": "E5", "v": 1}})
        reject = frames_until(watcher, "reject")[-1]["d"]
        assert reject["status"] == 422 and reject["reason"] == "occupied"
    assert [e["move"] for e in table.events()] == ["E5"]


def test_presence_follows_connections(client):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}") as watcher:
        assert who(watcher.receive_json()["d"]["presence"]) == {"black": False, "white": False, "spectators": 1}
        with client.websocket_connect(f"/ws/game/{table.id}?token={table.tokens['white']}"):
            assert frames_until(watcher, "presence")[-1]["d"]["white"] is True
        assert who(frames_until(watcher, "presence")[-1]["d"]) == {"black": False, "white": False, "spectators": 1}


def test_chat_reaches_everyone_with_limits_and_a_newcomer_gets_the_recent_lines(client):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}?token={table.tokens['black']}") as black:
        black.receive_json()
        black.send_json({"t": "chat", "d": {"text": "  have a good game "}})
        line = frames_until(black, "chat")[-1]["d"]
        assert line["from"] == "black" and line["text"] == "have a good game"
        black.send_json({"t": "chat", "d": {"text": "x" * 501}})
        assert "500" in frames_until(black, "error")[-1]["d"]["message"]
        for i in range(4):
            black.send_json({"t": "chat", "d": {"text": f"line {i}"}})
            frames_until(black, "chat")
        black.send_json({"t": "chat", "d": {"text": "one too many"}})
        error = frames_until(black, "error")[-1]["d"]
        assert error["error"] == "rate-limited" and error["status"] == 429 and "at most 5" in error["message"]
        assert error["limit"] == "chat" and error["retry_after"] >= 1
        with client.websocket_connect(f"/ws/game/{table.id}") as late:
            frames = frames_until(late, "chat")
            while len([f for f in frames if f["t"] == "chat"]) < 5:
                frames.append(late.receive_json())
            texts = [f["d"]["text"] for f in frames if f["t"] == "chat"]
            assert texts == ["have a good game", "line 0", "line 1", "line 2", "line 3"]
            late.send_json({"t": "chat", "d": {"text": "hello from the gallery"}})
            refused = frames_until(late, "error")[-1]["d"]  # spectators watch (docs/SERVER.md §5)
            assert refused["status"] == 403 and "only its players chat" in refused["message"]


def test_the_chat_limit_is_the_seats_and_a_new_connection_does_not_reset_it(client):
    """Before, each connection had its own count: reconnecting sent 200 lines in 2.4 s."""
    table = Table(client, size=9)
    url = f"/ws/game/{table.id}?token={table.tokens['black']}"
    for n in range(6):
        with client.websocket_connect(url) as black:
            black.receive_json()
            black.send_json({"t": "chat", "d": {"text": f"line {n}"}})
            answer = frames_until(black, "chat" if n < 5 else "error")[-1]
    assert answer["d"]["limit"] == "chat"
    with client.websocket_connect(f"/ws/game/{table.id}?token={table.tokens['white']}") as white:
        white.receive_json()
        white.send_json({"t": "chat", "d": {"text": "my own count"}})
        while (frame := white.receive_json())["t"] != "error" and frame["d"].get("text") != "my own count":
            pass
        assert frame["t"] == "chat"


BAD_FRAMES = [
    ("not json", "JSON"),
    ("[1]", "object"),
    ('{"d": {}}', "'t'"),
    ('{"t": 5}', "'t'"),
    ('{"t": "fly"}', "fly"),
    ('{"t": "ping", "x": 1}', "'x'"),
    ('{"t": "play", "d": {"move": "E5"}}', "'v'"),
    ('{"t": "chat", "d": {"text": ""}}', "text"),
    ('{"t": "auth", "d": {"token": 5}}', "token"),
    ('{"t": "auth", "d": {"token": "wrong"}}', "token"),
    ('{"t": "play", "d": {"move": "E5", "v": 0, "a": "\\ud800"}}', "surrogate"),  # was a 503 reject
    ('{"t": "chat", "d": {"text": "\\udfff"}}', "surrogate"),
    ('{"t": "chat", "d": {"text": "' + "x" * 17000 + '"}}', "limit"),
]


@pytest.mark.parametrize(("text", "word"), BAD_FRAMES)
def test_a_bad_frame_gets_an_error_frame_and_the_connection_stays(client, text, word):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}?v=0") as ws:
        ws.receive_json()
        ws.send_text(text)
        error = frames_until(ws, "error")[-1]["d"]
        assert 400 <= error["status"] < 500 and word.lower() in error["message"].lower()
        ws.send_json({"t": "ping"})
        assert frames_until(ws, "pong")[-1]["d"]["server_ms"] > 0


def test_a_binary_frame_is_refused_with_an_error_frame(client):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}?v=0") as ws:
        ws.receive_json()
        ws.send_bytes(json.dumps({"t": "ping"}).encode())
        assert "binary" in frames_until(ws, "error")[-1]["d"]["message"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/ws/game/nosuchgame", 404, 4404),
        ("/ws/game/{id}?v=abc", 400, 1008),
        ("/ws/game/{id}?v=%C2%B2", 400, 1008),  # "²": str.isdigit but not int() (a dropped socket before)
        ("/ws/game/{id}?token=wrong", 403, 1008),
    ],
)
def test_a_bad_connection_gets_an_error_frame_then_a_close(client, path, status, code):
    table = Table(client, size=9)
    with client.websocket_connect(path.replace("{id}", table.id)) as ws:
        assert ws.receive_json()["d"]["status"] == status
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == code


def test_chat_is_kept_with_the_game_across_a_restart_with_names_and_written_into_the_sgf(db):
    """Chat lines are kept in the database (migration 0004): a server started again on the same
    database shows them to a newcomer, each with the speaker's name, time and the move at which
    it was said; the SGF has them as comments on those moves (issue 40)."""
    from miai.sgf import read_record
    from tests.server.browsers import Browser
    from tests.server.conftest import make_client

    with make_client(db) as client:
        alice = Browser(client)
        name = alice.me()["name"]  # a guest's name, on the seat of the game she creates
        created = alice.post("/api/games", json={"size": 9}).json()
        game, tokens = created["id"], {c: created[f"{c}_token"] for c in ("black", "white")}
        with client.websocket_connect(f"/ws/game/{game}?token={tokens['black']}") as black:
            black.receive_json()
            black.send_json({"t": "chat", "d": {"text": "good luck"}})
            said = frames_until(black, "chat")[-1]["d"]
            assert said["name"] == name and said["move"] == 0 and said["at_ms"] > 0
            for v, (color, move) in enumerate([("black", "E5"), ("white", "C3")]):
                auth = {"Authorization": f"Bearer {tokens[color]}"}
                assert client.post(f"/api/games/{game}/play", json={"move": move, "v": v}, headers=auth).status_code == 200
            black.send_json({"t": "chat", "d": {"text": "nice move"}})
            assert frames_until(black, "chat")[-1]["d"]["move"] == 2
    with make_client(db) as client:  # a new server on the same database: the room is loaded again
        with client.websocket_connect(f"/ws/game/{game}") as late:
            frames = frames_until(late, "chat")
            frames.append(late.receive_json())
            lines = [f["d"] for f in frames if f["t"] == "chat"]
        assert [(line["name"], line["text"], line["move"]) for line in lines] == [(name, "good luck", 0), (name, "nice move", 2)]
        record = read_record(client.get(f"/api/games/{game}/sgf").text)
    assert record.root.get("C") == f"{name}: good luck"
    second = record.root.children[0].children[0]
    assert second.get("W") == "cg" and second.get("C") == f"{name}: nice move"
