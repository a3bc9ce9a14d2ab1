"""The computer's analysis of every position of a review, for its win-rate graph and its list of
mistakes (docs/SERVER.md §3.6).

A *run* searches the positions in order, a few per job in the reviews' pool
(:func:`analyse_line` in a worker), the first job of one position only, so that the graph's first
point comes at once and the rest follows as each job ends; between two jobs of a run, any other
job of that pool (another reader's analysis) takes its turn, and the games' pool is never used.
Each job's positions are kept in the database (:class:`~miai.server.storage.reviews.ReviewStore`):
a reload, or a reader served by another process, reads what was searched, and a run started again
after a restart searches only what is missing. One address runs one analysis at a time.

The mistakes (:func:`mistakes`) are the moves after which their player's win rate fell most. A
short search is noisy (a few points either way), so once every position has its point, the
positions around each mistake listed (:func:`suspects`) are searched again three times as long
(``"deep": true``) before the mistakes are listed and the analysis is done.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from miai.errors import MiaiError
from miai.server.compute.analysis import (
    Position,
    play_step,
    playable,
    search,
    start_game,
)
from miai.server.compute.workers import Workers
from miai.server.errors import TooManyRequests, Unavailable, Unsupported
from miai.server.storage.reviews import ReviewStore

__all__ = ["GameAnalyses", "analyse_line", "mistakes", "graph_playouts", "MISTAKE_THRESHOLD", "MISTAKES_PER_COLOR"]

log = logging.getLogger(__name__)

MISTAKE_THRESHOLD = 0.05
"""A move is a mistake when its player's win rate fell by at least this much (5 points)."""
MISTAKES_PER_COLOR = 5
"""The most mistakes listed per colour: the largest falls."""
SECONDS_EACH = 0.5
"""At most this long on one position of a graph (the playouts usually end it first)."""
DEEPER = 3
"""How many times the playouts (and the time) of a graph's search a suspected mistake's get."""
JOB_POSITIONS = 4
"""Positions searched per worker job after the first (one): a job of about a second."""


def graph_playouts(size: int) -> int:
    """The playouts per position of a graph: about 0.2 s of search on one core on any board."""
    return 1500 if size <= 9 else 800 if size <= 13 else 400


def analyse_line(
    position: Position, first: int, last: int, playouts: int, deep: bool = False
) -> list[dict[str, Any] | None]:
    """In a worker: the positions after ``first`` to ``last`` moves of ``position``'s moves, each
    ``{"winrate", "best", "candidates"}`` (win rates Black's; ``"deep": true`` for a search
    :data:`DEEPER` times as long), or None for a position that cannot be reached (a move the
    rules refuse) or searched (the game over)."""
    seconds = SECONDS_EACH * (DEEPER if deep else 1)
    out: list[dict[str, Any] | None] = []
    try:
        game = start_game(position)
        for step in position.moves[:first]:
            play_step(game, step)
    except MiaiError:
        return [None] * (last - first + 1)
    for n in range(first, last + 1):
        if not playable(game):
            out.append(None)
        else:
            found = search(game, seconds, playouts * (DEEPER if deep else 1), top=3)
            best = found["candidates"][0]["move"] if found["candidates"] else None
            entry = {"winrate": found["winrate"], "best": best, "candidates": found["candidates"]}
            out.append({**entry, "deep": True} if deep else entry)
        if n < last:
            try:
                play_step(game, position.moves[n])
            except MiaiError:
                return out + [None] * (last - n)
    return out


def mistakes(
    position: Position, positions: list[dict[str, Any] | None], per_color: int = MISTAKES_PER_COLOR
) -> list[dict[str, Any]]:
    """The moves after which their player's win rate fell by :data:`MISTAKE_THRESHOLD` or more,
    the ``per_color`` largest of each colour, in the order played: each with its number, colour,
    the move played, the fall (``drop``, 0 to 1), the win rates before and after (Black's) and
    the computer's ``best`` move in the position before it."""
    found: dict[str, list[dict[str, Any]]] = {"black": [], "white": []}
    for n, (color, move, _) in enumerate(position.moves, 1):
        before = positions[n - 1] if n - 1 < len(positions) else None
        after = positions[n] if n < len(positions) else None
        if before is None or after is None or color not in found:
            continue
        fall = before["winrate"] - after["winrate"] if color == "black" else after["winrate"] - before["winrate"]
        if fall >= MISTAKE_THRESHOLD and before.get("best") != move:
            found[color].append({
                "move": n, "color": color, "played": move, "drop": round(fall, 4),
                "before": before["winrate"], "after": after["winrate"], "best": before.get("best"),
            })
    kept = [m for listed in found.values() for m in sorted(listed, key=lambda m: -m["drop"])[:per_color]]
    return sorted(kept, key=lambda m: m["move"])


def suspects(position: Position, positions: list[dict[str, Any] | None]) -> list[int]:
    """The positions to search deeper: before and after each mistake listed (the
    :data:`MISTAKES_PER_COLOR` largest falls of each colour), those not searched deeper yet."""
    wanted = {n for m in mistakes(position, positions) for n in (m["move"] - 1, m["move"])}
    return sorted(n for n in wanted if (p := positions[n]) is not None and not p.get("deep"))


@dataclass(slots=True)
class _Run:
    """One analysis under way: its positions as found so far."""

    subject: str
    position: Position
    positions: list[dict[str, Any] | None]
    address: str
    searched: list[bool] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    error: str | None = None


