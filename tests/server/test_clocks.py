"""Clocks through the server (docs/SERVER.md §1.5), with a fake time (:class:`ManualTime`):
every time system, the flag by the server's timer, the lag, the marking pause and timer, a
restart that charges nobody, and the clocks in GET, events and the SGF record."""

from __future__ import annotations

from typing import Any

import pytest

from miai.clock import LagAllowance
from miai.sgf import read_record
from miai.testing.manualtime import ManualTime
from tests.server.conftest import Table, make_client

NO_LAG = LagAllowance.none()


@pytest.fixture
def fake() -> ManualTime:
    return ManualTime()


def started(client, time: str, **settings: Any) -> Table:
    """A 9x9 game under ``time`` where each side has made its first move: Black's clock runs."""
    table = Table(client, size=9, time=time, **settings)
    table.moves("E5 D4")
    assert table.state()["clocks"]["ticking"] == "black"
    return table


def clocks(table: Table) -> dict[str, Any]:
    return table.state()["clocks"]


def left(table: Table, color: str) -> tuple[int, int]:
    tl = clocks(table)["time_left"][color]
    return tl["ms"], tl["stones"]


# ---------------------------------------------------------------------- creating
@pytest.mark.parametrize(
    ("text", "stored", "describe"),
    [
        ("none", "none", "no time limit"),
        ("300", "absolute:300", "5:00"),
        ("byoyomi:300:30:5", "byoyomi:300:30:5", "5:00 + 5×30 s"),
        ("canadian:600:300:25", "canadian:600:300:25", "10:00 + 25 stones in 5:00"),
        ("fischer:300:10:600", "fischer:300:10:600", "5:00 + 10 s per move (at most 10:00)"),
        ("Simple:5", "simple:5", "5 s per move"),
    ],
)
def test_every_match_time_form_is_accepted(client, text, stored, describe):
    state = Table(client, size=9, time=text).state()
    assert state["time"] == stored
    assert state["clocks"]["control"] == stored and state["clocks"]["describe"] == describe
    assert state["clocks"]["ticking"] is None  # nobody has moved yet


# ---------------------------------------------------------------------- the time systems
def test_absolute(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "absolute:60")
        fake.advance(7_250)
        assert clocks(table)["remaining_ms"] == {"black": 52_750, "white": 60_000}
        table.play("black", "C3")
        state = clocks(table)
        assert state["ticking"] == "white" and state["black"]["main_ms"] == 52_750
        fake.advance(1_000)
        assert clocks(table)["remaining_ms"] == {"black": 52_750, "white": 59_000}


def test_byoyomi_periods_reset_and_run_out(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "byoyomi:2:1:3")
        fake.advance(2_500)  # all the main time and half of a period: the period is kept
        assert left(table, "black") == (500, 3)
        table.play("black", "C3")
        assert left(table, "black") == (1_000, 3)  # a fresh period for the next move
        table.play("white", "C4")
        fake.advance(1_600)  # one period overrun: two left
        table.play("black", "G7")
        assert left(table, "black") == (1_000, 2)
        assert clocks(table)["black"]["periods"] == 2


def test_canadian_stones(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "canadian:1:10:2")
        fake.advance(1_500)
        table.play("black", "C3")
        assert left(table, "black") == (9_500, 1)
        table.play("white", "C4")
        fake.advance(2_000)
        table.play("black", "G7")  # the period's last stone: a fresh period of 2 stones
        assert left(table, "black") == (10_000, 2)


def test_fischer_increment_capped(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "fischer:10:5:12")
        fake.advance(1_000)
        table.play("black", "C3")  # 10 - 1 + 5 = 14, capped at 12
        assert clocks(table)["black"]["main_ms"] == 12_000
        table.play("white", "C4")
        fake.advance(8_000)
        table.play("black", "G7")  # 12 - 8 + 5
        assert clocks(table)["black"]["main_ms"] == 9_000


def test_simple_time_is_not_kept(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "simple:5")
        fake.advance(4_900)
        table.play("black", "C3")
        table.play("white", "C4")
        assert clocks(table)["remaining_ms"]["black"] == 5_000
        fake.advance(5_001)  # the timer: 1 ms over the time per move
        state = table.state()
        assert (state["phase"], state["result"]) == ("finished", "W+T")


# ---------------------------------------------------------------------- the flag
def test_the_flag_falls_by_the_servers_timer(db, fake):
    with make_client(db, time=fake) as client:  # the default lag bank: 1.5 s
        table = started(client, "absolute:10")
        v = table.v
        fake.advance(11_500)  # 10 s and the whole lag bank: still on time
        assert table.state()["phase"] == "play"
        fake.advance(1)  # nobody sends anything: the server's timer flags
        state = table.state()
        assert (state["phase"], state["result"], state["v"]) == ("finished", "W+T", v + 1)
        flag = table.events(after=v)[0]
        assert (flag["kind"], flag["color"], flag["result"]) == ("flag", "black", "W+T")
        assert flag["clock"]["flagged"] == "black" and flag["clock"]["remaining_ms"]["black"] == 0
        assert fake.pending == []  # no timer is left
        answer = table.send("black", "play", move="C3")
        assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"


