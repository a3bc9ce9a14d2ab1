"""Undo by request and answer (miai.server.play.undo, docs/SERVER.md §3.3): who asked and which moves,
accept (one move or two), refuse, cancelled by any other action, only the other seat answers,
only in play, free against the computer, retries, the WebSocket, and replay after a reload."""

from __future__ import annotations

import time

import pytest

from miai import Game, Rules
from miai.coords import Color, point_to_gtp
from miai.game import GameSpec
from miai.server.play.events import EventKind, rebuild
from miai.server.play.undo import MAX_UNDO_REQUESTS
from miai.server.wire.forms import vertices
from tests.server.compute.test_computer import HeldExecutor
from tests.server.conftest import Table, make_client
from tests.server.test_ws import frames_until


def replay(size: int, rules: str, moves: str) -> Game:
    game = Game(size, Rules.parse(rules))
    for m in moves.split():
        game.play(m)
    return game


def position(game: Game) -> dict:
    return {"black": vertices(game.board.stones(Color.BLACK)), "white": vertices(game.board.stones(Color.WHITE))}


def assert_replays(table: Table) -> None:
    """The log replayed through miai.Game equals the live game the server shows."""
    state = table.state()
    events = table.events()
    game = rebuild(
        GameSpec(state["size"], Rules.parse(state["rules"]), state["handicap"]),
        [(EventKind(e["kind"]), e) for e in events],
    )
    assert state["stones"] == position(game)
    assert state["moves"] == [point_to_gtp(m.point) for m in game.moves]
    assert state["captures"] == {"black": game.captures(Color.BLACK), "white": game.captures(Color.WHITE)}
    assert state["phase"] == game.phase.value
    if state["phase"] == "play":
        assert state["to_move"] == str(game.to_move)


# ---------------------------------------------------------------------- request and answer
def test_a_request_names_who_asked_and_which_move_and_accepting_takes_it_back(client):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    answer = table.send("black", "undo")
    assert answer.status_code == 200 and answer.json() == {"v": 4}
    request = table.events()[-1]
    assert (request["kind"], request["color"], request["moves"]) == ("undo-request", "black", [3])
    assert table.state()["undo_request"] == {"by": "black", "moves": [3], "v": 4}
    assert table.state()["moves"] == ["E5", "D4", "C3"]  # nothing changes before the answer

    assert table.send("white", "undo-answer", accept=True).json() == {"v": 5}
    undo = table.events()[-1]
    assert undo["kind"] == "undo" and undo["color"] == "white" and undo["requested_by"] == "black"
    assert undo["moves"] == [3] and undo["request_v"] == 4 and undo["free"] is False
    expected = replay(9, "chinese", "E5 D4")
    state = table.state()
    assert state["moves"] == ["E5", "D4"] and state["to_move"] == "black" and state["undo_request"] is None
    assert state["stones"] == undo["stones"] == position(expected)
    assert undo["to_move"] == "black"
    table.play("black", "G7")  # play goes on from the position before C3
    assert table.state()["moves"] == ["E5", "D4", "G7"]
    assert_replays(table)


def test_a_seat_asks_to_take_back_the_same_move_three_times_at_most(client):
    """An undo/accept loop wrote 15,000 events to one game in 46 s: now each seat asks at most
    MAX_UNDO_REQUESTS times per move, granted or refused, and the game stays small."""
    table = Table(client, size=9)
    table.moves("E5 D4")
    table.play("black", "C3")
    assert table.send("black", "undo").status_code == 200
    table.send("white", "undo-answer", accept=False)  # a refused request counts too
    table.play("white", "pass")
    for _ in range(MAX_UNDO_REQUESTS - 1):
        assert table.send("black", "undo").json()["v"] == table.v  # C3 and the pass: move 3 again
        table.send("white", "undo-answer", accept=True)
        table.play("black", "C3")
        table.play("white", "pass")
    v = table.v
    refused = table.send("black", "undo")
    assert refused.status_code == 422, refused.text
    assert refused.json()["reason"] == "undo-limit" and "move 3" in refused.json()["message"]
    assert table.v == v  # nothing written
    table.play("black", "G7")
    assert table.send("black", "undo").status_code == 200  # another move: its own count


def test_after_the_opponents_reply_both_moves_go_and_captures_come_back(client):
    table = Table(client, size=5, rules="japanese")
    table.moves("A2 A1 B1 C3")  # Black's B1 takes White's A1; White replies C3
    assert table.state()["captures"]["black"] == 1
    assert table.send("black", "undo").status_code == 200  # on Black's own turn
    assert table.events()[-1]["moves"] == [3, 4]
    assert table.send("white", "undo-answer", accept=True).status_code == 200
    state = table.state()
    expected = replay(5, "japanese", "A2 A1")
    assert state["moves"] == ["A2", "A1"] and state["to_move"] == "black"
    assert state["captures"] == {"black": 0, "white": 0} == table.events()[-1]["captures"]
    assert state["stones"] == position(expected) and "A1" in state["stones"]["white"]
    assert_replays(table)


