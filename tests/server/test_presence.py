"""Presence and the claim of an abandoned game (miai.server.play.claims, docs/SERVER.md §3.4), with a
fake clock: the countdown, HTTP seats that are not gone, WebSocket seats, a void game before the
second move, who may claim, the presence frames, and a restart that starts the countdown again."""

from __future__ import annotations

import pytest

from miai.coords import Color
from miai.server.play.claims import Attendance
from miai.testing.manualtime import ManualTime
from tests.server.compute.test_computer import HeldExecutor
from tests.server.conftest import Table, make_client
from tests.server.play.test_undo import wait_for_jobs
from tests.server.test_ws import frames_until

ABANDON = 60_000


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
def client(db, clock):
    with make_client(db, time=clock, abandon_ms=ABANDON) as c:
        yield c


def claim(table: Table, seat: str | None, **fields):
    return table.send(seat, "claim", **fields)


# ---------------------------------------------------------------------- the attendance alone
def test_attendance_counts_from_the_last_sight_and_not_while_connected():
    seen = Attendance(1000)
    assert seen.gone_ms(Color.WHITE, set(), 4000) == 3000
    assert seen.gone_ms(Color.WHITE, {Color.WHITE}, 4000) is None
    assert seen.seen(Color.WHITE, 1500) is False  # within a second: not worth a notice
    assert seen.seen(Color.WHITE, 5000) is True
    seen.left(Color.WHITE, 4000)  # an older moment never moves the last sight back
    assert seen.gone_ms(Color.WHITE, set(), 6000) == 1000
    assert seen.to_json({Color.BLACK}, {Color.BLACK, Color.WHITE}, 6000, ABANDON) == {
        "white": {"gone_ms": 1000, "claim_at_ms": 5000 + ABANDON}
    }
    assert seen.to_json(set(), {Color.BLACK}, 6000, ABANDON) == {"black": {"gone_ms": 5000, "claim_at_ms": 1000 + ABANDON}}


