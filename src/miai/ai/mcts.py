"""The computer player: Monte-Carlo tree search with RAVE and heavy playouts.

Reading guide.

- The hot loop lives in the kernel: :mod:`miai._kernel.tree` holds the tree in flat arrays
  and runs the iterations — **descend** (RAVE urgency with michi's priors), **playout**
  (:mod:`miai._kernel.heavy`: captures, atari escapes, 3×3 patterns, self-atari
  rejection), **update** (visits, wins, AMAF). This module drives it in chunks of
  ``MctsConfig.chunk`` iterations, so that Python can watch the clock, report progress and
  stream analysis between chunks.
- :class:`~miai.ai.config.MctsConfig` is every tuning knob in one frozen dataclass;
  :meth:`MctsConfig.for_level` gives strength levels 1–10 (a few playouts up to the full
  budget). It lives in :mod:`miai.ai.config`, which loads no kernel (``miai gtp`` builds it
  before its first reply).
- :class:`MctsPlayer` is the player. :meth:`MctsPlayer.search` returns a
  :class:`SearchResult` (the root's candidates, the playouts, the time, the ownership);
  :meth:`MctsPlayer.genmove` returns a :class:`Decision`: a point, a pass or a resignation,
  with the search's statistics. The rules are the game's: the root's children are only
  moves :meth:`Game.legality` allows (superko included), and a kept root's children that
  the game no longer allows are ``forbidden`` to the search (their old visits neither
  settle it nor choose its move); inside the tree and playouts simple ko is enough.
- **Passing**: when no sensible move is left (only eye-filling or illegal ones); when the
  opponent has just passed, so that a pass ends the game, and the count the game will then
  use wins — the stones as they stand (:meth:`Game.score`) under rules that do not remove
  dead stones (``simple``, ``tromp-taylor``: so the player captures dead stones before it
  passes), the stones the status estimate (:func:`miai.ai.status.estimate_status`) finds
  dead removed under rules that do, as ``final_score`` counts; or when the game is
  hopeless and the opponent passed. The search's own ownership is not trusted for this:
  its playouts give a side the open areas a real count leaves neutral.
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
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai._kernel.board import M_NEMPTY
from miai.ai.config import LEVEL_PLAYOUTS, MctsConfig  # noqa: F401  (LEVEL_PLAYOUTS re-exported)
from miai.ai.dynkomi import DynamicKomi, KomiMemory, searched_komi
from miai.ai import movemodel, patterns
from miai.ai.netprior import NetPrior, last_points
from miai.ai.sharedtree import SharedTreeSearch, thread_seed
from miai.ai.status import estimate_status
from miai.clock import LagAllowance, PlayerClock, TimeControl, TimeLeft, TimeSystem
from miai.coords import Color, Move, Point
from miai.errors import ConfigError
from miai.rules import Rules
from miai.timesource import SYSTEM_TIME

if TYPE_CHECKING:  # pragma: no cover
    from miai.game import Game
    from miai.scoring import Score

Tree = T.Tree
"""A search tree: the kernel's ``ti``, ``tf`` and ``tmeta`` arrays (:mod:`miai._kernel.tree`)."""