def test_a_refusal_changes_nothing_and_says_whose_request_it_was(client):
    table = Table(client, size=9)
    table.moves("E5 D4")
    assert table.send("white", "undo").status_code == 200
    assert table.send("black", "undo-answer", accept=False).json() == {"v": 4}
    refused = table.events()[-1]
    assert refused["kind"] == "undo-refused" and refused["color"] == "black"
    assert refused["requested_by"] == "white" and refused["moves"] == [2] and refused["request_v"] == 3
    state = table.state()
    assert state["moves"] == ["E5", "D4"] and state["to_move"] == "black" and state["undo_request"] is None
    table.play("black", "C3")
    assert_replays(table)


@pytest.mark.parametrize(("who", "action", "fields"), [
    ("white", "play", {"move": "C3"}),   # the other seat plays instead of answering
    ("white", "play", {"move": "pass"}),
    ("white", "resign", {}),
    ("black", "resign", {}),             # the one who asked resigns
])
def test_any_other_action_cancels_a_pending_request_and_says_so(client, who, action, fields):
    table = Table(client, size=9)
    table.moves("E5 D4 F6")
    assert table.send("black", "undo").json() == {"v": 4}
    answer = table.post(who, action, {**fields, "v": 4})
    assert answer.status_code == 200, answer.text
    event = table.events()[-1]
    assert event["v"] == 5 and event["cancels_undo"] == 4
    assert table.state()["undo_request"] is None
    late = table.send("white", "undo-answer", accept=True)
    assert late.status_code == 422 and late.json()["reason"] == "no-undo-request"
    assert len(table.state()["moves"]) >= 3
    assert_replays(table)


def test_an_event_with_no_request_pending_cancels_nothing(client):
    table = Table(client, size=9)
    table.moves("E5 D4")
    assert all("cancels_undo" not in e for e in table.events())


def test_nobody_answers_their_own_request_nor_asks_over_a_pending_one(client):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    assert table.send("black", "undo").status_code == 200
    own = table.send("black", "undo-answer", accept=True)
    assert own.status_code == 422 and own.json()["reason"] == "own-request"
    assert "White" in own.json()["message"]
    again = table.send("black", "undo")
    assert again.status_code == 422 and again.json()["reason"] == "undo-pending"
    other = table.send("white", "undo")
    assert other.status_code == 422 and other.json()["reason"] == "undo-pending"
    assert "answer that request first" in other.json()["message"]
    assert table.state()["moves"] == ["E5", "D4", "C3"] and table.v == 4
    spectator = table.send(None, "undo-answer", accept=True)
    assert spectator.status_code == 403


def test_nothing_of_ones_own_to_take_back(client):
    table = Table(client, size=9)
    for seat in ("black", "white"):
        answer = table.send(seat, "undo")
        assert answer.status_code == 422 and answer.json()["reason"] == "nothing-to-undo"
    table.moves("E5")
    answer = table.send("white", "undo")  # White's turn, but White has not moved yet
    assert answer.status_code == 422 and "White has no move" in answer.json()["message"]
    no_request = table.send("white", "undo-answer", accept=True)
    assert no_request.status_code == 422 and no_request.json()["reason"] == "no-undo-request"
    assert table.v == 1


def test_no_undo_in_the_marking_phase_nor_after_the_end(client):
    table = Table(client, size=9, rules="japanese")
    table.moves("E5 D4 pass pass")
    assert table.state()["phase"] == "marking"
    for seat in ("black", "white"):
        answer = table.send(seat, "undo")
        assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"
        assert "marking" in answer.json()["message"]
    table.post("black", "resign")
    answer = table.send("white", "undo")
    assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"


def test_an_undo_does_not_reopen_the_marking_phase(client):
    table = Table(client, size=9, rules="japanese")
    table.moves("E5 D4 pass pass")  # Black passed first
    table.send("black", "dead", dead=[])
    table.send("white", "dead", dead=["E5"])
    assert table.send("black", "refuse").status_code == 200  # play resumes, Black to move
    answer = table.send("white", "undo")
    assert answer.status_code == 422 and answer.json()["reason"] == "nothing-to-undo"
    assert "marking phase" in answer.json()["message"]
    table.play("black", "C3")
    assert table.send("black", "undo").status_code == 200  # a move after the resumption can go
    assert table.send("white", "undo-answer", accept=True).status_code == 200
    state = table.state()
    assert state["phase"] == "play" and state["moves"] == ["E5", "D4", "pass", "pass"]
    assert_replays(table)