# ---------------------------------------------------------------------- over HTTP
def test_a_claim_opens_after_the_countdown_and_the_gone_seat_forfeits(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")  # White to move, and White stops coming
    clock.advance(ABANDON // 2)
    early = claim(table, "black")
    assert early.status_code == 422 and early.json()["reason"] == "not-gone-yet"
    assert early.json()["claim_in_ms"] == ABANDON // 2 and "30.0 s" in early.json()["message"]
    clock.advance(ABANDON // 2)
    answer = claim(table, "black")
    assert answer.status_code == 200 and answer.json() == {"v": 4}
    event = table.events()[-1]
    assert event["kind"] == "abandon" and event["color"] == "black" and event["gone"] == "white"
    assert event["result"] == "B+F" and event["gone_ms"] == ABANDON
    state = table.state()
    assert (state["phase"], state["result"], state["end_reason"]) == ("finished", "B+F", "abandoned")
    assert "RE[B+F]" in client.get(f"{table.url}/sgf").text
    again = claim(table, "black", v=3)  # a retry: answered again, nothing applied twice
    assert again.json() == {"v": 4} and table.v == 4
    over = claim(table, "white")
    assert over.status_code == 422 and over.json()["reason"] == "wrong-phase"


def test_a_seat_that_acts_or_reads_over_http_is_not_gone(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    clock.advance(50_000)
    table.client.get(table.url, headers=table.auth("white"))  # a bot reading the game with its token
    clock.advance(50_000)
    answer = claim(table, "black")
    assert answer.status_code == 422 and answer.json()["claim_in_ms"] == 10_000
    table.play("white", "F6")  # an action refreshes too
    table.play("black", "G7")
    clock.advance(ABANDON - 1000)
    answer = claim(table, "black")
    assert answer.status_code == 422 and answer.json()["claim_in_ms"] == 1000
    table.play("white", "H8")  # now it is Black's turn
    clock.advance(ABANDON)
    table.client.get(f"{table.url}/events", headers=table.auth("black"))
    clock.advance(ABANDON - 1)
    answer = claim(table, "white")
    assert answer.status_code == 422 and answer.json()["claim_in_ms"] == 1
    bad_header = table.client.get(table.url, headers={"Authorization": "Basic xyz"})
    assert bad_header.status_code == 200  # a GET needs no token: a malformed one is ignored
    clock.advance(1)
    assert claim(table, "white").status_code == 200
    assert table.state()["result"] == "W+F"


def test_a_correspondence_game_is_never_claimed_its_clock_decides(client, clock):
    table = Table(client, size=9, time="fischer:3d:1d")
    table.moves("E5 D4 C3")  # White to move, and White is away for hours, as correspondence is played
    clock.advance(10 * ABANDON)
    refused = claim(table, "black")
    assert refused.status_code == 422 and refused.json()["reason"] == "correspondence"
    assert "loses on time" in refused.json()["message"]
    assert table.state()["phase"] == "play"
    with client.websocket_connect(f"/ws/game/{table.id}?token={table.tokens['black']}") as ws:
        hello = ws.receive_json()
    assert hello["d"]["presence"]["gone"] == {}  # the page offers no claim


def test_only_the_player_whose_turn_it_is_can_be_claimed_against(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4")  # Black to move; White is away but waits for Black
    clock.advance(10 * ABANDON)
    answer = claim(table, "black")
    assert answer.status_code == 422 and answer.json()["reason"] == "not-their-turn"


@pytest.mark.parametrize(("moves", "claimer"), [("", "white"), ("E5", "black")])
def test_before_the_second_move_the_game_is_void(client, clock, moves, claimer):
    table = Table(client, size=9)
    table.moves(moves)
    table.state()  # the room is loaded (the countdown starts) no later than now
    clock.advance(ABANDON)
    assert claim(table, claimer).status_code == 200
    state = table.state()
    assert state["result"] == "Void" and state["end_reason"] == "abandoned" and state["phase"] == "finished"
    assert table.events()[-1]["result"] == "Void"


def test_spectators_cannot_claim(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    clock.advance(2 * ABANDON)
    assert claim(table, None).status_code == 403
    assert table.state()["phase"] == "play"


def test_a_claim_cancels_a_pending_undo_request(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    assert table.send("black", "undo").status_code == 200  # White to answer, and gone
    clock.advance(ABANDON)
    assert claim(table, "black").status_code == 200
    event = table.events()[-1]
    assert event["kind"] == "abandon" and event["cancels_undo"] == 4
    assert table.state()["undo_request"] is None


def test_a_computer_seat_never_goes(db, clock):
    held = HeldExecutor()
    with make_client(db, executor=held, time=clock, abandon_ms=ABANDON) as client:
        table = Table(client, size=9, white="computer:1")
        table.play("black", "E5")
        wait_for_jobs(held)  # White (the computer) is to move and thinking
        clock.advance(10 * ABANDON)
        answer = claim(table, "black")
        assert answer.status_code == 422 and answer.json()["reason"] == "computer"
        with client.websocket_connect(f"/ws/game/{table.id}") as watcher:
            gone = watcher.receive_json()["d"]["presence"]["gone"]
            assert gone == {"black": {"gone_ms": 0, "claim_at_ms": clock.wall_ms() + ABANDON}}  # the claim was a sight
            assert "white" not in gone  # a computer seat has no countdown


def test_presence_is_not_kept_across_a_restart(db, clock):
    with make_client(db, time=clock, abandon_ms=ABANDON) as client:
        table = Table(client, size=9)
        table.moves("E5 D4 C3")
        clock.advance(ABANDON - 1000)
    with make_client(db, time=clock, abandon_ms=ABANDON) as client:
        table.client = client
        table.state()  # this process loads the game
        clock.advance(2000)  # gone 61 s in all, but only 2 s since this process loaded the game
        answer = claim(table, "black")
        assert answer.status_code == 422 and answer.json()["claim_in_ms"] == ABANDON - 2000


# ---------------------------------------------------------------------- over the WebSocket
def test_a_connected_seat_is_present_and_the_countdown_starts_when_it_leaves(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    ws = f"/ws/game/{table.id}?v=3&token="
    with client.websocket_connect(ws + table.tokens["black"]) as black:
        hello = black.receive_json()["d"]
        start = clock.wall_ms()
        assert hello["presence"]["gone"] == {"white": {"gone_ms": 0, "claim_at_ms": start + ABANDON}}
        with client.websocket_connect(ws + table.tokens["white"]):
            clock.advance(1_000)  # presence notices are paced (one a second): White's comes now
            joined = frames_until(black, "presence")[-1]["d"]
            assert joined["white"] is True and joined["gone"] == {}
            clock.advance(5 * ABANDON)
            black.send_json({"t": "claim", "d": {"v": 3, "a": "c1"}})
            reject = frames_until(black, "reject")[-1]["d"]
            assert reject["status"] == 422 and reject["reason"] == "opponent-present" and reject["a"] == "c1"
        left = frames_until(black, "presence")[-1]["d"]
        assert left["white"] is False
        assert left["gone"] == {"white": {"gone_ms": 0, "claim_at_ms": clock.wall_ms() + ABANDON}}
        clock.advance(ABANDON - 1)
        black.send_json({"t": "claim", "d": {"v": 3}})
        reject = frames_until(black, "reject")[-1]["d"]
        assert reject["reason"] == "not-gone-yet" and reject["claim_in_ms"] == 1
        clock.advance(1)
        black.send_json({"t": "claim", "d": {"v": 3, "a": "c2"}})
        assert frames_until(black, "ack")[-1]["d"] == {"v": 4, "a": "c2"}
    assert table.state()["result"] == "B+F"


def test_a_spectators_claim_frame_is_refused(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    clock.advance(2 * ABANDON)
    with client.websocket_connect(f"/ws/game/{table.id}?v=3") as watcher:
        watcher.send_json({"t": "claim", "d": {"v": 3}})
        assert frames_until(watcher, "reject")[-1]["d"]["status"] == 403
    assert table.state()["phase"] == "play"


def test_a_seat_seen_over_http_is_announced_to_the_watchers(client, clock):
    table = Table(client, size=9)
    table.moves("E5 D4 C3")
    with client.websocket_connect(f"/ws/game/{table.id}?v=3") as watcher:
        assert watcher.receive_json()["d"]["presence"]["gone"]["white"]["gone_ms"] == 0
        clock.advance(20_000)
        table.play("white", "F6")  # White plays over HTTP after 20 s: the watchers learn it is back
        presence = frames_until(watcher, "presence")[-1]["d"]  # within presence_interval_ms of the join
        assert presence["gone"]["white"] == {"gone_ms": 0, "claim_at_ms": clock.wall_ms() + ABANDON}


def test_in_the_marking_phase_the_seat_whose_step_it_is_can_be_claimed_against(client, clock):
    table = Table(client, size=9, rules="japanese")
    table.moves("E5 D4 pass pass")  # Black passed first: Black's step (the first proposal)
    assert table.state()["phase"] == "marking"
    assert claim(table, "black").json()["reason"] == "not-their-turn"  # (a sighting of Black too)
    clock.advance(ABANDON - 1)
    assert claim(table, "white").json()["claim_in_ms"] == 1
    clock.advance(1)
    assert claim(table, "white").status_code == 200
    state = table.state()
    assert (state["result"], state["end_reason"]) == ("W+F", "abandoned")