class GameAnalyses:
    """The analyses of reviews: started on request, one per subject and one per address at a
    time, their positions kept in ``store`` as they are found."""

    def __init__(
        self, workers: Workers, store: ReviewStore, now_ms: Callable[[], int], *, wait_seconds: float,
        max_moves: int = 1_000, max_runs: int = 4, per_address: bool = True,
    ):
        self.workers = workers
        self.store = store
        self.now_ms = now_ms
        self.wait_seconds = wait_seconds
        self.max_moves = max_moves
        self.max_runs = max_runs
        self.per_address = per_address
        """One run per address at a time (off with the server's rate limits, for load tests)."""
        self._runs: dict[str, _Run] = {}
        self._by_address: dict[str, str] = {}

    async def state(self, subject: str, position: Position) -> dict[str, Any]:
        """What is known of ``subject``'s analysis: ``{"total", "done", "running", "positions",
        "mistakes", "error"}``, ``positions`` one per position (the start first), None where
        not searched yet."""
        run = self._runs.get(subject)
        if run is not None:
            return self._answer(run.position, run.positions, running=True, error=run.error)
        kept = await self.store.analysis(subject)
        positions = self._kept_positions(kept, position)
        return self._answer(position, positions, running=False, error=None, kept=kept)

    async def start(self, subject: str, position: Position, address: str) -> dict[str, Any]:
        """Start ``subject``'s analysis if it is neither done nor under way, and answer its state.
        Raises :class:`TooManyRequests` while the same address runs another one,
        :class:`Unsupported` for a review longer than ``max_moves``, :class:`Unavailable` while
        ``max_runs`` others run."""
        if len(position.moves) > self.max_moves:
            raise Unsupported(f"a game of more than {self.max_moves} moves is not analysed whole: analyse its positions one by one")
        if subject not in self._runs:
            kept = await self.store.analysis(subject)
            positions = self._kept_positions(kept, position)
            if kept is None or not kept.get("done"):
                other = self._by_address.get(address)
                if self.per_address and other is not None and other != subject:
                    raise TooManyRequests(
                        "one game analysis at a time from your address: this one starts when the other ends",
                        limit="worker-jobs", retry_after=5,
                    )
                if len(self._runs) >= self.max_runs:
                    raise Unavailable(f"{len(self._runs)} games are being analysed now: retry in a minute")
                self._begin(_Run(subject, position, positions, address, [p is not None for p in positions]))
        return await self.state(subject, position)

    def _begin(self, run: _Run) -> None:
        self._runs[run.subject] = run
        self._by_address[run.address] = run.subject
        run.task = asyncio.get_running_loop().create_task(self._run(run), name=f"analysis {run.subject}")

    async def _run(self, run: _Run) -> None:
        try:
            await self._graph(run)
            await self._deepen(run)
            await self._keep(run, done=True)
        except Unavailable as e:
            run.error = str(e)
            log.warning("the analysis of %s stopped: %s", run.subject, e)
        except Exception:
            run.error = "the analysis failed"
            log.exception("the analysis of %s failed", run.subject)
        finally:
            self._runs.pop(run.subject, None)
            if self._by_address.get(run.address) == run.subject:
                del self._by_address[run.address]

    async def _graph(self, run: _Run) -> None:
        """Every position not searched yet, in order: one in the first job, then a few a job."""
        first = True
        while not all(run.searched):
            start = run.searched.index(False)
            end = start
            limit = start + (1 if first else JOB_POSITIONS) - 1
            while end < limit and end + 1 < len(run.searched) and not run.searched[end + 1]:
                end += 1
            found = await self._job(run.position, start, end)
            run.positions[start:end + 1] = found
            run.searched[start:end + 1] = [True] * len(found)
            first = False
            await self._keep(run, done=False)

    async def _deepen(self, run: _Run) -> None:
        """The positions around the suspected mistakes searched again, deeper, one a job, in
        rounds until every mistake listed stands on deeper searches: a round can reveal new
        mistakes, but each deepens at least one position more, so the rounds end."""
        while wanted := suspects(run.position, run.positions):
            for n in wanted:
                run.positions[n:n + 1] = await self._job(run.position, n, n, deep=True)
            await self._keep(run, done=False)

    async def _job(self, position: Position, first: int, last: int, *, deep: bool = False) -> list[dict[str, Any] | None]:
        found: list[dict[str, Any] | None] = await self.workers.review_job(
            analyse_line, position, first, last, graph_playouts(position.size), deep,
            wait_seconds=self.wait_seconds, what="analyse the game",
        )
        return found

    async def _keep(self, run: _Run, *, done: bool) -> None:
        kept: dict[str, Any] = {"total": len(run.positions), "done": done, "positions": run.positions}
        if done:
            kept["mistakes"] = mistakes(run.position, run.positions)  # cached: not recomputed on reload
        await self.store.keep_analysis(run.subject, kept, self.now_ms())

    @staticmethod
    def _kept_positions(kept: dict[str, Any] | None, position: Position) -> list[dict[str, Any] | None]:
        total = len(position.moves) + 1
        positions = list(kept["positions"]) if kept is not None else []
        return positions[:total] + [None] * (total - len(positions))

    @staticmethod
    def _answer(
        position: Position, positions: list[dict[str, Any] | None], *, running: bool, error: str | None,
        kept: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        done = kept is not None and bool(kept.get("done"))
        listed = kept["mistakes"] if done and kept is not None and "mistakes" in kept else mistakes(position, positions)
        return {
            "total": len(positions), "done": done, "running": running, "error": error,
            "positions": positions, "mistakes": listed,
        }

    async def close(self) -> None:
        for run in list(self._runs.values()):
            if run.task is not None:
                run.task.cancel()
        for run in list(self._runs.values()):
            if run.task is not None:
                await asyncio.gather(run.task, return_exceptions=True)
