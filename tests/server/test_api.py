"""The HTTP API of docs/SERVER.md §3, step by step: creating, reading, playing, the marking
protocol, resigning, records, idempotent retries, stale versions and seat tokens."""

from __future__ import annotations

import pytest

from miai import Game, IllegalMoveError, Rules
from miai.coords import Color, Move, point_from_gtp
from miai.result import Result
from miai.server.wire.forms import vertices
from miai.sgf import game_from_record, read_record
from tests.server.conftest import Table, make_client


def replay(size: int, rules: str, moves: str, handicap: int = 0) -> Game:
    game = Game(size, Rules.parse(rules), handicap=handicap)
    for m in moves.split():
        game.play(m)
    return game


# ---------------------------------------------------------------------- creating and reading
def test_a_new_game_answers_its_id_version_tokens_and_page(client):
    answer = client.post("/api/games", json={"size": 9, "rules": "japanese komi=6.5", "handicap": 0, "time": "none"})
    assert answer.status_code == 201
    created = answer.json()
    assert set(created) == {"id", "v", "black_token", "white_token", "url"}
    assert created["v"] == 0 and created["url"] == f"/g/{created['id']}"
    assert created["black_token"] != created["white_token"]
    assert len(created["black_token"]) >= 22  # at least 128 random bits in base64
    state = client.get(f"/api/games/{created['id']}").json()
    for key in ("id", "size", "rules", "komi", "handicap", "phase", "to_move", "v", "moves", "captures", "result", "clocks"):
        assert key in state
    assert (state["size"], state["komi"], state["handicap"]) == (9, 6.5, 0)
    assert Rules.parse(state["rules"]) == Rules.preset("japanese").replace(komi=6.5)
    assert (state["phase"], state["to_move"], state["v"], state["moves"], state["result"]) == ("play", "black", 0, [], None)
    assert state["captures"] == {"black": 0, "white": 0}


def test_defaults_and_handicap(client):
    state = Table(client).state()
    assert state["size"] == 19 and Rules.parse(state["rules"]) == Rules.preset("chinese")
    table = Table(client, size=9, handicap=3, komi=0.5)
    state = table.state()
    expected = Game(9, Rules.preset("chinese").replace(komi=0.5), handicap=3)
    assert state["to_move"] == "white" and state["komi"] == 0.5 and state["handicap"] == 3
    assert len(state["stones"]["black"]) == len(expected.board.stones(Color.BLACK)) == 3


def test_seats_store_only_token_hashes(client, db):
    import sqlite3

    table = Table(client, size=9)
    row = sqlite3.connect(db).execute(
        "SELECT black_token_hash, white_token_hash FROM games WHERE id = ?", (table.id,)
    ).fetchone()
    assert table.tokens["black"] not in row and table.tokens["white"] not in row
    assert all(len(h) == 64 for h in row)


# ---------------------------------------------------------------------- playing
def test_moves_captures_and_the_event_log(client):
    table = Table(client, size=5, rules="japanese")
    table.moves("A2 A1 B1")  # Black's B1 takes White's A1
    table.moves("C3 D4")
    expected = replay(5, "japanese", "A2 A1 B1 C3 D4")
    state = table.state()
    assert state["moves"] == ["A2", "A1", "B1", "C3", "D4"]
    assert state["captures"] == {"black": 1, "white": 0}
    assert state["captures"] == {"black": expected.captures(Color.BLACK), "white": expected.captures(Color.WHITE)}
    assert len(state["stones"]["black"]) == len(expected.board.stones(Color.BLACK))
    events = table.events()
    assert [e["v"] for e in events] == list(range(1, 6))
    assert [e["kind"] for e in events] == ["move"] * 5
    assert [e["move"] for e in events] == state["moves"]
    assert [e["color"] for e in events] == ["black", "white", "black", "white", "black"]
    assert events[2]["captured"] == ["A1"] and events[3]["captured"] == []
    assert table.events(after=3) == events[3:]
    assert table.events(after=5) == []


def test_captured_stones_and_the_ko_point_are_in_the_events(client):
    table = Table(client, size=5, rules="japanese")
    moves = "C1 E2 E5 E4 D4 D3 E3"  # E3 takes the white stone at E4: a ko
    table.moves(moves)
    last = table.events()[-1]
    expected = replay(5, "japanese", moves)
    assert last["captured"] == ["E4"]
    assert expected.ko_point == point_from_gtp("E4", 5)
    assert last["ko"] == "E4" and table.state()["ko"] == "E4"