COUNT_SEED = 1
"""The seed of the status estimate behind a game-ending pass (the one ``final_score`` uses,
so that the player and the GTP engine agree on the count)."""


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class Candidate:
    """A root move with its statistics (win rate for the player to move)."""

    point: Point | None
    visits: int
    winrate: float
    prior: float
    amaf_visits: int
    amaf_winrate: float
    """The win rate of the playouts in which the player to move played this point at any
    later turn (RAVE's figure, which outweighs a little-visited move's own); 0.5 if none."""
    pv: tuple[Point | None, ...]

    @property
    def lcb(self) -> float:
        """A lower confidence bound of the win rate (normal approximation)."""
        if self.visits == 0:
            return 0.0
        return max(0.0, self.winrate - 1.96 * math.sqrt(max(self.winrate * (1 - self.winrate), 1e-4) / self.visits))


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the root's moves and what it cost."""

    candidates: tuple[Candidate, ...]
    """The root's moves, most visited first (moves the rules forbid left out)."""
    playouts: int
    """Iterations run (each ends in one playout)."""
    seconds: float
    ownership: np.ndarray = field(repr=False, compare=False)
    """The playouts' mean owner per point: an N×N array, row 0 at the bottom, +1 where every
    playout ended Black's, -1 where every one ended White's."""

    @property
    def best(self) -> Candidate | None:
        """The most visited move (None when the root has no move)."""
        return self.candidates[0] if self.candidates else None


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
    extra_komi: int = 0
    """Points of dynamic komi the search counted against the player (:mod:`miai.ai.dynkomi`):
    ``winrate`` is measured with them."""

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
    :data:`miai.timesource.SYSTEM_TIME`'s). Without a time limit, ``config.max_seconds``."""
    cap = config.max_seconds
    if control.unlimited:
        return cap
    system = control.system
    if left is not None:
        remaining = left.remaining_ms(SYSTEM_TIME.monotonic_ms() if now_ms is None else now_ms) / 1000
        stones = left.stones
    else:
        start = _starting_time(control)
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


def budget_is_lost(control: TimeControl, left: TimeLeft | None) -> bool:
    """Whether thinking time a move leaves unused is lost rather than saved for the moves
    after it: without a clock or with a fixed time a move, and in a byo-yomi period."""
    if control.unlimited or control.system is TimeSystem.SIMPLE:
        return True
    stones = (left if left is not None else _starting_time(control)).stones
    return control.system is TimeSystem.BYOYOMI and stones > 0


def _starting_time(control: TimeControl) -> TimeLeft:
    """The time a player has under ``control`` before its first move (a limited control)."""
    start = PlayerClock.fresh(control, LagAllowance.none()).time_left(control)
    assert start is not None
    return start


# ---------------------------------------------------------------------- the player
_NOTHING = np.zeros(0, np.float64)
_NO_PATTERNS = (np.zeros(0, np.int64), _NOTHING, _NOTHING)
"""The learned priors' arrays when they are off: nothing to find (every search below 19×19,
by default)."""