# ---------------------------------------------------------------------- retries and reloads
def test_retries_are_answered_again_and_apply_nothing_twice(client):
    table = Table(client, size=9)
    table.moves("E5 D4")
    first = table.post("white", "undo", {"v": 2, "a": "u1"})
    assert first.json() == {"v": 3}
    assert table.post("white", "undo", {"v": 2, "a": "u1"}).json() == {"v": 3}
    assert table.post("white", "undo", {"v": 2}).json() == {"v": 3}  # the same request again, no id
    assert table.post("black", "undo-answer", {"accept": True, "v": 3}).json() == {"v": 4}
    assert table.post("black", "undo-answer", {"accept": True, "v": 3}).json() == {"v": 4}
    assert table.state()["moves"] == ["E5"]  # one move taken back, not two
    changed = table.post("black", "undo-answer", {"accept": False, "v": 3})  # another answer to it
    assert changed.status_code == 409 and changed.json()["v"] == 4
    reused = table.post("white", "undo", {"v": 4, "a": "u1"})
    assert reused.status_code == 200  # the same id for the same kind of request is a retry
    assert reused.json() == {"v": 3} and table.v == 4
    assert [e["kind"] for e in table.events()] == ["move", "move", "undo-request", "undo"]


def test_a_reloaded_game_equals_the_live_one(db):
    with make_client(db) as client:
        table = Table(client, size=9)
        table.moves("E5 D4 C3 F6")
        table.send("black", "undo")
        table.send("white", "undo-answer", accept=True)
        table.moves("G7 F6")
        table.send("black", "undo")
        table.send("white", "undo-answer", accept=False)
        table.moves("H8")
        table.send("black", "undo")  # left pending
        live = table.state()
        room = client.app.state.server.registry.rooms[table.id]
        live_game = room.game.copy()
    assert live["moves"] == ["E5", "D4", "G7", "F6", "H8"] and live["undo_request"]["moves"] == [5]
    with make_client(db) as client:
        table.client = client
        assert table.state() == live
        room = client.app.state.server.registry.rooms[table.id]
        assert room.game.board == live_game.board and room.game.moves == live_game.moves
        assert table.send("white", "undo-answer", accept=True).status_code == 200  # still pending
        assert table.state()["moves"] == ["E5", "D4", "G7", "F6"]
        assert_replays(table)


# ---------------------------------------------------------------------- the WebSocket
def test_undo_and_its_answer_over_the_websocket(client):
    table = Table(client, size=9)
    table.moves("E5 D4")
    base = f"/ws/game/{table.id}?v=2&token="
    with client.websocket_connect(base + table.tokens["white"]) as white, client.websocket_connect(
        base + table.tokens["black"]
    ) as black:
        white.send_json({"t": "undo", "d": {"v": 2, "a": "w1"}})
        assert frames_until(white, "ack")[-1]["d"] == {"v": 3, "a": "w1"}
        request = frames_until(black, "event")[-1]["d"]
        assert request["kind"] == "undo-request" and request["color"] == "white" and request["moves"] == [2]
        white.send_json({"t": "undo_answer", "d": {"accept": True, "v": 3}})
        reject = frames_until(white, "reject")[-1]["d"]
        assert reject["status"] == 422 and reject["reason"] == "own-request"
        black.send_json({"t": "undo_answer", "d": {"accept": "yes", "v": 3}})
        assert frames_until(black, "error")[-1]["d"]["status"] == 400
        black.send_json({"t": "undo_answer", "d": {"accept": True, "v": 3}})
        assert frames_until(black, "ack")[-1]["d"] == {"v": 4, "a": None}
        undo = frames_until(white, "event")[-1]["d"]
        assert undo["kind"] == "undo" and undo["moves"] == [2] and undo["to_move"] == "white"
    assert table.state()["moves"] == ["E5"]


# ---------------------------------------------------------------------- against the computer
def wait_for_jobs(held: HeldExecutor, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not held.jobs and time.monotonic() < deadline:
        time.sleep(0.01)
    assert held.jobs, "the computer is not thinking"


def test_undo_against_the_computer_is_free_and_its_stale_answer_is_dropped(db):
    held = HeldExecutor()
    with make_client(db, executor=held) as client:
        table = Table(client, size=9, white="computer:1")
        table.play("black", "E5")
        wait_for_jobs(held)  # White thinks about version 1
        answer = table.send("black", "undo")
        assert answer.json() == {"v": 2}
        undo = table.events()[-1]
        assert undo["kind"] == "undo" and undo["free"] is True and undo["moves"] == [1]
        assert undo["color"] == "black" == undo["requested_by"]
        held.release()  # the answer for version 1 comes back: dropped
        time.sleep(0.3)
        assert [e["kind"] for e in table.events()] == ["move", "undo"]
        state = table.state()
        assert state["moves"] == [] and state["to_move"] == "black" and state["undo_request"] is None

        table.play("black", "D4")
        wait_for_jobs(held)
        held.release()  # now the computer replies
        deadline = time.monotonic() + 30
        while table.v < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.events()[-1]["color"] == "white" and table.state()["to_move"] == "black"
        assert table.send("black", "undo").json() == {"v": 5}  # the reply goes too
        undo = table.events()[-1]
        assert undo["kind"] == "undo" and undo["moves"] == [1, 2] and undo["free"] is True
        state = table.state()
        assert state["moves"] == [] and state["to_move"] == "black"
        time.sleep(0.2)
        assert not held.jobs  # the person is to move: the computer does not think
        assert_replays(table)
