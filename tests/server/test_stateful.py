"""A stateful property test: random actions from two seats and a spectator (undo requests and
answers included), retries, stale versions, reconnects at random versions and server restarts,
against a model game.

Invariants after every step: the answers are the model's (a :class:`miai.Game` driven directly);
the versions are contiguous from 1; replaying the stored log equals the live game; everything
acknowledged is persisted at its version, by the seat that asked; nothing is applied twice.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from miai import Game, IllegalMoveError, Rules
from miai.coords import Color, Move, point_from_gtp, point_to_gtp
from miai.game import GameSpec, Phase
from miai.server.play.events import EventKind, rebuild
from tests.server.conftest import Table, make_client

SIZE = 4
VERTICES = [point_to_gtp((r, c)) for r in range(SIZE) for c in range(SIZE)]
SEATS = {"black": Color.BLACK, "white": Color.WHITE}
seats = st.sampled_from(["black", "white"])
wrong_seat = st.sampled_from([False, False, False, True])
"""Mostly the seat whose turn it is, sometimes the other."""


def reason_of(err: IllegalMoveError) -> str:
    return err.reason.value.replace(" ", "-")


class ServerMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="miai-stateful-"))
        self.db = str(self.dir / "miai.db")
        self.context = make_client(self.db)
        self.client = self.context.__enter__()
        self.acked: dict[int, tuple[str, str]] = {}  # v -> (seat, kind) of every 200
        self.last_ok: dict[str, tuple[str, dict]] = {}  # seat -> its last successful request
        self.pending: tuple[str, int] | None = None  # the pending undo request: who asked, how many moves

    def teardown(self):
        self.context.__exit__(None, None, None)
        shutil.rmtree(self.dir, ignore_errors=True)

    @initialize(rules=st.sampled_from(["japanese", "chinese", "tromp-taylor"]))
    def start(self, rules):
        self.rules = rules
        self.table = Table(self.client, size=SIZE, rules=rules)
        self.model = Game(SIZE, Rules.parse(rules))
        self.v = 0

    # ------------------------------------------------------------------ acting
    def expect_undo(self, seat: str, action: str, body: dict) -> tuple[int, str | None, Game | None]:
        """The model's answer to an undo request or answer (docs/SERVER.md §3.3)."""
        color = SEATS[seat]
        game = self.model.copy()
        if action == "undo-answer":
            if self.pending is None:
                return 422, "no-undo-request", None
            by, count = self.pending
            if by == seat:
                return 422, "own-request", None
            for _ in range(count if body["accept"] else 0):
                game.undo()
            return 200, None, game
        if game.phase is not Phase.PLAY:
            return 422, "wrong-phase", None
        if self.pending is not None:
            return 422, "undo-pending", None
        count = 1 if game.to_move is not color else 2  # one's own last move, and the reply if any
        tail = game.history[-count:] if len(game.history) >= count else []
        wanted = [color] if count == 1 else [color, color.opponent]
        if [getattr(e, "color", None) if isinstance(e, Move) else None for e in tail] != wanted:
            return 422, "nothing-to-undo", None
        return 200, None, game

    def expect(self, seat: str, action: str, body: dict) -> tuple[int, str | None, Game | None]:
        """The model's answer: (status, reason, the game after)."""
        if action in ("undo", "undo-answer"):
            return self.expect_undo(seat, action, body)
        color = SEATS[seat]
        game = self.model.copy()
        try:
            if action == "play":
                if game.phase is Phase.PLAY and color is not game.to_move:
                    return 422, "out-of-turn", None
                game.play(Move(color, point_from_gtp(body["move"], SIZE)))
            elif action == "dead":
                game.propose([point_from_gtp(x, SIZE) for x in body["dead"]], color=color)
            elif action == "accept":
                game.accept(color)
            elif action == "refuse":
                game.refuse(color)
            elif action == "resign":
                game.resign(color)
        except IllegalMoveError as e:
            return 422, reason_of(e), None
        return 200, None, game

    def act(self, seat: str, action: str, body: dict) -> None:
        if action == "resign" and self.acked.get(self.v) == (seat, "resign"):
            # a resignation without v repeated: a retry, answered again
            assert self.table.post(seat, action, body).json() == {"v": self.v}
            return
        status, reason, after = self.expect(seat, action, body)
        answer = self.table.post(seat, action, body)
        assert answer.status_code == status, (seat, action, body, answer.text)
        event(f"{action}: {status} {reason or ''}")
        if status == 200:
            self.v += 1
            assert answer.json() == {"v": self.v}
            self.acked[self.v] = (seat, action)
            self.last_ok[seat] = (action, dict(body))
            self.model = after
            last = self.table.events(after=self.v - 1)[0]
            if action == "undo":
                self.pending = (seat, len(last["moves"]))
                assert last["kind"] == "undo-request" and last["moves"][-1] == self.model.move_number
            else:
                assert ("cancels_undo" in last) == (self.pending is not None and action != "undo-answer")
                self.pending = None
        else:
            assert answer.json()["reason"] == reason

    def seat(self, wrong: bool) -> str:
        """The seat whose turn it is (to move, or to act in the marking phase), or the other."""
        marking = self.model.marking
        color = marking.to_act if marking is not None else self.model.to_move
        return "black" if (color is Color.BLACK) != wrong else "white"

    @rule(wrong=wrong_seat, vertices=st.lists(st.sampled_from(VERTICES) | st.just("pass"), min_size=1, max_size=4))
    def play(self, wrong, vertices):
        for i, vertex in enumerate(vertices):
            self.act(self.seat(wrong and i == 0), "play", {"move": vertex, "v": self.v})

    @precondition(lambda self: hasattr(self, "model") and self.model.phase is Phase.PLAY)
    @rule()
    def pass_twice(self):
        for _ in range(2):
            self.act(self.seat(False), "play", {"move": "pass", "v": self.v})

    @precondition(lambda self: hasattr(self, "model") and self.model.phase is Phase.MARKING)
    @rule(wrong=wrong_seat, data=st.data())
    def propose(self, wrong, data):
        stones = sorted(point_to_gtp(p) for c in Color for p in self.model.board.stones(c))
        dead = data.draw(st.lists(st.sampled_from(stones), max_size=3, unique=True)) if stones else []
        self.act(self.seat(wrong), "dead", {"dead": dead, "v": self.v})
        then = data.draw(st.sampled_from([None, "accept", "refuse"]))
        if then is not None and self.model.marking is not None and self.model.marking.pending is not None:
            self.act(self.seat(False), then, {"v": self.v})  # the answer of the player whose step it is

    @precondition(lambda self: hasattr(self, "model") and self.model.phase is Phase.MARKING)
    @rule(wrong=wrong_seat, answer=st.sampled_from(["accept", "refuse"]))
    def answer(self, wrong, answer):
        self.act(self.seat(wrong), answer, {"v": self.v})

    @precondition(lambda self: hasattr(self, "model") and self.model.phase is not Phase.MARKING)
    @rule(seat=seats, action=st.sampled_from(["dead", "accept", "refuse"]))
    def marking_out_of_phase(self, seat, action):
        self.act(seat, action, {"dead": [], "v": self.v} if action == "dead" else {"v": self.v})

    @precondition(lambda self: hasattr(self, "model") and bool(self.model.moves))
    @rule(seat=seats, then=st.sampled_from([None, None, True, False]), wrong=wrong_seat)
    def undo(self, seat, then, wrong):
        """A seat asks to take back its last move; then, maybe, an answer (mostly by the other seat)."""
        self.act(seat, "undo", {"v": self.v})
        if then is not None:
            other = seat if wrong else ("white" if seat == "black" else "black")
            self.act(other, "undo-answer", {"accept": then, "v": self.v})

    @precondition(lambda self: self.v > 6)
    @rule(seat=seats)
    def resign(self, seat):
        self.act(seat, "resign", {})

    @precondition(lambda self: bool(self.last_ok))
    @rule(seat=seats)
    def retry(self, seat):
        """The seat's last successful request again: the same answer, nothing applied twice."""
        if seat not in self.last_ok:
            return
        action, body = self.last_ok[seat]
        answer = self.table.post(seat, action, body)
        if "v" in body:
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"v": body["v"] + 1}
        else:  # a resignation without v: answered again only while it is the last event
            assert answer.status_code in (200, 422)
            if answer.status_code == 200:
                assert answer.json() == {"v": self.v}

    @rule(seat=seats, vertex=st.sampled_from(VERTICES), ahead=st.booleans(), data=st.data())
    def stale(self, seat, vertex, ahead, data):
        if not ahead and self.v == 0:
            return
        v = self.v + 1 if ahead else data.draw(st.integers(0, self.v - 1))
        answer = self.table.post(seat, "play", {"move": vertex, "v": v})
        if answer.status_code == 200:  # only when it is a retry of the event at v + 1
            assert not ahead and answer.json() == {"v": v + 1}
            assert self.acked[v + 1] == (seat, "play")
            assert self.table.events(after=v)[0]["move"] == vertex
        else:
            assert answer.status_code == 409 and answer.json()["v"] == self.v

    @rule(vertex=st.sampled_from(VERTICES))
    def spectator_tries(self, vertex):
        answer = self.table.post(None, "play", {"move": vertex, "v": self.v})
        assert answer.status_code == 403

    @rule(data=st.data())
    def reconnect(self, data):
        after = data.draw(st.integers(0, self.v))
        assert self.table.events(after=after) == self.table.events()[after:]
        if data.draw(st.booleans()):
            with self.client.websocket_connect(f"/ws/game/{self.table.id}?v={after}") as ws:
                assert ws.receive_json()["d"]["v"] == self.v
                got = [ws.receive_json() for _ in range(self.v - after)]
            assert [f["d"]["v"] for f in got] == list(range(after + 1, self.v + 1))

    @rule()
    def restart(self):
        before = self.table.state()
        self.context.__exit__(None, None, None)
        self.context = make_client(self.db)
        self.client = self.table.client = self.context.__enter__()
        assert self.table.state() == before

    # ------------------------------------------------------------------ invariants
    @invariant()
    def the_log_is_the_game(self):
        if not hasattr(self, "table"):
            return
        events = self.table.events()
        assert [e["v"] for e in events] == list(range(1, self.v + 1))
        replayed = rebuild(
            GameSpec(SIZE, Rules.parse(self.rules)),
            [(EventKind(e["kind"]), e) for e in events],
        )
        state = self.table.state()
        assert state["v"] == self.v
        assert state["moves"] == [point_to_gtp(m.point) for m in replayed.moves] == [
            point_to_gtp(m.point) for m in self.model.moves
        ]
        assert state["phase"] == replayed.phase.value == self.model.phase.value
        result = str(self.model.result) if self.model.phase is Phase.FINISHED else None
        assert state["result"] == result
        assert replayed.board == self.model.board
        room = self.client.app.state.server.registry.rooms.get(self.table.id)
        if room is not None:
            assert room.game.board == self.model.board and room.v == self.v

    @invariant()
    def acknowledged_is_persisted_by_the_seat_that_asked(self):
        if not hasattr(self, "table"):
            return
        with sqlite3.connect(self.db) as conn:
            rows = conn.execute(
                "SELECT v, seat, kind, payload FROM game_events WHERE game_id = ? ORDER BY v", (self.table.id,)
            ).fetchall()
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
        assert len(rows) == self.v
        kinds = {
            "play": ("move", "pass"),
            "dead": ("propose",),
            "accept": ("accept",),
            "refuse": ("refuse",),
            "resign": ("resign",),
            "undo": ("undo-request",),
            "undo-answer": ("undo", "undo-refused"),
        }
        for v, (seat, action) in self.acked.items():
            _, stored_seat, kind, payload = rows[v - 1]
            assert stored_seat == seat and kind in kinds[action]
            assert f'"color": "{seat}"' in payload or f'"color":"{seat}"' in payload


ServerMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestServerMachine = ServerMachine.TestCase
