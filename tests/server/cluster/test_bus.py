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


async def frames_sent(owner: RedisBus, other: RedisBus) -> list[str]:
    """What ``other`` hears of 200 frames of a game that ``owner`` publishes, another
    game's frame published after them; ``other`` stops listening at the end."""
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


def test_frames_of_a_game_reach_another_process_in_order(redis_server):
    assert with_buses(redis_server.url, frames_sent) == [f"frame {i}" for i in range(200)]


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


@pytest.mark.soak
@pytest.mark.timeout(1800)
def test_a_bus_that_listened_and_stopped_always_closes(redis_server):
    """Three hundred rounds of :func:`frames_sent`, each close given 5 s: before the reader
    stopped by itself once the bus closed, 2 of 200 closes hung (redis-py can swallow the
    cancellation of a read). A soak run, by hand: ``python3 -m pytest -m soak -k always_closes
    tests/server/cluster``."""

    async def rounds(url: str) -> list[str]:
        hung = []
        for k in range(300):
            a, b = RedisBus(url), RedisBus(url)
            await a.start()
            await b.start()
            await frames_sent(a, b)
            try:
                await asyncio.wait_for(asyncio.gather(a.close(), b.close()), 5)
            except asyncio.TimeoutError:
                hung.append(f"round {k}")
        return hung

    assert asyncio.run(rounds(redis_server.url)) == []
