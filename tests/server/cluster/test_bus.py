"""The Redis bus against a real redis-server: frames in order, requests to a shard's owner,
no owner, a late owner."""

from __future__ import annotations

import asyncio

import pytest

from miai.server.cluster.bus import NoOwner, RedisBus
from miai.server.errors import Unavailable

pytestmark = pytest.mark.timeout(60)


def with_buses(url: str, body):
    async def run():
        a, b = RedisBus(url), RedisBus(url)
        await a.start()
        await b.start()
        try:
            return await body(a, b)
        finally:
            await a.close()
            await b.close()

    return asyncio.run(run())


def test_frames_of_a_game_reach_another_process_in_order(redis_server):
    async def body(owner, other):
        got: list[str] = []
        stop = other.listen("g1", got.append)
        await asyncio.sleep(0.2)  # the subscription is made
        for i in range(200):
            owner.publish("g1", f"frame {i}")
        owner.publish("g2", "another game's")
        for _ in range(100):
            if len(got) == 200:
                break
            await asyncio.sleep(0.02)
        stop()
        return got

    assert with_buses(redis_server.url, body) == [f"frame {i}" for i in range(200)]


def test_a_request_reaches_the_shards_owner_and_its_answer_comes_back(redis_server):
    async def body(owner, other):
        async def handler(message):
            return {"ok": [message["game"], message["op"], message["args"]]}

        await owner.serve(5, handler)
        await asyncio.sleep(0.1)
        answer = await other.request(5, {"game": "g1", "op": "state", "args": {"x": 1}}, timeout=5)
        await owner.unserve(5)
        await asyncio.sleep(0.1)
        with pytest.raises(NoOwner):
            await other.request(5, {"game": "g1", "op": "state", "args": {}}, timeout=5)
        return answer

    assert with_buses(redis_server.url, body)["ok"] == ["g1", "state", {"x": 1}]


def test_an_owner_that_does_not_answer_in_time_is_a_503(redis_server):
    async def body(owner, other):
        async def slow(message):
            await asyncio.sleep(2)
            return {"ok": None}

        await owner.serve(1, slow)
        await asyncio.sleep(0.1)
        with pytest.raises(Unavailable, match="retry"):
            await other.request(1, {"game": "g", "op": "state", "args": {}}, timeout=0.2)

    with_buses(redis_server.url, body)
