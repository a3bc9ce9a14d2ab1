"""The router: an operation runs where its game is owned, and the owner's answer or error
comes back as if it had run here."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.server.cluster.bus import Bus, NoOwner
from miai.server.cluster.router import RemoteError, Router, action_json, action_of
from miai.server.cluster.shards import Ownership
from miai.server.config import ServerConfig
from miai.server.errors import ApiError, NotFound, Unavailable
from miai.server.play.actions import Action, ActionKind

vertex = st.sampled_from(["A1", "D4", "T19", "pass", "j10"])


@given(
    kind=st.sampled_from(list(ActionKind)),
    v=st.none() | st.integers(0, 10_000),
    move=st.none() | vertex,
    dead=st.lists(vertex, max_size=4).map(tuple),
    seki=st.lists(vertex, max_size=4).map(tuple),
    a=st.none() | st.text(max_size=64),
    lag=st.integers(0, 10_000),
    accept=st.none() | st.booleans(),
)
def test_an_action_crosses_the_bus_unchanged(kind, v, move, dead, seki, a, lag, accept):
    import json

    action = Action(kind, v, move, dead, seki, a, lag, accept)
    assert action_of(json.loads(json.dumps(action_json(action)))) == action


class FakeBus(Bus):
    def __init__(self, answer: dict[str, Any] | Exception):
        self.answer = answer
        self.sent: list[tuple[int, dict[str, Any]]] = []

    async def request(self, shard: int, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.sent.append((shard, message))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class NoRooms:
    """A registry that must not be asked: the game is owned elsewhere."""

    async def run(self, game_id, job):
        raise AssertionError("ran locally")


def call(bus: Bus, game_id: str = "abc", op: str = "state", args: dict | None = None, owned=()) -> Any:
    ownership = Ownership(16)
    ownership.owned = set(owned)
    router = Router(NoRooms(), ownership, bus, ServerConfig(forward_timeout_s=0.1))  # type: ignore[arg-type]
    return asyncio.run(router.call(game_id, op, args or {}))


def test_a_game_owned_elsewhere_is_forwarded_to_its_shard_and_its_answer_returned():
    bus = FakeBus({"ok": {"v": 3}})
    assert call(bus, "abc", "act", {"token": "t"}) == {"v": 3}
    [(shard, message)] = bus.sent
    assert shard == Ownership(16).shard("abc")
    assert message == {"game": "abc", "op": "act", "args": {"token": "t"}}


def test_the_owners_error_comes_back_with_its_status_and_body():
    body = {"error": "illegal", "reason": "ko", "message": "ko"}
    with pytest.raises(RemoteError) as caught:
        call(FakeBus({"status": 422, "error": body}))
    assert caught.value.status == 422 and caught.value.to_json() == body


def test_no_owner_and_no_free_shard_is_a_503_to_retry():
    with pytest.raises(Unavailable, match="retry"):
        call(FakeBus(NoOwner(3)))


class HandoverBus(Bus):
    """Nobody listens on the shard for the first ``silent`` requests (its old owner has closed it
    and the new one has not opened it yet); then the new owner answers."""

    def __init__(self, silent: int):
        self.silent = silent
        self.asked = 0

    async def request(self, shard: int, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.asked += 1
        if self.asked <= self.silent:
            raise NoOwner(shard)
        return {"ok": {"v": 7}}


def test_a_shard_between_owners_is_waited_for_within_the_forward_timeout():
    ownership = Ownership(16)  # try_take always fails: another process holds the lock
    bus = HandoverBus(silent=3)
    router = Router(NoRooms(), ownership, bus, ServerConfig(forward_timeout_s=2.0))  # type: ignore[arg-type]
    assert asyncio.run(router.call("abc", "state", {})) == {"v": 7}
    assert bus.asked == 4
    late = HandoverBus(silent=10**6)
    router = Router(NoRooms(), ownership, late, ServerConfig(forward_timeout_s=0.35))  # type: ignore[arg-type]
    with pytest.raises(Unavailable, match="no server owns this game"):
        asyncio.run(router.call("abc", "state", {}))
    assert 2 <= late.asked <= 5  # looked again every 0.1 s, then gave up


class GivenUpBus(Bus):
    """The shard's old owner answers the first ``stale`` requests (it has just given the shard up:
    the answer of :meth:`Router.answer` for a game it no longer owns); then the new owner does."""

    def __init__(self, stale: int):
        self.stale = stale
        self.asked = 0
        self.old_owner = Router(NoRooms(), Ownership(16), Bus(), ServerConfig())  # type: ignore[arg-type]

    async def request(self, shard: int, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.asked += 1
        if self.asked <= self.stale:
            return await self.old_owner.answer(message)
        return {"ok": {"v": 7}}


def test_the_old_owners_refusal_mid_handover_is_asked_again_not_passed_on():
    bus = GivenUpBus(stale=2)
    router = Router(NoRooms(), Ownership(16), bus, ServerConfig(forward_timeout_s=2.0))  # type: ignore[arg-type]
    assert asyncio.run(router.call("abc", "act", {"token": "t"})) == {"v": 7}
    assert bus.asked == 3
    stuck = GivenUpBus(stale=10**6)
    router = Router(NoRooms(), Ownership(16), stuck, ServerConfig(forward_timeout_s=0.35))  # type: ignore[arg-type]
    with pytest.raises(Unavailable, match="retry"):
        asyncio.run(router.call("abc", "act", {"token": "t"}))
    assert 2 <= stuck.asked <= 5


def test_a_malformed_game_id_is_not_found_without_asking_anyone():
    bus = FakeBus({"ok": None})
    with pytest.raises(NotFound):
        call(bus, "../etc")
    assert bus.sent == []


def test_the_owner_refuses_a_forwarded_request_for_a_game_it_no_longer_owns_and_an_unknown_operation():
    ownership = Ownership(16)
    router = Router(NoRooms(), ownership, Bus(), ServerConfig())  # type: ignore[arg-type]
    answer = asyncio.run(router.answer({"game": "abc", "op": "state", "args": {}}))
    assert answer["status"] == 503 and answer["error"]["error"] == Unavailable("").code
    answer = asyncio.run(router.answer({"game": "abc", "op": "drop-tables", "args": {}}))
    assert answer["status"] == 400 and "drop-tables" in answer["error"]["message"]


def test_remote_error_is_an_api_error():
    assert issubclass(RemoteError, ApiError)
