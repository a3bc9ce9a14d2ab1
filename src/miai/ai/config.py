"""The MCTS player's knobs: one frozen dataclass, checked when it is made, and the strength
levels.

Every knob has a type and a range (:data:`LIMITS`); :class:`MctsConfig` refuses a value of
the wrong type or out of range with a :class:`~miai.errors.ConfigError` that names the knob
and what it allows, so that a bad ``--set`` fails at the door rather than as an internal
error in the middle of a game (``rave_equiv=0`` divides by zero in the search, ``chunk=0``
never finishes one).

This module loads no compiled code (numpy only), so that ``miai gtp`` can build the
player's configuration before it answers its first command.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from miai.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

LEVEL_PLAYOUTS = (8, 30, 100, 300, 700, 1500, 3000, 6000, 12000, 1_000_000)
"""Playouts per move at levels 1 to 10 (level 10 is limited by the time budget)."""
PATTERN_MIN_SIZE = 9
"""The smallest board the learned shapes and the move predictor are read on at full strength."""
SMALL_BOARD = 13
"""Boards of fewer lines than this weigh the move predictor's prior ``prior_mm_small`` times
as much (:meth:`MctsConfig.mm_weight`)."""
AS_MEASURED = {"pattern_min_size": 19, "settled_search": False}
"""What levels 1–9 keep of the engine their table was measured with (README, BENCHMARKS.md
"Levels"): the learned shapes and the move predictor on 19×19 only, a search that returns
once its move is settled. Level 10 has the defaults."""


def level_knobs(level: int) -> dict[str, Any]:
    """The knobs strength level ``level`` (1 to 10) sets: its playouts, and below level 10
    the engine its table was measured with (:data:`AS_MEASURED`)."""
    full = {"pattern_min_size": PATTERN_MIN_SIZE}
    return {"playouts": LEVEL_PLAYOUTS[level - 1], **(AS_MEASURED if level < 10 else full)}


@dataclass(frozen=True)
class Limit:
    """What one knob allows: its kind (``int``, ``float``, ``bool``, or ``floats`` for a
    tuple of ``length`` numbers), the least and the greatest value (``low_open``: the least
    excluded), and whether None is allowed."""

    kind: str
    low: float = 0.0
    high: float = 0.0
    low_open: bool = False
    optional: bool = False
    length: int = 0

    def describe(self) -> str:
        """The allowed values in words: ``a number above 0 and at most 1e+09``."""
        if self.kind == "bool":
            text = "true or false"
        else:
            noun = {"int": "a whole number", "float": "a number", "floats": f"{self.length} numbers"}[self.kind]
            low, high = (f"{int(v)}" if self.kind == "int" else f"{v:g}" for v in (self.low, self.high))
            above = f"above {low}" if self.low_open else f"from {low}"
            to = "and at most" if self.low_open else "to"
            text = f"{noun} {above} {to} {high}"
        return f"{text}, or none" if self.optional else text


def _shown(value: Any) -> str:
    """``repr(value)``, cut short for a message (a 5,000-digit number cannot even be shown)."""
    try:
        text = repr(value)
    except ValueError:
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


_PRIOR = Limit("float", 0, 1e6)
_PROBABILITY = Limit("float", 0, 1)
_BOOL = Limit("bool")


def knob(default: Any, limit: Limit) -> Any:
    """A field of :class:`MctsConfig`: its default, and what it allows in the field's
    metadata (``limit``), so that a knob is declared in one place."""
    return field(default=default, metadata={"limit": limit})


def check_knob(name: str, value: Any) -> Any:
    """``value`` as knob ``name`` holds it (a whole number given for a float knob becomes a
    float, a list for ``prior_cfg`` a tuple); raises :class:`ConfigError` naming the knob and
    its range when the value has the wrong type or is out of range."""
    limit = LIMITS.get(name)
    if limit is None:
        raise ConfigError(f"no knob named {name!r} (knobs: {', '.join(sorted(LIMITS))})")
    if value is None and limit.optional:
        return None

    def refuse() -> ConfigError:
        return ConfigError(f"{name} must be {limit.describe()}, not {_shown(value)}")

    def number(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise refuse()
        if limit.kind == "int" and not isinstance(v, int):
            raise refuse()
        if isinstance(v, float) and not math.isfinite(v):
            raise refuse()
        if v > limit.high or v < limit.low or (limit.low_open and v == limit.low):
            raise refuse()
        return v

    if limit.kind == "bool":
        if not isinstance(value, bool):
            raise refuse()
        return value
    if limit.kind == "floats":
        if not isinstance(value, (tuple, list)) or len(value) != limit.length:
            raise refuse()
        return tuple(float(number(v)) for v in value)
    checked = number(value)
    return int(checked) if limit.kind == "int" else float(checked)


@dataclass(frozen=True)
class MctsConfig:
    """Every knob of the search, the policy and the player's decisions (each one's type and
    range: :data:`LIMITS`)."""

    # budget
    playouts: int = knob(1_000_000, Limit("int", 1, 1e12))
    """Most iterations per move."""
    max_seconds: float | None = knob(5.0, Limit("float", 0, 1e6, low_open=True, optional=True))
    """Most seconds per move when no clock says otherwise (None: playouts only)."""
    min_seconds: float = knob(0.05, Limit("float", 0, 3600))
    """Least thinking time a clock leaves (when it is nearly out)."""
    time_safety: float = knob(0.3, Limit("float", 0, 3600))
    """Seconds kept aside from every clock-derived budget (communication, overhead)."""
    early_stop: bool = knob(True, _BOOL)
    """Stop when the most visited move can no longer be overtaken in the budget left."""
    settled_search: bool = knob(True, _BOOL)
    """Once the early stop has settled the move, spend a budget left that would be lost (no
    clock or a fixed time a move, a byo-yomi period) searching below it: the subtree the next
    search keeps."""
    chunk: int = knob(64, Limit("int", 1, 100_000))
    """Iterations per compiled call (between clock checks and progress reports)."""
    threads: int = knob(1, Limit("int", 1, 64))
    """Threads growing the one search tree (:mod:`miai.ai.sharedtree`); above 1 the search is
    no longer repeatable with a seed."""
    thread_batch: int = knob(8, Limit("int", 1, 1024))
    """With several threads: leaves a thread descends to at a time, under the tree's lock,
    before it plays their playouts outside it."""
    virtual_loss: float = knob(3.0, Limit("float", 0, 1e6))
    """With several threads: visits without a win put on a path while its playout runs, so
    that the other descents look elsewhere."""
    # tree
    expand_visits: int = knob(8, Limit("int", 1, 1_000_000))
    rave_equiv: float = knob(3500.0, Limit("float", 0, 1e9, low_open=True))
    prior_even: float = knob(10.0, _PRIOR)
    prior_selfatari: float = knob(10.0, _PRIOR)
    prior_capture_one: float = knob(15.0, _PRIOR)
    prior_capture_many: float = knob(30.0, _PRIOR)
    prior_pat3: float = knob(10.0, _PRIOR)
    prior_cfg: tuple[float, float, float] = knob((24.0, 22.0, 8.0), Limit("floats", 0, 1e6, length=3))
    prior_emptyarea: float = knob(10.0, _PRIOR)
    prior_ladder: float = knob(20.0, _PRIOR)
    """Prior for ladders read at expansion: a lost escape counts as visits without wins, a
    working ladder atari as won visits (0: no ladder reading at all)."""
    prune_ladders: bool = knob(True, _BOOL)
    """Leave out of the tree the escapes that die in a ladder (read when ``prior_ladder`` is
    above 0), unless a ko was just taken or the ladder is short and the chain small
    (:func:`miai._kernel.ladder.worth_running`); Pachi's ``prune_ladders``, on by default."""
    prior_race: float = knob(20.0, _PRIOR)
    """Prior (won visits) for the move that wins a capturing race if played now and loses
    it if the opponent moves first there (:mod:`miai._kernel.semeai`; 0: races not read at
    expansion)."""
    prior_mm: float = knob(40.0, _PRIOR)
    """Prior (won visits, times the square root of the predicted chance) from the move
    predictor (:mod:`miai.ai.movemodel`: learned strengths of a move's spatial pattern, 3×3
    shape, captures, ataris and distances), on boards of ``pattern_min_size`` lines or more
    (0: not read)."""
    prior_mm_small: float = knob(3.0, Limit("float", 0, 1000))
    """How many times ``prior_mm`` the predictor's prior weighs on boards of fewer than
    :data:`SMALL_BOARD` lines (3: 120 won visits against Pachi 12.90 on 9×9, BENCHMARKS.md
    "The predictor's prior tripled on 9×9"; Pachi itself weighs its patterns 210 there)."""
    prior_pattern: float = knob(40.0, _PRIOR)
    """Prior (won visits, times the square root of the chance) for the largest learned
    spatial pattern around a move (:mod:`miai.ai.patterns`: how often players facing that
    shape played into it; Pachi's ``pattern_eqex``; 0: the table is not read), on boards of
    ``pattern_min_size`` lines or more."""
    prior_net: float = knob(300.0, _PRIOR)
    """Prior (won visits, times the square root of the chance) at the root, from the policy
    network over the move predictor (:mod:`miai.ai.policynet`; Pachi's DCNN prior), on 19×19,
    where it was learnt (0: not read; 300 won 65 of 100 against 0 in 19×19 self-play)."""
    prior_net_visits: int = knob(125, Limit("int", 0, 1_000_000_000))
    """The fewest visits from which a node below the root gets the network's prior too, once
    (:mod:`miai.ai.netprior`; 0: the root only; 125 won 66 of 100 at 2 s a move in 19×19
    self-play, and 54 of 100 at 0.6 s a move, where 50 won 49)."""
    prior_net_share: float = knob(0.015, Limit("float", 0, 1))
    """The share of the search's playouts (its budget, or what its clock allows at the rate
    so far) from which a node below the root gets the network's prior, if that is more than
    ``prior_net_visits``: one setting for every search's size (0.015 is 125 visits at 2 s a
    move and about 600 at 10 s, where 625 won 16 of 30 against Pachi 12.90)."""
    pattern_min_size: int = knob(PATTERN_MIN_SIZE, Limit("int", 2, 25))
    """The smallest board the learned patterns and the move predictor, both learned from
    19×19 games, are used on (levels 1–9 use them on 19×19 only: :data:`AS_MEASURED`)."""
    tree_capacity: int = knob(2_000_000, Limit("int", 1, 100_000_000))
    reuse_tree: bool = knob(True, _BOOL)
    # playouts (the heavy policy's probabilities)
    p_capture: float = knob(0.9, _PROBABILITY)
    p_pattern: float = knob(0.95, _PROBABILITY)
    p_selfatari_heuristic: float = knob(0.9, _PROBABILITY)
    p_selfatari_random: float = knob(0.5, _PROBABILITY)
    p_twolib: float = knob(0.9, _PROBABILITY)
    """How often a playout move first looks at the chains with two liberties around the last
    move (:mod:`miai._kernel.twolib`; 0: never)."""
    p_nakade: float = knob(0.6, _PROBABILITY)
    """How often a playout move takes the vital point of a small eye space the last move
    borders (:mod:`miai._kernel.nakade`; 0: never)."""
    p_ko: float = knob(0.4, _PROBABILITY)
    """How often a playout move, within a few turns of a ko capture and once the ban is
    lifted, plays the ko point: retakes or connects (:func:`miai._kernel.heavy.ko_fight_move`;
    0: never)."""
    race_min_chain: int = knob(8, Limit("int", 2, 361))
    """The races the playouts answer (``p_race_reply``) are between chains of at least this
    many stones each."""
    p_race_reply: float = knob(1.0, _PROBABILITY)
    """How often a playout answers the opponent's move near a capturing race between chains
    of at least ``race_min_chain`` stones that stood on the board when it began, with the
    reader's move in that race: a fill of the opponent's liberties, or first the approach
    move a fill needs (:func:`miai._kernel.semeai.race_reply`; 0: never)."""
    race_reply_min_size: int = knob(19, Limit("int", 2, 25))
    """The smallest board the playouts answer races on (``p_race_reply``)."""
    # decisions
    resign: bool = knob(False, _BOOL)
    resign_threshold: float = knob(0.1, _PROBABILITY)
    resign_min_playouts: int = knob(1000, Limit("int", 0, 1e12))
    hopeless_pass_threshold: float = knob(0.05, _PROBABILITY)
    """After the opponent's pass, pass too when the best win rate is below this."""
    seed: int | None = knob(None, Limit("int", 0, 2**63 - 1, optional=True))
    """Random seed (None: from the clock)."""
    # dynamic komi (:mod:`miai.ai.dynkomi`)
    dynkomi: bool = knob(False, _BOOL)
    """Search with an extra komi against the player while it leads, raised and lowered with
    its win rate (Pachi's adaptive dynamic komi; off by default: still being measured)."""
    dynkomi_start: int = knob(60, Limit("int", 0, 10_000))
    """The move from which the extra komi may change."""
    dynkomi_zone: tuple[float, float] = knob((0.6, 0.7), Limit("floats", 0, 1, length=2))
    """Below the first win rate the extra komi comes down by ``dynkomi_drop`` points (and
    never higher than that again); above the second it goes up by ``dynkomi_step``."""
    dynkomi_step: int = knob(2, Limit("int", 1, 100))
    """Points the extra komi goes up by, a move, while the player leads."""
    dynkomi_drop: int = knob(4, Limit("int", 1, 1000))
    """Points the extra komi comes down by, a move, when the win rate falls below the zone."""

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, check_knob(f.name, getattr(self, f.name)))
        low, high = self.dynkomi_zone
        if low > high:
            raise ConfigError(f"dynkomi_zone must be two win rates, the lower first, not {low:g},{high:g}")

    @classmethod
    def parse_settings(cls, settings: list[str]) -> dict[str, Any]:
        """Knob values from ``NAME=VALUE`` texts (``prior_ladder=0``, ``prior_cfg=24,22,8``,
        ``max_seconds=none``), each converted to the knob's type and checked against its
        range; raises :class:`ConfigError` naming the knob or the value that is wrong."""
        defaults = cls()
        out: dict[str, Any] = {}
        for text in settings:
            name, sep, raw = text.partition("=")
            name, raw = name.strip(), raw.strip()
            if not sep or not name:
                raise ConfigError(f"{text!r} is not NAME=VALUE")
            if name not in LIMITS:
                raise ConfigError(f"no knob named {name!r} (knobs: {', '.join(sorted(LIMITS))})")
            current = getattr(defaults, name)
            limit = LIMITS[name]
            if limit.kind == "floats" and len(raw.split(",")) != limit.length:
                raise ConfigError(f"{name}={_shown(raw)}: not a valid tuple of {limit.length} numbers (default {current!r})")
            try:
                if raw.lower() == "none" and limit.optional:
                    value: Any = None
                elif limit.kind == "bool":
                    if raw.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError
                    value = raw.lower() in ("true", "1", "yes", "on")
                elif limit.kind == "floats":
                    value = tuple(float(v) for v in raw.split(","))
                elif limit.kind == "int":
                    value = int(raw)
                else:
                    value = float(raw)
            except ValueError:
                kind = type(current).__name__ if current is not None else "int"
                raise ConfigError(f"{name}={_shown(raw)}: not a valid {kind} (default {current!r})") from None
            out[name] = check_knob(name, value)
        return out

    @classmethod
    def for_level(cls, level: int, **changes: Any) -> MctsConfig:
        """Strength level 1 (a few playouts) to 10 (the full budget), with any other knobs
        ``changes`` sets; raises :class:`ConfigError` for another level or a bad knob."""
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
            raise ConfigError(f"level must be a whole number from 1 to 10, not {level!r}")
        for name in changes:
            if name not in LIMITS:
                raise ConfigError(f"no knob named {name!r} (knobs: {', '.join(sorted(LIMITS))})")
        return cls(**{**level_knobs(level), **changes})

    def mm_weight(self, size: int | None = None) -> float:
        """The move predictor's prior on a board of ``size`` lines: ``prior_mm``, times
        ``prior_mm_small`` below :data:`SMALL_BOARD` lines (no size given: ``prior_mm``)."""
        small = size is not None and size < SMALL_BOARD
        return self.prior_mm * (self.prior_mm_small if small else 1.0)

    def tree_params(self, komi: float, size: int | None = None) -> np.ndarray:
        """The search's parameter array (:mod:`miai._kernel.tree`'s ``S_*`` indices), on a
        board of ``size`` lines when given (:meth:`mm_weight`)."""
        import numpy as np  # with the kernel: reading the knobs loads neither

        from miai._kernel import tree as T

        p = np.zeros(T.NSPARAMS, np.float64)
        p[T.S_EXPAND_VISITS] = self.expand_visits
        p[T.S_RAVE_EQUIV] = self.rave_equiv
        p[T.S_PRIOR_EVEN] = self.prior_even
        p[T.S_PRIOR_SELFATARI] = self.prior_selfatari
        p[T.S_PRIOR_CAPTURE_ONE] = self.prior_capture_one
        p[T.S_PRIOR_CAPTURE_MANY] = self.prior_capture_many
        p[T.S_PRIOR_PAT3] = self.prior_pat3
        p[T.S_PRIOR_CFG1], p[T.S_PRIOR_CFG2], p[T.S_PRIOR_CFG3] = self.prior_cfg
        p[T.S_PRIOR_EMPTYAREA] = self.prior_emptyarea
        p[T.S_PRIOR_LADDER] = self.prior_ladder
        p[T.S_PRIOR_PATTERN] = self.prior_pattern
        p[T.S_PRIOR_MM] = self.mm_weight(size)
        p[T.S_PRIOR_RACE] = self.prior_race
        p[T.S_PRUNE_LADDERS] = float(self.prune_ladders)
        p[T.S_KOMI] = komi
        return p

    def policy_params(self, size: int | None = None) -> np.ndarray:
        """The heavy playout policy's parameter array (:mod:`miai._kernel.heavy`'s ``P_*``),
        for a board of ``size`` lines when given: the race replies are off on boards smaller
        than ``race_reply_min_size``."""
        import numpy as np  # with the kernel: reading the knobs loads neither

        from miai._kernel import heavy as H

        p = np.zeros(H.NPARAMS, np.float64)
        p[H.P_CAPTURE] = self.p_capture
        p[H.P_PATTERN] = self.p_pattern
        p[H.P_SELFATARI_HEURISTIC] = self.p_selfatari_heuristic
        p[H.P_SELFATARI_RANDOM] = self.p_selfatari_random
        p[H.P_TWOLIB] = self.p_twolib
        p[H.P_NAKADE] = self.p_nakade
        p[H.P_KO] = self.p_ko
        p[H.P_RACE_MIN_CHAIN] = self.race_min_chain
        p[H.P_RACE_REPLY] = self.p_race_reply if size is None or size >= self.race_reply_min_size else 0.0
        return p


LIMITS: dict[str, Limit] = {f.name: f.metadata["limit"] for f in fields(MctsConfig)}
"""The type and range of every knob of :class:`MctsConfig`, read from its fields."""