def test_a_move_with_exactly_no_time_left_is_on_time(db, fake):
    with make_client(db, time=fake) as client:
        table = started(client, "absolute:10")
        fake.advance(10_000)
        table.play("black", "C3")
        state = table.state()
        assert state["phase"] == "play" and state["clocks"]["black"]["main_ms"] == 0


def test_a_move_1_ms_late_is_refused_and_the_game_ends_on_time(db, fake):
    with make_client(db, time=fake) as client:
        table = started(client, "absolute:10")
        v = table.v
        fake.advance(10_001)  # within the lag bank, so no flag yet, but no lag is claimed
        answer = table.send("black", "play", move="C3", v=v)
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["reason"] == "out-of-time" and body["result"] == "W+T" and body["v"] == v + 1
        state = table.state()
        assert (state["phase"], state["result"], state["moves"]) == ("finished", "W+T", ["E5", "D4"])
        assert [e["kind"] for e in table.events(after=v)] == ["flag"]


def test_a_move_after_the_deadline_is_refused_even_if_the_timer_is_late(db, fake):
    with make_client(db, time=fake) as client:
        table = started(client, "absolute:10")
        fake.advance(11_501, fire=False)  # past the deadline; the timer has not run yet
        answer = table.send("black", "play", move="C3", l=5_000)
        assert answer.status_code == 422 and answer.json()["reason"] == "out-of-time"
        assert table.state()["result"] == "W+T"
        fake.advance(0)  # the late timer finds the game over and does nothing
        assert [e["kind"] for e in table.events()][-1] == "flag" and len(table.events()) == 3


def test_lag_within_and_beyond_the_allowance(db, fake):
    with make_client(db, time=fake, lag_allowance=LagAllowance(gain_ms=500, max_ms=2_000, start_ms=1_500)) as client:
        table = started(client, "absolute:10")
        fake.advance(1_000)
        table.play("black", "C3", l=800)  # 800 ms excused: 200 ms charged
        state = clocks(table)
        assert state["black"]["main_ms"] == 9_800 and state["black"]["lag_bank_ms"] == 1_200
        table.play("white", "C4")
        fake.advance(1_000)
        table.play("black", "G7", l=5_000)  # the bank (1.2 s) caps what is excused
        state = clocks(table)
        assert state["black"]["main_ms"] == 9_800 and state["black"]["lag_bank_ms"] == 500
        table.play("white", "G6")
        fake.advance(10_200)  # 400 ms over: the 300 ms of lag claimed do not cover it
        answer = table.send("black", "play", move="B2", l=300)
        assert answer.status_code == 422 and answer.json()["reason"] == "out-of-time"
        assert table.state()["result"] == "W+T"


def test_a_bad_lag_is_a_400(client):
    table = Table(client, size=9, time="absolute:60")
    for lag in (-1, 10_001, "5", 1.5, True):
        answer = table.send("black", "play", move="E5", l=lag)
        assert answer.status_code == 400 and "'l'" in answer.json()["message"], answer.text


# ---------------------------------------------------------------------- marking
def to_marking(table: Table) -> None:
    table.moves("E5 D4 C3 pass pass")  # White passes first
    assert table.state()["phase"] == "marking"


def test_marking_pauses_the_clocks_and_refusal_resumes_them(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG, marking_timer_ms=600_000) as client:
        table = Table(client, size=9, rules="japanese", time="absolute:60")
        table.moves("E5 D4")
        fake.advance(3_000)
        table.play("black", "C3")
        fake.advance(2_000)
        table.play("white", "pass")
        fake.advance(1_000)
        table.play("black", "pass")
        state = clocks(table)
        assert state["paused"] and state["ticking"] is None
        assert state["remaining_ms"] == {"black": 56_000, "white": 58_000}
        fake.advance(300_000)  # marking costs nobody anything
        assert clocks(table)["remaining_ms"] == {"black": 56_000, "white": 58_000}
        table.send("white", "dead", dead=[])
        table.send("black", "dead", dead=["D4"])
        assert table.send("white", "refuse").status_code == 200
        state = table.state()
        assert state["phase"] == "play" and state["clocks"]["ticking"] == state["to_move"] == "white"
        fake.advance(4_000)
        assert clocks(table)["remaining_ms"] == {"black": 56_000, "white": 54_000}


def test_the_marking_timer_accepts_the_pending_proposal(db, fake):
    with make_client(db, time=fake, marking_timer_ms=60_000) as client:
        table = Table(client, size=9, rules="japanese", time="absolute:600")
        to_marking(table)
        fake.advance(59_000)
        table.send("white", "dead", dead=["C3"])  # every marking event restarts the timer
        fake.advance(59_999)
        assert table.state()["phase"] == "marking"
        v = table.v
        fake.advance(1)
        state = table.state()
        assert state["phase"] == "finished" and state["v"] == v + 1
        (accept,) = table.events(after=v)
        assert (accept["kind"], accept["color"], accept["auto"]) == ("accept", "black", "marking-timer")
        assert accept["score"]["dead"] == ["C3"]