ILLEGAL = [
    # size, rules, moves before, the move, its reason
    (5, "japanese", "C3", "C3", "occupied"),
    (5, "japanese", "E2 B2 D1", "E1", "suicide"),
    (5, "japanese", "C1 E2 E5 E4 D4 D3 E3", "E4", "ko"),
    (4, "chinese", "A4 B2 A2 B1 D2 C4 B3 C2 D3 D4 A1 A3", "A2", "superko"),
]


@pytest.mark.parametrize(("size", "rules", "before", "move", "reason"), ILLEGAL)
def test_an_illegal_move_says_which_rule(client, size, rules, before, move, reason):
    table = Table(client, size=size, rules=rules)
    table.moves(before)
    v = table.v
    seat = table.state()["to_move"]
    answer = table.send(seat, "play", move=move)
    assert answer.status_code == 422
    body = answer.json()
    game = replay(size, rules, before)
    with pytest.raises(IllegalMoveError) as err:
        game.play(move)
    assert body["reason"] == reason == err.value.reason.value
    assert body["message"] == str(err.value)
    if reason == "superko":
        assert body["repeats_move"] == err.value.repeats_move is not None
    assert table.v == v  # nothing changed


def test_a_seat_cannot_move_out_of_turn_nor_for_the_other(client):
    table = Table(client, size=9)
    answer = table.send("white", "play", move="E5")
    assert answer.status_code == 422 and answer.json()["reason"] == "out-of-turn"
    table.play("black", "E5")
    answer = table.send("black", "play", move="D4")
    assert answer.status_code == 422 and answer.json()["reason"] == "out-of-turn"
    assert [e["color"] for e in table.events()] == ["black"]


def test_resignation_ends_the_game_and_nothing_follows(client):
    table = Table(client, size=9)
    table.moves("E5")
    answer = table.post("black", "resign")  # either player may resign, on any turn
    assert answer.status_code == 200 and answer.json() == {"v": 2}
    state = table.state()
    assert state["phase"] == "finished" and state["result"] == str(Result.resignation(Color.BLACK)) == "W+R"
    assert state["to_move"] is None
    answer = table.send("white", "play", move="D4")
    assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"
    answer = table.send("white", "resign", v=2)
    assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"


# ---------------------------------------------------------------------- the marking phase
def dead_white_stone_table(client) -> Table:
    """9x9 Japanese: Black walls off the right side; White's lone stone at A9 is dead."""
    table = Table(client, size=9, rules="japanese")
    table.moves("E1 A9 E2 pass E3 pass E4 pass E5 pass E6 pass E7 pass E8 pass E9 pass")
    return table


def test_the_agreement_protocol_step_by_step_to_the_count(client):
    table = dead_white_stone_table(client)
    table.moves("pass")  # Black passes: the first passer was White (the last pass before)
    state = table.state()
    assert state["phase"] == "marking"
    marking = state["marking"]
    assert marking["first"] == "white" and marking["to_act"] == "white" == state["to_move"]
    assert marking["pending"] is None

    answer = table.send("black", "dead", dead=["A9"])
    assert answer.status_code == 422 and answer.json()["reason"] == "out-of-turn"
    answer = table.send("white", "accept")
    assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"
    answer = table.send("white", "dead", dead=["D5"])
    assert answer.status_code == 422 and answer.json()["reason"] == "not-a-stone"

    assert table.send("white", "dead", dead=[]).status_code == 200  # White: nothing dead
    state = table.state()
    assert state["marking"]["pending"] == {"by": "white", "dead": [], "seki": []}
    assert state["marking"]["to_act"] == "black"
    assert table.send("black", "dead", dead=["a9"]).status_code == 200  # counter-proposal
    assert table.state()["marking"]["pending"]["dead"] == ["A9"]
    answer = table.send("white", "accept")
    assert answer.status_code == 200
    state = table.state()

    game = replay(9, "japanese", " ".join(state["moves"]))
    game.propose([], color=Color.WHITE)
    game.propose([point_from_gtp("A9", 9)], color=Color.BLACK)
    score = game.accept(Color.WHITE)
    assert state["phase"] == "finished" and state["result"] == str(score.result)
    assert state["score"]["dead"] == ["A9"] and state["score"]["result"] == state["result"]
    assert state["score"]["black"]["total"] == score.black.total
    last = table.events()[-1]
    assert last["kind"] == "accept" and last["result"] == state["result"] and last["score"] == state["score"]

    sgf = table.client.get(f"{table.url}/sgf")
    assert sgf.status_code == 200 and sgf.headers["content-type"].startswith("application/x-go-sgf")
    record = read_record(sgf.text)
    assert str(record.result) == state["result"] and f"RE[{state['result']}]" in sgf.text
    assert "aa" in sgf.text.split("TB")[1]  # White's dead stone at A9 is marked for Black
    assert game_from_record(record).moves == game.moves