def _pattern_arrays(cfg: MctsConfig, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The learned patterns' keys and values, and the move predictor's log strengths, for
    the priors on a board of ``size`` lines (empty when they are off, or the board smaller
    than ``pattern_min_size``); a :class:`ConfigError` if one is on and was not shipped."""
    if (cfg.prior_pattern <= 0 and cfg.prior_mm <= 0) or size < cfg.pattern_min_size:
        return _NO_PATTERNS
    table = patterns.default_table()
    if not len(table):
        knob = f"prior_pattern={cfg.prior_pattern:g}" if cfg.prior_pattern > 0 else f"prior_mm={cfg.prior_mm:g}"
        raise ConfigError(f"{knob} needs the table of learned patterns, {patterns.DEFAULT_TABLE}, "
                          "and there is none (`miai train patterns` writes it)")
    model = movemodel.default_model() if cfg.prior_mm > 0 else None
    if cfg.prior_mm > 0 and model is None:
        raise ConfigError(f"prior_mm={cfg.prior_mm:g} needs the move predictor, {movemodel.DEFAULT_MODEL}, "
                          "and there is none (`miai train movemodel` writes it)")
    return (*table.slots, _NOTHING if model is None else model.log_gammas)


def effective_komi(rules: Rules, handicap: int) -> float:
    """Komi plus White's handicap bonus: what White adds to an area count."""
    return rules.komi + rules.handicap_bonus.points(handicap)


def count_after_pass(game: Game, passer: Color) -> Score:
    """The count the game will use if ``passer`` passes now and that ends it (the opponent
    has just passed): the board as it stands under rules that do not remove dead stones;
    under rules that do, the board without the dead stones the status estimate proposes
    (and with its seki), made as the GTP engine's ``final_score`` makes it (the same seed,
    ``passer``'s opponent to move)."""
    if not game.rules.remove_dead_stones:
        return game.score()
    estimate = estimate_status(game, seed=COUNT_SEED, to_move=passer.opponent)
    return game.score(estimate.dead, seki=estimate.seki)


def _forbidden_mask(game: Game, color: Color) -> np.ndarray:
    """A boolean per kernel point: True where ``color`` may not play now by the game's rules
    (superko included), False on the legal points and on index 0, the pass."""
    forbidden = np.ones(game.board.grid.shape[1], np.bool_)
    for p in game.legal_moves(color):
        forbidden[game.board.index(p)] = False
    forbidden[0] = False
    return forbidden


def _allowed_visits(tree: Tree, node: int, forbidden: np.ndarray) -> np.ndarray:
    """The visits of ``node``'s children, -1 on a move ``forbidden`` there: a kept tree may
    hold visits on a move superko now forbids, which must neither be chosen nor settle a search."""
    ti, tf, _ = tree
    first, nc = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
    return np.where(forbidden[ti[T.T_MOVE, first : first + nc]], -1.0, tf[T.T_V, first : first + nc])


class _Root(NamedTuple):
    """Where a search grows the tree: its node and that node's position (``to_move`` to play
    after the points ``last`` and ``last2``; ``forbidden``: the moves the rules forbid there)."""

    tree: T.Tree
    node: int
    grid: np.ndarray
    meta: np.ndarray
    to_move: int
    last: int
    last2: int
    forbidden: np.ndarray


class MctsPlayer:
    """The MCTS player. ``genmove(game)`` decides a move for the side to move."""

    def __init__(self, config: MctsConfig | None = None, name: str = "miai"):
        self.config = config or MctsConfig()
        self.name = name
        seed = self.config.seed if self.config.seed is not None else time.time_ns()
        self._rng = np.array([(seed * 0x9E3779B97F4A7C15 + 1) & 0x7FFFFFFFFFFFFFFF or 1], np.int64)
        self._tree: Tree | None = None
        self._spare: Tree | None = None
        self._tree_key: tuple[Any, ...] | None = None
        """(size, rules, handicap, history as a tuple, colour to move, komi searched with) of
        the tree's root."""
        self.dynamic_komi = DynamicKomi.of(self.config)
        """The dynamic komi rule (None: the game's komi always)."""
        self.komi_memory = KomiMemory()
        """Each colour's dynamic komi as of the positions searched."""
        self._forbidden: np.ndarray | None = None
        """The root's moves the game's rules forbid (a boolean per point), as of the last search."""
        self.last_stats: SearchStats | None = None

    # -------------------------------------------------------------- tree handling
    def _capacity(self, game: Game) -> int:
        return max(self.config.tree_capacity, 4 * (game.size * game.size + 1))

    @staticmethod
    def _reset_tree(tree: Tree) -> Tree:
        """Empty ``tree`` in place down to its root (no children, no statistics)."""
        ti, tf, tmeta = tree
        ti[:, 0] = 0
        tf[:, 0] = 0.0
        tmeta[:] = 0
        tmeta[T.TM_USED] = 1
        return tree

    def _fresh_tree(self, game: Game) -> Tree:
        """An empty tree for this game: the kept one emptied when it has the right size."""
        if self._tree is not None and self._tree[0].shape[1] == self._capacity(game):
            return self._reset_tree(self._tree)
        return T.new_tree(self._capacity(game))

    def _root_for(self, game: Game, color: Color, komi: float) -> Tree:
        """The tree whose root (node 0) is this position searched with ``komi``: the kept one
        moved down, or new."""
        key = (game.size, game.rules, game.handicap, color)
        history = tuple(game.history)
        old = self._tree_key
        if (self.config.reuse_tree and self._tree is not None and old is not None and old[:3] == key[:3]
                and old[5] == komi):  # a tree counted with another komi (dynamic komi) would mislead
            old_history, old_color = old[3], old[4]
            if history[: len(old_history)] == old_history:
                extra = history[len(old_history) :]
                ti = self._tree[0]
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
                    T.compact(self._tree, node, spare)
                    self._spare, self._tree = self._tree, spare
                    return spare
        self._tree = self._fresh_tree(game)
        return self._tree

    def _usable(self, tree: Tree, forbidden: np.ndarray) -> bool:
        """Whether a kept root offers at least one move that is not forbidden (an empty root
        is usable: the search expands it)."""
        allowed = _allowed_visits(tree, 0, forbidden)
        return len(allowed) == 0 or bool((allowed >= 0).any())

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
        extra_komi: int = 0,
        spend_rest: bool = False,
    ) -> SearchResult:
        """Search the position for ``color`` (default: the side to move), within ``seconds``
        and ``playouts`` (default: the config's), calling ``progress`` every
        ``progress_interval`` seconds and stopping early when ``stop()`` says so; the win
        rates are counted with ``extra_komi`` points against ``color``. With ``spend_rest``
        (the budget is lost if not spent: a fixed time a move) and the config's
        ``settled_search``, a budget left once the move is settled is searched below it."""
        cfg = self.config
        color = color or game.to_move
        budget_playouts = cfg.playouts if playouts is None else playouts
        budget_seconds = cfg.max_seconds if seconds is None else seconds
        start = time.monotonic()
        board = game.board
        grid, meta = board.grid, board.meta
        c = int(color)
        last, last2 = last_points(game)
        komi = searched_komi(effective_komi(game.rules, game.handicap), color, extra_komi)
        params = cfg.tree_params(komi, game.size)
        pparams = cfg.policy_params(game.size)
        forbidden = _forbidden_mask(game, color)
        knowledge = (H.PAT3, *_pattern_arrays(cfg, game.size))
        tree = self._root_for(game, color, komi)
        if not self._usable(tree, forbidden):
            tree = self._tree = self._fresh_tree(game)
        self._tree_key = (game.size, game.rules, game.handicap, tuple(game.history), color, komi)
        self._forbidden = forbidden
        if tree[0][T.T_NCHILD, 0] == 0 and not T.expand(tree, 0, grid, meta, c, last, last2, params, knowledge, forbidden):
            tree = self._tree = self._fresh_tree(game)
            T.expand(tree, 0, grid, meta, c, last, last2, params, knowledge, forbidden)
        net_prior = NetPrior(cfg.prior_net, cfg.prior_net_visits, cfg.prior_net_share)
        net_prior.give_root(game, tree, color)
        last_report = start
        checked = 0  # the playouts done when keep_going was last asked
        settled = False  # whether the early stop ended the search

        def keep_going(done: int) -> bool:
            """Between chunks: whether the search goes on (its clock, ``stop``, the early
            stop), reporting ``progress`` on the way."""
            nonlocal last_report, checked, settled
            checked = done
            if not self._time_left(stop, start, budget_seconds, done):
                return False
            now = time.monotonic()
            if progress is not None and now - last_report >= progress_interval:
                last_report = now
                cands = self.candidates(game, limit=1, pv_length=0)
                progress(SearchStats(done, now - start, budget_seconds, budget_playouts, cands[0] if cands else None))
            settled = cfg.early_stop and done >= 200 and self._settled(
                _allowed_visits(tree, 0, forbidden), done, budget_playouts, start, budget_seconds)
            return not settled

        def grow(lock: AbstractContextManager[object] = nullcontext()) -> int:
            """Give the network's prior to the nodes below the root the search has grown (the
            threshold from the playouts it will make, at the rate so far)."""
            size = checked + self._left(checked, budget_playouts, start, budget_seconds)
            return net_prior.give_grown(game, tree, color, lock, playouts=size)

        root = _Root(tree, 0, grid, meta, c, last, last2, forbidden)
        done, owners = self._grow(root, params, pparams, knowledge, budget_playouts, keep_going, grow)
        if settled and spend_rest and cfg.settled_search:
            done += self._search_below_best(game, color, root, params, pparams, knowledge, budget_playouts - done,
                                            partial(self._time_left, stop, start, budget_seconds), grow)
        seconds_taken = time.monotonic() - start
        w = game.size + 2
        own = (owners / max(done, 1)).reshape(w, w)[1:-1, 1:-1]
        result = SearchResult(tuple(self.candidates(game)), done, seconds_taken, own)
        self.last_stats = SearchStats(done, seconds_taken, budget_seconds, budget_playouts, result.best)
        return result

    def _grow(
        self, root: _Root, params: np.ndarray, pparams: np.ndarray, knowledge: T.Knowledge, budget_playouts: int,
        keep_going: Callable[[int], bool], grow: Callable[..., int],
    ) -> tuple[int, np.ndarray]:
        """Search from ``root`` with the config's threads until ``budget_playouts`` are made or
        ``keep_going(done)`` says no, calling ``grow`` between chunks; returns the playouts
        made and the points' owner sums."""
        cfg = self.config
        tree, node, grid, meta, c, last, last2, forbidden = root
        if cfg.threads > 1:
            shared = SharedTreeSearch(tree, grid, meta, c, last, last2, cfg, params, pparams, knowledge, forbidden,
                                      root=node)
            seed = int(self._rng[0])
            self._rng[0] = thread_seed(seed, cfg.threads)
            return shared.run(budget_playouts, seed, keep_going, between=partial(grow, shared.lock))
        owners = np.zeros(grid.shape[1], np.int64)
        done = 0
        while done < budget_playouts:
            n = min(cfg.chunk, budget_playouts - done)
            T.search(tree, node, grid, meta, c, last, last2, n, params, pparams, knowledge, owners, self._rng,
                     forbidden)
            done += n
            if not keep_going(done):
                break
            grow()
        return done, owners

    def _search_below_best(
        self, game: Game, color: Color, root: _Root, params: np.ndarray, pparams: np.ndarray,
        knowledge: T.Knowledge, budget_playouts: int, keep_going: Callable[[int], bool], grow: Callable[..., int],
    ) -> int:
        """Search below the root's most visited move, from the position after it, while
        ``keep_going`` says yes (``budget_playouts`` more at most): the subtree the next search
        keeps. Returns the playouts made; none below a pass."""
        tree = root.tree
        ti = tree[0]
        node = int(ti[T.T_FIRST, 0]) + int(np.argmax(_allowed_visits(tree, 0, root.forbidden)))
        move = int(ti[T.T_MOVE, node])
        if move == 0 or budget_playouts <= 0:
            return 0
        after = game.copy()
        after.play(Move(color, self._point(game, move)))
        grid, meta = after.board.grid, after.board.meta
        last, last2 = last_points(after)
        reply = int(color.opponent)
        forbidden = _forbidden_mask(after, color.opponent)
        if ti[T.T_NCHILD, node] == 0 and not T.expand(tree, node, grid, meta, reply, last, last2, params, knowledge,
                                                       forbidden):
            return 0
        below = _Root(tree, node, grid, meta, reply, last, last2, forbidden)
        done, _ = self._grow(below, params, pparams, knowledge, budget_playouts, keep_going, grow)
        return done  # the owner sums after the move are not this search's to report

    @staticmethod
    def _time_left(stop: Callable[[], bool] | None, start: float, budget_seconds: float | None, done: int) -> bool:
        """Whether a search begun at ``start`` may go on: its clock not out, no ``stop()``
        (``done`` unread: the signature of a ``keep_going``)."""
        if budget_seconds is not None and time.monotonic() - start >= budget_seconds:
            return False
        return stop is None or not stop()

    @staticmethod
    def _settled(
        allowed_visits: np.ndarray, done: int, budget_playouts: int, start: float, budget_seconds: float | None
    ) -> bool:
        """The most visited root move the rules allow cannot be overtaken with the budget left."""
        visits = np.sort(allowed_visits[allowed_visits >= 0])
        if len(visits) <= 1:
            return True
        lead = visits[-1] - visits[-2]
        return bool(lead > MctsPlayer._left(done, budget_playouts, start, budget_seconds))

    @staticmethod
    def _left(done: int, budget_playouts: int, start: float, budget_seconds: float | None) -> float:
        """The playouts a search that has made ``done`` can still make: the rest of its budget,
        or, at the rate so far, what its clock allows if that is less."""
        left: float = budget_playouts - done
        if budget_seconds is not None:
            elapsed = time.monotonic() - start
            rate = done / max(elapsed, 1e-6)
            left = min(left, rate * max(budget_seconds - elapsed, 0.0))
        return left

    def candidates(
        self, game: Game, limit: int | None = None, pv_length: int = 10, below: Sequence[Point | None] = ()
    ) -> list[Candidate]:
        """The root's moves after the last search, most visited first (moves the rules
        forbid left out); with ``below``, the moves of the node those moves lead to from the
        root (none if the tree does not hold them), win rates for the player to move there."""
        if self._tree is None or self._forbidden is None:
            return []
        ti, tf, _ = self._tree
        node = 0
        for point in below:
            first, nc = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
            node = next((k for k in range(first, first + nc) if self._point(game, int(ti[T.T_MOVE, k])) == point), -1)
            if node < 0:
                return []
        forbidden = self._forbidden if node == 0 else np.zeros_like(self._forbidden)
        first, nc = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
        ks = [k for k in range(first, first + nc) if not forbidden[ti[T.T_MOVE, k]]]
        ks.sort(key=lambda k: (-tf[T.T_V, k], -(tf[T.T_W, k] + tf[T.T_PW, k]) / max(tf[T.T_V, k] + tf[T.T_PV, k], 1)))
        if limit is not None:
            ks = ks[:limit]
        total_prior = math.fsum(float(tf[T.T_PV, k]) for k in ks) or 1.0  # exact: the same whatever the order
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
                    amaf_winrate=float(tf[T.T_AW, k]) / float(tf[T.T_AV, k]) if tf[T.T_AV, k] > 0 else 0.5,
                    pv=self._pv(game, self._tree, k, pv_length),
                )
            )
        return out

    def _pv(self, game: Game, tree: Tree, node: int, length: int) -> tuple[Point | None, ...]:
        """The principal variation from ``node``: its move, then the most visited child's."""
        ti, tf, _ = tree
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
        spend_rest: bool = False,
    ) -> Decision:
        """Decide the move of ``color`` (default: the side to move), with the dynamic komi's
        extra points against it when the config asks for them (``spend_rest``: as
        :meth:`search`'s)."""
        color = color or game.to_move
        rule = self.dynamic_komi
        state = self.komi_memory.state(game, color)
        extra = state.extra if rule is not None else 0
        result = self.search(game, color, seconds=seconds, progress=progress, extra_komi=extra, spend_rest=spend_rest)
        best = result.best
        if rule is not None and best is not None:
            self.komi_memory.record(game, color, rule.next(state, game.move_number, best.winrate, result.playouts))
        return self._decide(game, color, result, extra)

    def _decide(self, game: Game, color: Color, result: SearchResult, extra: int) -> Decision:
        """The move, pass or resignation a search leads to. Its win rate is not the game's
        while it counts ``extra`` komi points against the player, so then it neither passes
        as hopeless nor resigns on it."""
        cfg = self.config
        cands, done, taken = result.candidates, result.playouts, result.seconds
        best = result.best
        if best is None or all(cand.point is None for cand in cands):
            return Decision(None, playouts=done, seconds=taken, reason="no move left", candidates=cands,
                            extra_komi=extra)
        last = game.last_move
        opponent_passed = last is not None and last.point is None and last.color != color
        searched = Decision(best.point, winrate=best.winrate, playouts=done, seconds=taken, reason="search",
                            candidates=cands, extra_komi=extra)
        if opponent_passed:
            if self.wins_by_counting(game, color):
                return replace(searched, point=None, reason="the count wins")
            if best.winrate < cfg.hopeless_pass_threshold and extra == 0:
                return replace(searched, point=None, reason="hopeless")
        if cfg.resign and done >= cfg.resign_min_playouts and best.winrate < cfg.resign_threshold and extra == 0:
            return replace(searched, point=None, resign=True, reason="clearly lost")
        if game.legality(Move(color, best.point)) is not None:  # never: the root holds legal moves only
            raise AssertionError(f"search chose an illegal move {best.point}")
        return searched

    @staticmethod
    def wins_by_counting(game: Game, color: Color) -> bool:
        """Whether ``color`` wins if it passes now and that ends the game, by the count the
        game will use (:func:`count_after_pass`)."""
        return count_after_pass(game, color).winner is color
