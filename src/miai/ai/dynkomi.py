"""Dynamic komi: the player asks more of itself while it leads.

When every move wins, a playout's win or loss hardly tells a move that keeps a lead from one
that gives away twenty points, and the search drifts. Pachi's answer (``uct/dynkomi.c``,
the adaptive phase of its ``linear`` rule) is an extra komi counted against the player,
raised while its win rate stays high and lowered when it falls: this module holds that rule
(:class:`DynamicKomi`), its state (:class:`KomiState`) and the memory that finds a
position's state again after an undo or a new game (:class:`KomiMemory`).

Pachi's rule, in an even game on 19×19 from move 150 (White) or 200 (Black): a point more
each move while the win rate is above 0.85 (its green zone); four points less below 0.8
(its orange zone), and never above that again (its ratchet); given up for the game below
0.5 once it has had to come down. Ours is that rule with the start, the zone and the step
as knobs (:class:`~miai.ai.config.MctsConfig`'s ``dynkomi_*``), by default brought to where
BENCHMARKS.md's probe found leads lost: from move 60, between 0.6 and 0.7, two points a move.
Its handicap phase (a komi for the stones, falling to nothing by move 150 or 200) is not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from miai.coords import Color

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.config import MctsConfig
    from miai.game import Game

MIN_PLAYOUTS = 500
"""The least playouts a search needs before the rule reads its win rate (Pachi waits for
``GJ_MINGAMES``, 500, likewise): a smaller search says too little to move the komi."""


@dataclass(frozen=True)
class KomiState:
    """One colour's extra komi (whole points counted against it) and the most it may reach
    again (``ceiling``: None until the rule first had to lower it; 0 once it gave up)."""

    extra: int = 0
    ceiling: int | None = None


@dataclass(frozen=True)
class DynamicKomi:
    """The rule: from move ``start`` on, ``step`` points more while the win rate is above
    ``high``, ``drop`` points less below ``low`` (and never above that again), nothing for
    the rest of the game below 0.5 once it has come down."""

    start: int = 60
    low: float = 0.6
    high: float = 0.7
    step: int = 2
    drop: int = 4

    @classmethod
    def of(cls, config: MctsConfig) -> DynamicKomi | None:
        """The rule ``config`` asks for, or None when its ``dynkomi`` is off."""
        if not config.dynkomi:
            return None
        low, high = config.dynkomi_zone
        return cls(config.dynkomi_start, low, high, config.dynkomi_step, config.dynkomi_drop)

    def next(self, state: KomiState, move_number: int, winrate: float, playouts: int) -> KomiState:
        """The state for the colour's next search, after one at ``move_number`` whose best move
        won ``winrate`` of ``playouts`` playouts counted with ``state``'s extra komi."""
        if move_number < self.start or playouts < MIN_PLAYOUTS:
            return state
        extra, ceiling = state.extra, state.ceiling
        if winrate < 0.5 and ceiling is not None and ceiling > 0:
            return KomiState(0, 0)
        if winrate < self.low and extra > 0:
            lowered = max(extra - self.drop, 0)
            return KomiState(lowered, lowered)
        if winrate > self.high and (ceiling is None or extra < ceiling):
            raised = extra + self.step
            return KomiState(raised if ceiling is None else min(raised, ceiling), ceiling)
        return state


def searched_komi(komi: float, color: Color, extra: int) -> float:
    """The komi (White's, as the search counts it) with ``extra`` points against ``color``."""
    return komi + extra if color is Color.BLACK else komi - extra


@dataclass
class KomiMemory:
    """Each colour's state, filed under the position it was searched in and read in the
    positions after it: asking again in the same position (an undo, ``reg_genmove``) finds
    the state that search began with, and another game (other size, rules or handicap, or
    a history that parted) finds none."""

    _entries: list[tuple[tuple[object, ...], Color, KomiState]] = field(default_factory=list)

    def state(self, game: Game, color: Color) -> KomiState:
        """``color``'s state for a search in ``game`` now: the last one filed in a position
        before this one that this game went through (the entries of positions it did not go
        through are forgotten)."""
        key = _key(game)
        self._entries = [e for e in self._entries if _leads_to(e[0], key)]
        for position, who, state in reversed(self._entries):
            if who is color and len(position) < len(key):
                return state
        return KomiState()

    def record(self, game: Game, color: Color, state: KomiState) -> None:
        """File ``state`` as ``color``'s for the searches after ``game``'s position, in place of
        one filed there before."""
        key = _key(game)
        self._entries = [e for e in self._entries if not (e[0] == key and e[1] is color)]
        self._entries.append((key, color, state))


def _key(game: Game) -> tuple[object, ...]:
    """The game's kind (size, rules, handicap) followed by its history."""
    return (game.size, game.rules, game.handicap, *game.history)


def _leads_to(before: tuple[object, ...], now: tuple[object, ...]) -> bool:
    """Whether the position keyed ``before`` is ``now``'s or one the game went through to it."""
    return now[: len(before)] == before