def test_a_refused_counter_proposal_resumes_play_and_an_immediate_double_pass_counts_all_alive(client):
    table = dead_white_stone_table(client)
    table.moves("pass")
    table.send("white", "dead", dead=[])
    table.send("black", "dead", dead=["A9"])
    answer = table.send("black", "refuse")
    assert answer.status_code == 422 and answer.json()["reason"] == "out-of-turn"
    assert table.send("white", "refuse").status_code == 200
    state = table.state()
    assert state["phase"] == "play" and state["to_move"] == "white" and state["marking"] is None
    table.moves("pass pass")
    state = table.state()
    assert state["phase"] == "finished" and "alive" in state["end_reason"]
    assert state["score"]["dead"] == []
    assert [e["kind"] for e in table.events()[-6:]] == ["pass", "propose", "propose", "refuse", "pass", "pass"]


def test_the_estimate_is_offered_to_the_first_passer(db, estimate_pool):
    from miai.server.compute.estimate import estimate_dead_stones

    with make_client(db, suggest_dead_stones=True, executor=estimate_pool) as client:
        table = dead_white_stone_table(client)
        table.moves("pass")
        with client.websocket_connect(f"/ws/game/{table.id}?v={table.v}") as ws:
            frames = [ws.receive_json()]  # hello
            state = table.state()
            suggested = state["marking"]["suggested"]
            while suggested is None:
                frame = ws.receive_json()
                if frame["t"] == "suggestion":
                    suggested = table.state()["marking"]["suggested"]
                    assert frame["d"]["for"] == "white"
                    assert {k: frame["d"][k] for k in ("v", "dead", "seki")} == suggested
        events = [(e["kind"], {k: v for k, v in e.items() if k not in ("v", "kind", "at_ms")}) for e in table.events()]
        dead, seki = estimate_dead_stones((9, state["rules"], 0), events)
        assert suggested == {"v": state["v"], "dead": dead, "seki": seki}
        assert frames[0]["t"] == "hello"


# ---------------------------------------------------------------------- retries and versions
def test_the_same_request_after_a_200_answers_the_same_200_and_changes_nothing(client):
    table = Table(client, size=9)
    first = table.send("black", "play", move="E5", v=0)
    again = table.send("black", "play", move="e5", v=0)  # the same vertex, written otherwise
    assert first.status_code == again.status_code == 200 and first.json() == again.json() == {"v": 1}
    table.play("white", "D4")
    later = table.send("black", "play", move="E5", v=0)  # a retry after more moves
    assert later.status_code == 200 and later.json() == {"v": 1}
    other = table.send("black", "play", move="C3", v=0)  # not the same request: stale
    assert other.status_code == 409 and other.json()["v"] == 2
    assert [e["move"] for e in table.events()] == ["E5", "D4"]


def test_a_client_action_id_makes_a_retry_safe(client):
    table = Table(client, size=9)
    assert table.send("black", "play", move="E5", v=0, a="m-1").json() == {"v": 1}
    table.play("white", "D4")
    assert table.send("black", "play", move="E5", v=0, a="m-1").json() == {"v": 1}
    reused = table.send("black", "play", move="C3", v=2, a="m-1")
    assert reused.status_code == 409 and "m-1" in reused.json()["message"]
    # the same id from the other seat is another action
    assert table.send("white", "play", move="C3", v=2, a="m-1").status_code == 422  # out of turn
    assert len(table.events()) == 2


def test_a_resignation_retried_without_a_version_is_answered_again(client):
    table = Table(client, size=9)
    table.moves("E5")
    assert table.post("white", "resign").json() == {"v": 2}
    assert table.post("white", "resign").json() == {"v": 2}
    assert len(table.events()) == 2
    answer = table.post("black", "resign")
    assert answer.status_code == 422 and answer.json()["reason"] == "wrong-phase"


@pytest.mark.parametrize("v", [0, 5])
def test_a_stale_or_future_version_is_a_409_with_the_current_version(client, v):
    table = Table(client, size=9)
    table.moves("E5 D4")
    answer = table.send("black", "play", move="C3", v=v)
    assert answer.status_code == 409
    assert answer.json()["v"] == 2 and answer.json()["error"] == "stale-version"
    assert len(table.events()) == 2


