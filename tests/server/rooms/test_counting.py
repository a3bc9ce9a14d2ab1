"""The count a page shows (docs/SERVER.md §3.7): an accept bound to the stones its player saw,
the count of any marking with its territory, the final board's territory, and the computer's
estimate of the score during play (refused at once when its workers are busy)."""

from __future__ import annotations

import threading
from concurrent.futures import Executor, Future

from miai import Game, Rules
from tests.server.conftest import Table, make_client


def marking_table(client) -> Table:
    """9x9 Japanese: Black walls off the right side; White's lone stone at A9 is dead; White
    passed first, so White proposes."""
    table = Table(client, size=9, rules="japanese")
    table.moves("E1 A9 E2 pass E3 pass E4 pass E5 pass E6 pass E7 pass E8 pass E9 pass pass")
    assert table.state()["phase"] == "marking"
    return table


def test_an_accept_that_names_other_stones_than_the_proposal_is_refused(client):
    table = marking_table(client)
    assert table.send("white", "dead", dead=["E5"]).status_code == 200  # White: Black's wall is dead
    answer = table.send("black", "accept", dead=[])  # Black's page showed it alive
    assert answer.status_code == 422, answer.text
    assert answer.json()["reason"] == "proposal-differs" and answer.json()["dead"][0] == "E1"
    assert table.state()["phase"] == "marking"
    # an accept naming exactly what was proposed (one stone of each chain is enough) is taken
    assert table.send("black", "accept", dead=["E9"]).status_code == 200
    assert table.state()["phase"] == "finished"


def test_an_accept_without_the_stones_still_accepts_the_proposal_of_its_version(client):
    table = marking_table(client)
    v = table.send("white", "dead", dead=["A9"]).json()["v"]
    assert table.send("black", "accept", v=v - 1).status_code == 409  # a stale accept never ends the game
    assert table.send("black", "accept", v=v).status_code == 200
    assert table.state()["score"]["dead"] == ["A9"]


def test_the_count_of_a_marking_is_the_rules_count_with_its_territory(client):
    table = marking_table(client)
    answer = client.get(f"{table.url}/count", params={"dead": "A9"})
    assert answer.status_code == 200, answer.text
    count = answer.json()
    game = Game(9, Rules.parse("japanese"))
    for move in table.state()["moves"]:
        game.play(move)
    expected = game.score([(8, 0)])
    assert count["dead"] == ["A9"] and count["v"] == table.v
    assert count["score"]["result"] == str(expected.result)
    assert count["score"]["black"]["territory"] == expected.black.territory == 81 - 9  # all but the wall
    assert len(count["territory"]["black"]) == 72 and "A9" in count["territory"]["black"]  # the dead stone's point too
    assert count["territory"]["white"] == []
    alive = client.get(f"{table.url}/count").json()
    assert alive["dead"] == [] and "A9" not in alive["territory"]["black"]
    assert client.get(f"{table.url}/count", params={"dead": "D5"}).json()["reason"] == "not-a-stone"
    assert client.get(f"{table.url}/count", params={"dead": "Z99"}).status_code == 400
    assert client.get(f"{table.url}/count", params={"deads": "A9"}).status_code == 400


def test_a_finished_game_carries_the_territory_it_was_counted_with(client):
    table = marking_table(client)
    table.send("white", "dead", dead=["A9"])
    table.send("black", "accept", dead=["A9"])
    state = table.state()
    assert state["phase"] == "finished"
    assert len(state["territory"]["black"]) == state["score"]["black"]["territory"] == 72
    assert "A9" in state["territory"]["black"]
    assert state["territory"]["white"] == []


class HeldExecutor(Executor):
    """Runs nothing until released: every worker stays busy."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def submit(self, fn, *args, **kwargs):
        future: Future = Future()

        def run() -> None:
            self.release.wait(30)
            if future.set_running_or_notify_cancel():
                future.set_result(fn(*args))

        threading.Thread(target=run, daemon=True).start()
        return future


def test_the_estimate_counts_the_computers_dead_stones_and_is_refused_while_busy(db, estimate_pool):
    with make_client(db, executor=estimate_pool) as client:
        table = Table(client, size=9, rules="japanese")
        table.moves("E1 A9 E2 pass E3 pass E4 pass E5 pass E6 pass E7 pass E8 pass E9")
        answer = client.post(f"{table.url}/estimate")
        assert answer.status_code == 200, answer.text
        estimate = answer.json()
        assert estimate["v"] == table.v and estimate["dead"] == ["A9"]
        assert estimate["score"]["result"].startswith("B+")
        assert "A9" in estimate["territory"]["black"]
        assert table.state()["phase"] == "play" and table.state()["to_move"] == "white"  # nothing was played
    held = HeldExecutor()
    with make_client(db, executor=held) as client:
        table = Table(client, size=9)
        table.moves("E5")
        thinking = Table(client, size=9, white="computer:1")
        thinking.play("black", "E5")  # the computer's move holds the only worker
        answer = client.post(f"{table.url}/estimate")
        assert answer.status_code == 503 and answer.json()["error"] == "busy"
        held.release.set()
        table.moves("pass pass")
        assert client.post(f"{table.url}/estimate").json()["reason"] == "wrong-phase"
