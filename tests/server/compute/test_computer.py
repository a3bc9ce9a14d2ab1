"""Computer seats: they answer by themselves from a worker process; an answer for a position
that changed while they thought is dropped; in the marking phase they follow the terminal's
policy (propose the estimate, accept it, refuse what differs)."""

from __future__ import annotations

import time
from concurrent.futures import Executor, Future

from miai.ai.status import estimate_status
from miai.game import GameSpec
from miai.coords import point_to_gtp
from miai.server.compute.computer import KEPT_PLAYERS, computer_action, kept_player
from miai.server.play.events import EventKind, rebuild
from miai.server.play.seats import computer_level
from miai.server.wire.forms import vertices
from tests.server.conftest import Table, make_client


def wait_for(table: Table, v: int, seconds: float = 60) -> list[dict]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        events = table.events()
        if len(events) >= v:
            return events
        time.sleep(0.05)
    raise AssertionError(f"no event {v} after {seconds} s: {table.events()}")


def test_levels_of_computer_seats():
    assert [computer_level(k) for k in ("computer:1", "computer:10", "computer:11", "human", "computer:")] == [
        1, 10, None, None, None,
    ]


def test_a_computer_seat_has_no_token_and_plays_by_itself(db, estimate_pool):
    with make_client(db, executor=estimate_pool) as client:
        table = Table(client, size=9, white="computer:1")
        assert table.tokens == {"black": table.created["black_token"], "white": None}
        assert table.state()["white"] == "computer:1"
        table.play("black", "E5")
        events = wait_for(table, 2)
        assert events[1]["color"] == "white" and events[1]["kind"] in ("move", "pass")
        assert table.state()["to_move"] == "black"


def test_a_computer_playing_black_moves_first(db, estimate_pool):
    with make_client(db, executor=estimate_pool) as client:
        table = Table(client, size=9, black="computer:1")
        assert wait_for(table, 1)[0]["color"] == "black"


class HeldExecutor(Executor):
    """Holds every job until the test releases it (then runs it in the test's thread)."""

    def __init__(self):
        self.jobs: list[tuple[Future, object, tuple]] = []

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        self.jobs.append((future, fn, args))
        return future

    def release(self) -> None:
        """Run the jobs held now; a job submitted meanwhile (the answer of one lets another in)
        stays held for the next release."""
        jobs, self.jobs = self.jobs, []
        for future, fn, args in jobs:
            future.set_result(fn(*args))


def test_an_answer_for_a_position_that_changed_is_dropped(db):
    held = HeldExecutor()
    with make_client(db, executor=held) as client:
        table = Table(client, size=9, white="computer:1")
        table.play("black", "E5")
        deadline = time.monotonic() + 10
        while not held.jobs and time.monotonic() < deadline:
            time.sleep(0.01)
        assert held.jobs  # White is thinking about version 1
        assert table.post("black", "resign").json() == {"v": 2}
        held.release()
        time.sleep(0.3)
        assert [e["kind"] for e in table.events()] == ["move", "resign"]
        assert table.state()["result"] == "W+R"


def events_of(moves: str) -> list[tuple[str, dict]]:
    """Alternate moves from Black as events."""
    events = []
    for i, move in enumerate(moves.split()):
        color = "black" if i % 2 == 0 else "white"
        events.append(("pass", {"color": color}) if move == "pass" else ("move", {"color": color, "move": move}))
    return events


def game_after(spec: GameSpec, events: list[tuple[str, dict]]):
    """The game ``events`` lead to from ``spec``, rebuilt as a worker rebuilds it."""
    return rebuild(spec, [(EventKind(k), p) for k, p in events])


WALL = "E1 A9 E2 pass E3 pass E4 pass E5 pass E6 pass E7 pass E8 pass E9"
"""9x9: Black walls off the right side; White's lone stone at A9 is dead."""


def test_in_the_marking_phase_a_computer_proposes_its_estimate_accepts_it_and_refuses_what_differs():
    spec = GameSpec.from_text(9, "japanese", 0)

    def estimate(events):
        found = estimate_status(game_after(spec, events))
        return vertices(found.dead), vertices(found.seki)

    # White passed first: the computer (White) proposes its estimate
    white_first = events_of(WALL + " pass pass")
    dead, seki = estimate(white_first)
    assert computer_action("marking", spec.to_text(), white_first, 1, 1.0) == ("dead", {"dead": dead, "seki": seki})
    # ... and refuses a person's counter-proposal that differs from it
    proposal = ("propose", {"color": "white", "dead": dead, "seki": seki})
    counter = ("propose", {"color": "black", "dead": [] if dead else ["E1"], "seki": []})
    assert computer_action("marking", spec.to_text(), [*white_first, proposal, counter], 1, 1.0) == ("refuse", {})

    # Black passed first and proposed exactly the estimate: the computer (White) accepts
    black_first = events_of(WALL + " A8 pass pass")
    dead, seki = estimate(black_first)
    proposal = ("propose", {"color": "black", "dead": dead, "seki": seki})
    assert computer_action("marking", spec.to_text(), [*black_first, proposal], 1, 1.0) == ("accept", {})
    # a proposal other than its estimate: it counter-proposes the estimate
    other = ("propose", {"color": "black", "dead": [], "seki": []})
    assert computer_action("marking", spec.to_text(), [*black_first, other], 1, 1.0) == ("dead", {"dead": dead, "seki": seki})


def test_a_worker_keeps_a_games_tree_for_its_next_move():
    spec = GameSpec.from_text(9, "chinese", 0)
    first = events_of("E5")
    name, body = computer_action("kept", spec.to_text(), first, 4, 30.0)
    assert name == "play"
    player = kept_player("kept", 4)
    candidates = player.candidates(game_after(spec, first))
    chosen = next(c for c in candidates if c.point is not None and point_to_gtp(c.point) == body["move"])
    assert len(chosen.pv) >= 3  # Black's reply is in the tree, and the search went on below it
    second = [*first, ("move", {"color": "white", "move": body["move"]}),
              ("move", {"color": "black", "move": point_to_gtp(chosen.pv[1])})]
    assert computer_action("kept", spec.to_text(), second, 4, 30.0)[0] == "play"
    assert kept_player("kept", 4) is player
    assert player.last_stats is not None
    assert sum(c.visits for c in player.candidates(game_after(spec, second))) > player.last_stats.playouts  # the kept subtree's visits


def test_a_worker_keeps_the_players_of_its_last_games_only():
    player = kept_player("first", 3)
    assert kept_player("first", 3) is player
    assert kept_player("first", 5) is not player  # another level in the same game: another player
    for i in range(KEPT_PLAYERS):
        kept_player(f"later {i}", 3)
    assert kept_player("first", 3) is not player  # let go for the later games