# ---------------------------------------------------------------------- tokens
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": "Bearer " + "x" * 5000},
    ],
)
def test_an_action_without_the_seats_token_is_a_403(client, headers):
    table = Table(client, size=9)
    answer = client.post(f"{table.url}/play", json={"move": "E5", "v": 0}, headers=headers)
    assert answer.status_code == 403 and answer.json()["error"] == "forbidden"
    assert answer.json()["message"]
    assert table.events() == []


def test_another_games_token_is_refused(client):
    one, two = Table(client, size=9), Table(client, size=9)
    answer = client.post(f"{one.url}/play", json={"move": "E5", "v": 0}, headers=two.auth("black"))
    assert answer.status_code == 403 and one.events() == []


# ---------------------------------------------------------------------- durability
def test_a_restarted_server_rebuilds_every_game_from_its_events(db):
    with make_client(db) as client:
        table = dead_white_stone_table(client)
        table.moves("pass")
        table.send("white", "dead", dead=[])
        before = table.state()
        other = Table(client, size=9)
        other.moves("E5")
        other.post("black", "resign")
        finished = other.state()
    with make_client(db) as client:
        table.client = other.client = client
        assert table.state() == before
        assert other.state() == finished
        assert table.send("black", "accept").status_code == 200
        assert table.state()["phase"] == "finished"


def test_a_failed_commit_changes_nothing_and_the_game_goes_on(client, monkeypatch):
    from miai.server.storage.store import Store

    table = Table(client, size=9)
    table.moves("E5")
    real = Store.append

    async def broken(self, *args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(Store, "append", broken)
    answer = table.send("white", "play", move="D4")
    assert answer.status_code == 503 and "retry" in answer.json()["message"]
    monkeypatch.setattr(Store, "append", real)
    assert table.state()["moves"] == ["E5"]
    assert table.play("white", "D4") == 2
    assert [e["move"] for e in table.events()] == ["E5", "D4"]


def test_a_second_owner_of_a_game_cannot_write_and_reloads_from_the_database(db):
    """Two servers on one database (which one process must never be, but the fence holds):
    the second one's commit of a version already written is refused, and it reloads."""
    with make_client(db) as first, make_client(db) as second:
        table = Table(first, size=9)
        other = Table(second, size=9)
        other.id, other.tokens = table.id, table.tokens
        assert other.state()["v"] == 0  # the second server has loaded the game too
        table.play("black", "E5")
        answer = other.send("black", "play", move="D4", v=0)  # its room still thinks v = 0
        assert answer.status_code == 409 and "another writer" in answer.json()["message"]
        assert other.state()["moves"] == ["E5"]  # reloaded from the database
        assert other.play("white", "D4") == 2
        assert [e["move"] for e in table.events()] == ["E5"]  # the first one's room is now behind
        assert [e["move"] for e in other.events()] == ["E5", "D4"]


def test_resumed_play_after_a_refusal_shows_the_compensable_areas_until_it_ends(client):
    table = dead_white_stone_table(client)
    assert table.state()["compensable"] is None  # no resumed play yet
    table.moves("pass")
    table.send("white", "dead", dead=[])
    table.send("black", "dead", dead=["A9"])
    assert table.send("white", "refuse").status_code == 200
    areas = table.state()["compensable"]
    game = table_game(table)
    expected = {c.name.lower(): vertices(points) for c, points in game.compensable_areas.items()}
    assert areas == expected and any(areas.values())  # the core's §5.8 areas, as vertices
    table.moves("pass pass")  # the resumed play ends: the areas go
    assert table.state()["compensable"] is None


def table_game(table: Table) -> Game:
    """The game of ``table`` replayed from its events through the core (its own view of it)."""
    state = table.state()
    game = Game(state["size"], Rules.parse(state["rules"]))
    for e in table.events():
        if e["kind"] == "move":
            game.play(Move(Color.parse(e["color"]), point_from_gtp(e["move"], state["size"])))
        elif e["kind"] == "pass":
            game.play(Move(Color.parse(e["color"]), None))
        elif e["kind"] == "propose":
            game.propose([point_from_gtp(v, state["size"]) for v in e["dead"]], color=Color.parse(e["color"]))
        elif e["kind"] == "refuse":
            game.refuse(Color.parse(e["color"]))
    return game