def test_the_marking_timer_with_no_proposal_counts_every_stone_alive(db, fake):
    with make_client(db, time=fake, marking_timer_ms=60_000) as client:
        table = Table(client, size=9, rules="japanese", time="absolute:600")
        to_marking(table)
        v = table.v
        fake.advance(60_000)
        propose, accept = table.events(after=v)
        assert (propose["kind"], propose["color"], propose["dead"], propose["auto"]) == ("propose", "white", [], "marking-timer")
        assert (accept["kind"], accept["color"], accept["auto"]) == ("accept", "black", "marking-timer")
        assert table.state()["phase"] == "finished" and accept["score"]["dead"] == []


def test_an_untimed_game_has_no_clocks_but_its_marking_phase_has_a_timer(db, fake):
    with make_client(db, time=fake, marking_timer_ms=1_000) as client:
        table = Table(client, size=9, rules="japanese")
        table.moves("E5 D4")
        assert fake.pending == []  # no clock runs: no flag timer in play
        table.moves("C3 pass pass")
        assert table.state()["phase"] == "marking"
        fake.advance(999)
        assert table.state()["phase"] == "marking"
        fake.advance(1)
        assert table.state()["phase"] == "finished"
        assert all("clock" not in e for e in table.events())


def test_a_game_in_its_marking_phase_is_loaded_at_start_up_so_its_timer_runs(db, fake):
    with make_client(db, time=fake, marking_timer_ms=1_000) as client:
        table = Table(client, size=9, rules="japanese")
        to_marking(table)
        game = table.id
    fake.advance(5_000)  # the server is down: its marking timer did not fire
    with make_client(db, time=fake, marking_timer_ms=1_000) as client:
        fake.advance(1_000)  # no request for the game: only a loaded room's timer can end it
        assert client.get(f"/api/games/{game}").json()["phase"] == "finished"


# ---------------------------------------------------------------------- restarts
def test_a_restart_charges_nobody_and_says_so(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "absolute:60")
        fake.advance(5_000)
        table.play("black", "C3")
        fake.advance(2_000)  # White thinks; then the server stops
        before = table.state()
    fake.advance(3_600_000)  # an hour with no server: no timer is left to fire
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        # start-up loaded the game (its clock runs) and noted the downtime
        registry = client.app.state.server.registry
        assert table.id in registry.rooms
        table.client = client
        after = table.state()
        assert after["v"] == before["v"] + 1
        note = table.events(after=before["v"])[0]
        assert (note["kind"], note["reason"], note["downtime_ms"]) == ("clock", "server-restart", 3_602_000)
        assert after["clocks"]["ticking"] == "white"
        # White's time is what it was at the last event: neither the 2 s before the stop
        # nor the hour is charged
        assert after["clocks"]["remaining_ms"] == {"black": 55_000, "white": 60_000}
        for key in ("moves", "stones", "captures", "to_move", "phase"):
            assert after[key] == before[key]
        fake.advance(60_000)
        assert table.state()["phase"] == "play"
        fake.advance(1)  # the timer armed at start-up flags
        assert table.state()["result"] == "B+T"


def test_a_flagged_game_reloads_the_same(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "absolute:5")
        fake.advance(5_001)
        before = table.state()
    with make_client(db, time=fake) as client:
        table.client = client
        after = table.state()
        assert after["result"] == before["result"] == "W+T" and after["v"] == before["v"]
        assert after["clocks"]["flagged"] == "black"


def test_rooms_with_running_clocks_are_not_unloaded(db, fake):
    with make_client(db, time=fake, max_idle_rooms=1) as client:
        timed = started(client, "absolute:600")
        untimed = Table(client, size=9)
        untimed.state()  # one room too many: the oldest idle one is unloaded
        rooms = client.app.state.server.registry.rooms
        assert timed.id in rooms and untimed.id not in rooms


# ---------------------------------------------------------------------- what clients see
def test_events_carry_the_clocks_after_them(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "byoyomi:30:10:3")
        fake.advance(4_000)
        table.play("black", "C3")
        last = table.events()[-1]
        clock = last["clock"]
        assert clock["ticking"] == "white" and clock["running"] == "white" and not clock["paused"]
        assert clock["black"]["main_ms"] == 26_000 and clock["black"]["periods"] == 3
        assert clock["time_left"]["black"] == {"ms": 26_000, "stones": 0}
        assert clock["remaining_ms"] == {"black": 56_000, "white": 60_000}
        assert clock["control"] == "byoyomi:30:10:3" and clock["describe"] == "30 s + 3×10 s"


def test_the_sgf_carries_the_time_control_and_times_left(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "byoyomi:10:5:3")
        fake.advance(12_000)
        table.play("black", "C3")
        answer = client.get(f"{table.url}/sgf")
        assert answer.status_code == 200
        record = read_record(answer.text)
        root = record.root.properties
        assert root["TM"] == ["10"] and root["OT"] == ["3x5 byo-yomi"]
        nodes = record.main_line
        assert nodes[1].properties["BL"] == ["10"] and nodes[2].properties["WL"] == ["10"]
        assert nodes[3].properties["BL"] == ["5"] and nodes[3].properties["OB"] == ["3"]
