"""The computer player: Monte-Carlo tree search with RAVE and heavy playouts.

Reading guide.

- The hot loop lives in the kernel: :mod:`miai._kernel.tree` holds the tree in flat arrays
  and runs the iterations — **descend** (RAVE urgency with michi's priors), **playout**
  (:mod:`miai._kernel.policy`: captures, atari escapes, 3×3 patterns, self-atari
  rejection), **update** (visits, wins, AMAF). This module drives it in chunks of
  ``MctsConfig.chunk`` iterations, so that Python can watch the clock, report progress and
  stream analysis between chunks.
- :class:`~miai.ai.config.MctsConfig` is every tuning knob in one frozen dataclass;
  :meth:`MctsConfig.for_level` gives strength levels 1–10 (a few playouts up to the full
  budget). It lives in :mod:`miai.ai.config`, which loads no kernel (``miai gtp`` builds it
  before its first reply).
- :class:`MctsPlayer` is the player. :meth:`MctsPlayer.genmove` returns a :class:`Decision`:
  a point, a pass or a resignation, with the search's statistics. The rules are the game's:
  the root's children are only moves :meth:`Game.legality` allows (superko included); inside
  the tree and playouts simple ko is enough.
- **Passing**: when no sensible move is left (only eye-filling or illegal ones); when the
  opponent has just passed and counting now would win — by the playouts' ownership estimate
  under rules that remove dead stones, by the stones as they stand otherwise (``simple``,
  ``tromp-taylor``: so the player captures dead stones before it passes) — or when the game
  is hopeless and the opponent passed.
- **Resigning**: only with ``resign=True`` (off by default), when the best move's win rate is
  below ``resign_threshold`` after enough playouts.
- **Tree reuse**: the tree of the last search is kept; when the game has since gone on by
  moves the tree holds, the subtree under them becomes the new root
  (:func:`miai._kernel.tree.compact`).
- **Time**: :func:`move_budget` turns a :class:`~miai.clock.TimeControl` and the player's
  last :class:`~miai.clock.TimeLeft` (what GTP's ``time_settings`` / ``kgs-time_settings`` /
  ``time_left`` said) into seconds for this move; without a clock, ``max_seconds`` and the
  playout budget limit the search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from miai._kernel import policy as P
from miai._kernel import tree as T
from miai._kernel.board import M_NEMPTY, area_difference
from miai.ai.config import LEVEL_PLAYOUTS, MctsConfig  # noqa: F401  (LEVEL_PLAYOUTS re-exported)
from miai.clock import LagAllowance, PlayerClock, TimeControl, TimeLeft, TimeSystem, monotonic_ms
from miai.coords import Color, Move, Point
from miai.rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from miai.game import Game


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class Candidate:
    """A root move with its statistics (win rate for the player to move)."""

    point: Point | None
    visits: int
    winrate: float
    prior: float
    amaf_visits: int
    pv: tuple[Point | None, ...]

    @property
    def lcb(self) -> float:
        """A lower confidence bound of the win rate (normal approximation)."""
        if self.visits == 0:
            return 0.0
        return max(0.0, self.winrate - 1.96 * math.sqrt(max(self.winrate * (1 - self.winrate), 1e-4) / self.visits))


@dataclass(frozen=True)
class Decision:
    """What the player decided: ``point`` (None for a pass) unless ``resign``."""

    point: Point | None
    resign: bool = False
    winrate: float = 0.5
    playouts: int = 0
    seconds: float = 0.0
    reason: str = ""
    candidates: tuple[Candidate, ...] = field(default=(), repr=False)

    @property
    def is_pass(self) -> bool:
        return self.point is None and not self.resign


@dataclass
class SearchStats:
    """Progress of a running search, given to the progress callback."""

    playouts: int
    seconds: float
    budget_seconds: float | None
    budget_playouts: int
    best: Candidate | None


# ---------------------------------------------------------------------- time
def move_budget(
    control: TimeControl, left: TimeLeft | None, game: Game, config: MctsConfig, *, now_ms: int | None = None
) -> float | None:
    """Seconds to think about this move under ``control``, given the player's last
    ``time_left`` report (``left``; None: the control's starting time), the time of which
    has passed since ``left.at_ms`` is taken off (``now_ms``, default
    :func:`miai.clock.monotonic_ms`). Without a time limit, ``config.max_seconds``."""
    cap = config.max_seconds
    if control.unlimited:
        return cap
    system = control.system
    if left is not None:
        remaining = left.remaining_ms(monotonic_ms() if now_ms is None else now_ms) / 1000
        stones = left.stones
    else:
        start = PlayerClock.fresh(control, LagAllowance.none()).time_left(control)
        assert start is not None
        remaining, stones = start.ms / 1000, start.stones
    period = control.period_ms / 1000
    # moves still to play for this player, by a rough count of the empty points
    empties = int(game.board.meta[M_NEMPTY])
    moves_left = max(empties // 3, 10)
    if stones > 0:  # in overtime: the time left is for this period
        per_move = remaining if system is TimeSystem.BYOYOMI else remaining / stones
        budget = per_move * 0.85 - config.time_safety
    else:
        budget = remaining / moves_left
        if system is TimeSystem.CANADIAN:
            budget += 0.8 * period / control.stones
        elif system is TimeSystem.BYOYOMI:
            budget += 0.8 * period
        elif system is TimeSystem.FISCHER:
            budget += 0.8 * control.increment_ms / 1000
        budget -= config.time_safety
        budget = min(budget, remaining * 0.5)
    budget = max(budget, config.min_seconds)
    if cap is not None:
        budget = min(budget, cap)
    return budget


# ---------------------------------------------------------------------- the player
def _kernel_point(game: Game, point: Point) -> int:
    return game.board.index(point)


def _last_points(game: Game) -> tuple[int, int]:
    """The kernel points of the last two moves (0 for passes, setups and none)."""
    out = []
    for entry in reversed(game.history):
        if len(out) == 2:
            break
        if isinstance(entry, Move):
            out.append(0 if entry.point is None else game.board.index(entry.point))
        else:
            break
    while len(out) < 2:
        out.append(0)
    return out[0], out[1]


def effective_komi(rules: Rules, handicap: int) -> float:
    """Komi plus White's handicap bonus: what White adds to an area count."""
    return rules.komi + rules.handicap_bonus.points(handicap)


class MctsPlayer:
    """The MCTS player. ``genmove(game)`` decides a move for the side to move."""

    def __init__(self, config: MctsConfig | None = None, name: str = "miai"):
        self.config = config or MctsConfig()
        self.name = name
        seed = self.config.seed if self.config.seed is not None else time.time_ns()
        self._rng = np.array([(seed * 0x9E3779B97F4A7C15 + 1) & 0x7FFFFFFFFFFFFFFF or 1], np.int64)
        self._tree: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._spare: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._tree_key: tuple[Any, ...] | None = None
        """(size, rules, history as a tuple, colour to move) of the tree's root."""
        self.last_stats: SearchStats | None = None

    # -------------------------------------------------------------- tree handling
    def _capacity(self, game: Game) -> int:
        return max(self.config.tree_capacity, 4 * (game.size * game.size + 1))

    def _fresh_tree(self, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cap = self._capacity(game)
        if self._tree is not None and self._tree[0].shape[1] == cap:
            ti, tf, tmeta = self._tree
            ti[:, 0] = 0
            tf[:, 0] = 0.0
            tmeta[:] = 0
            tmeta[T.TM_USED] = 1
            return ti, tf, tmeta
        return T.new_tree(cap)

    def _root_for(self, game: Game, color: Color) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tree whose root (node 0) is this position: the kept one moved down, or new."""
        key = (game.size, game.rules, game.handicap, color)
        history = tuple(game.history)
        old = self._tree_key
        if self.config.reuse_tree and self._tree is not None and old is not None and old[:3] == key[:3]:
            old_history, old_color = old[3], old[4]
            if history[: len(old_history)] == old_history:
                extra = history[len(old_history) :]
                ti, tf, tmeta = self._tree
                node, expected = 0, old_color
                ok = True
                for entry in extra:
                    if not isinstance(entry, Move) or entry.color != expected or ti[T.T_NCHILD, node] == 0:
                        ok = False
                        break
                    target = 0 if entry.point is None else game.board.index(entry.point)
                    first = int(ti[T.T_FIRST, node])
                    found = -1
                    for k in range(first, first + int(ti[T.T_NCHILD, node])):
                        if int(ti[T.T_MOVE, k]) == target:
                            found = k
                            break
                    if found < 0:
                        ok = False
                        break
                    node, expected = found, expected.opponent
                if ok and expected == color:
                    if node == 0:
                        return self._tree
                    spare = self._spare
                    if spare is None or spare[0].shape[1] != ti.shape[1]:
                        spare = T.new_tree(ti.shape[1])
                    T.compact(ti, tf, node, spare[0], spare[1], spare[2])
                    self._spare, self._tree = self._tree, spare
                    return spare
        self._tree = self._fresh_tree(game)
        return self._tree

    # -------------------------------------------------------------- search
    def search(
        self,
        game: Game,
        color: Color | None = None,
        *,
        seconds: float | None = None,
        playouts: int | None = None,
        progress: Callable[[SearchStats], None] | None = None,
        progress_interval: float = 0.25,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[list[Candidate], int, float, np.ndarray]:
        """Search the position for ``color`` (default: the side to move). Returns the root's
        candidates (most visited first), the playouts run, the seconds taken and the mean
        ownership per point (+1 Black, -1 White; an N×N array, row 0 at the bottom)."""
        cfg = self.config
        color = color or game.to_move
        budget_playouts = cfg.playouts if playouts is None else playouts
        budget_seconds = cfg.max_seconds if seconds is None else seconds
        start = time.monotonic()
        board = game.board
        grid, meta = board.grid, board.meta
        c = int(color)
        last, last2 = _last_points(game)
        komi = effective_komi(game.rules, game.handicap)
        params = cfg.tree_params(komi)
        pparams = cfg.policy_params()
        ti, tf, tmeta = self._root_for(game, color)
        self._tree_key = (game.size, game.rules, game.handicap, tuple(game.history), color)
        legal = {board.index(p) for p in game.legal_moves(color)}
        if ti[T.T_NCHILD, 0] == 0:
            allowed = np.zeros(grid.shape[1], np.bool_)
            for p in legal:
                allowed[p] = True
            if not T.expand(ti, tf, tmeta, 0, grid, meta, c, last, params, P.PAT3, allowed, True):
                self._tree = self._fresh_tree(game)
                ti, tf, tmeta = self._tree
                T.expand(ti, tf, tmeta, 0, grid, meta, c, last, params, P.PAT3, allowed, True)
        else:
            # a kept root: forbid what the game's rules forbid now (superko)
            first, nc = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
            for k in range(first, first + nc):
                mv = int(ti[T.T_MOVE, k])
                if mv != 0 and mv not in legal:
                    tf[T.T_PV, k] += 1e9
        owners = np.zeros(grid.shape[1], np.int64)
        done = 0
        last_report = start
        while done < budget_playouts:
            n = min(cfg.chunk, budget_playouts - done)
            T.search(ti, tf, tmeta, 0, grid, meta, c, last, last2, n, params, pparams, P.PAT3, owners, self._rng)
            done += n
            now = time.monotonic()
            if budget_seconds is not None and now - start >= budget_seconds:
                break
            if stop is not None and stop():
                break
            if progress is not None and now - last_report >= progress_interval:
                last_report = now
                cands = self.candidates(game, limit=1, pv_length=0)
                progress(SearchStats(done, now - start, budget_seconds, budget_playouts, cands[0] if cands else None))
            if cfg.early_stop and done >= 200 and self._settled(ti, tf, done, budget_playouts, start, budget_seconds):
                break
        seconds_taken = time.monotonic() - start
        w = game.size + 2
        own = (owners / max(done, 1)).reshape(w, w)[1:-1, 1:-1]
        cands = self.candidates(game)
        self.last_stats = SearchStats(done, seconds_taken, budget_seconds, budget_playouts, cands[0] if cands else None)
        return cands, done, seconds_taken, own

    @staticmethod
    def _settled(ti, tf, done, budget_playouts, start, budget_seconds) -> bool:
        """The most visited root move cannot be overtaken with the budget left."""
        first, nc = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
        if nc <= 1:
            return True
        visits = np.sort(tf[T.T_V, first : first + nc])
        lead = visits[-1] - visits[-2]
        left = budget_playouts - done
        if budget_seconds is not None:
            elapsed = time.monotonic() - start
            rate = done / max(elapsed, 1e-6)
            left = min(left, rate * max(budget_seconds - elapsed, 0.0))
        return lead > left

    def candidates(self, game: Game, limit: int | None = None, pv_length: int = 10) -> list[Candidate]:
        """The root's moves, most visited first (moves the rules forbid left out)."""
        if self._tree is None:
            return []
        ti, tf, _ = self._tree
        first, nc = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
        if nc == 0:
            return []
        ks = [k for k in range(first, first + nc) if tf[T.T_PV, k] < 1e8]
        ks.sort(key=lambda k: (-tf[T.T_V, k], -(tf[T.T_W, k] + tf[T.T_PW, k]) / max(tf[T.T_V, k] + tf[T.T_PV, k], 1)))
        if limit is not None:
            ks = ks[:limit]
        total_prior = sum(float(tf[T.T_PV, k]) for k in ks) or 1.0
        out = []
        for k in ks:
            v = float(tf[T.T_V, k])
            wr = float(tf[T.T_W, k]) / v if v > 0 else float(tf[T.T_PW, k]) / max(float(tf[T.T_PV, k]), 1.0)
            out.append(
                Candidate(
                    point=self._point(game, int(ti[T.T_MOVE, k])),
                    visits=int(v),
                    winrate=wr,
                    prior=float(tf[T.T_PV, k]) / total_prior,
                    amaf_visits=int(tf[T.T_AV, k]),
                    pv=self._pv(game, k, pv_length),
                )
            )
        return out

    def _pv(self, game: Game, node: int, length: int) -> tuple[Point | None, ...]:
        ti, tf, _ = self._tree  # type: ignore[misc]
        out: list[Point | None] = []
        while len(out) < length:
            out.append(self._point(game, int(ti[T.T_MOVE, node])))
            nc = int(ti[T.T_NCHILD, node])
            if nc == 0:
                break
            first = int(ti[T.T_FIRST, node])
            best = max(range(first, first + nc), key=lambda k: tf[T.T_V, k])
            if tf[T.T_V, best] == 0:
                break
            node = best
        return tuple(out)

    @staticmethod
    def _point(game: Game, index: int) -> Point | None:
        return None if index == 0 else game.board.point(index)

    # -------------------------------------------------------------- decisions
    def genmove(
        self,
        game: Game,
        color: Color | None = None,
        *,
        seconds: float | None = None,
        progress: Callable[[SearchStats], None] | None = None,
    ) -> Decision:
        """Decide the move of ``color`` (default: the side to move)."""
        cfg = self.config
        color = color or game.to_move
        cands, done, taken, own = self.search(game, color, seconds=seconds, progress=progress)
        if not cands or all(cand.point is None for cand in cands):
            return Decision(None, playouts=done, seconds=taken, reason="no move left", candidates=tuple(cands))
        best = cands[0]
        last = game.last_move
        opponent_passed = last is not None and last.point is None and last.color != color
        if opponent_passed:
            if self._wins_by_counting(game, color, own):
                return Decision(None, winrate=best.winrate, playouts=done, seconds=taken,
                                reason="the count wins", candidates=tuple(cands))
            if best.winrate < cfg.hopeless_pass_threshold:
                return Decision(None, winrate=best.winrate, playouts=done, seconds=taken,
                                reason="hopeless", candidates=tuple(cands))
        if cfg.resign and done >= cfg.resign_min_playouts and best.winrate < cfg.resign_threshold:
            return Decision(None, resign=True, winrate=best.winrate, playouts=done, seconds=taken,
                            reason="clearly lost", candidates=tuple(cands))
        if game.legality(Move(color, best.point)) is not None:  # never: the root holds legal moves only
            raise AssertionError(f"search chose an illegal move {best.point}")
        return Decision(best.point, winrate=best.winrate, playouts=done, seconds=taken,
                        reason="search", candidates=tuple(cands))

    def _wins_by_counting(self, game: Game, color: Color, own: np.ndarray) -> bool:
        """Whether ``color`` wins if the game is counted now: by the ownership estimate where
        the rules remove dead stones, by the stones as they stand otherwise."""
        komi = effective_komi(game.rules, game.handicap)
        if game.rules.remove_dead_stones:
            t = self.config.ownership_threshold
            diff = float(np.count_nonzero(own > t) - np.count_nonzero(own < -t))
        else:
            diff = float(area_difference(game.board.grid, game.board.meta))
        margin = diff - komi
        return margin > 0 if color is Color.BLACK else margin < 0

    def reset(self) -> None:
        """Forget the kept tree (a new game)."""
        self._tree_key = None
        if self._tree is not None:
            self._tree = self._fresh_tree_like(self._tree)

    @staticmethod
    def _fresh_tree_like(tree: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ti, tf, tmeta = tree
        ti[:, 0] = 0
        tf[:, 0] = 0.0
        tmeta[:] = 0
        tmeta[T.TM_USED] = 1
        return tree
