"""The MCTS player's knobs: one frozen dataclass, and the strength levels.

This module loads no compiled code (numpy only), so that ``miai gtp`` can build the
player's configuration before it answers its first command.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

LEVEL_PLAYOUTS = (8, 30, 100, 300, 700, 1500, 3000, 6000, 12000, 1_000_000)
"""Playouts per move at levels 1 to 10 (level 10 is limited by the time budget)."""


@dataclass(frozen=True)
class MctsConfig:
    """Every knob of the search, the policy and the player's decisions."""

    # budget
    playouts: int = 1_000_000
    """Most iterations per move."""
    max_seconds: float | None = 5.0
    """Most seconds per move when no clock says otherwise (None: playouts only)."""
    min_seconds: float = 0.05
    """Least thinking time a clock leaves (when it is nearly out)."""
    time_safety: float = 0.3
    """Seconds kept aside from every clock-derived budget (communication, overhead)."""
    early_stop: bool = True
    """Stop when the most visited move can no longer be overtaken in the budget left."""
    chunk: int = 64
    """Iterations per compiled call (between clock checks and progress reports)."""
    # tree
    expand_visits: int = 8
    rave_equiv: float = 3500.0
    uct_c: float = 0.0
    prior_even: float = 10.0
    prior_selfatari: float = 10.0
    prior_capture_one: float = 15.0
    prior_capture_many: float = 30.0
    prior_pat3: float = 10.0
    prior_cfg: tuple[float, float, float] = (24.0, 22.0, 8.0)
    prior_emptyarea: float = 10.0
    prior_ladder: float = 20.0
    """Prior for ladders read at expansion: a lost escape counts as visits without wins, a
    working ladder atari as won visits (0: no ladder reading at all)."""
    tree_capacity: int = 2_000_000
    reuse_tree: bool = True
    # playouts
    p_capture: float = 0.9
    p_pattern: float = 0.95
    p_selfatari_heuristic: float = 0.9
    p_selfatari_random: float = 0.5
    # decisions
    resign: bool = False
    resign_threshold: float = 0.1
    resign_min_playouts: int = 1000
    hopeless_pass_threshold: float = 0.05
    """After the opponent's pass, pass too when the best win rate is below this."""
    ownership_threshold: float = 0.4
    """Mean ownership beyond which a point counts for a side in the pass decision."""
    seed: int | None = None
    """Random seed (None: from the clock)."""

    @classmethod
    def parse_settings(cls, settings: list[str]) -> dict[str, Any]:
        """Knob values from ``NAME=VALUE`` texts (``prior_ladder=0``, ``prior_cfg=24,22,8``,
        ``max_seconds=none``), each converted to the knob's type; raises ValueError naming
        the knob or the value that is wrong."""
        defaults = cls()
        known = {f.name for f in fields(cls)}
        out: dict[str, Any] = {}
        for text in settings:
            name, sep, raw = text.partition("=")
            name, raw = name.strip(), raw.strip()
            if not sep or not name:
                raise ValueError(f"{text!r} is not NAME=VALUE")
            if name not in known:
                raise ValueError(f"no knob named {name!r} (knobs: {', '.join(sorted(known))})")
            current = getattr(defaults, name)
            try:
                if raw.lower() == "none" and name in ("max_seconds", "seed"):
                    value: Any = None
                elif isinstance(current, bool):
                    if raw.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError
                    value = raw.lower() in ("true", "1", "yes", "on")
                elif isinstance(current, tuple):
                    value = tuple(float(v) for v in raw.split(","))
                    if len(value) != len(current):
                        raise ValueError
                elif isinstance(current, int) or name == "seed":
                    value = int(raw)
                else:
                    value = float(raw)
            except ValueError:
                kind = type(current).__name__ if current is not None else "int"
                raise ValueError(f"{name}={raw!r}: not a valid {kind} (default {current!r})") from None
            out[name] = value
        return out

    @classmethod
    def for_level(cls, level: int, **changes: Any) -> MctsConfig:
        """Strength level 1 (a few playouts) to 10 (the full budget)."""
        if not 1 <= level <= 10:
            raise ValueError(f"level must be 1 to 10, not {level}")
        return cls(**{"playouts": LEVEL_PLAYOUTS[level - 1], **changes})

    def tree_params(self, komi: float) -> np.ndarray:
        """The search's parameter array (:mod:`miai._kernel.tree`'s ``S_*`` indices)."""
        from miai._kernel import tree as T

        p = np.zeros(T.NSPARAMS, np.float64)
        p[T.S_EXPAND_VISITS] = self.expand_visits
        p[T.S_RAVE_EQUIV] = self.rave_equiv
        p[T.S_UCT_C] = self.uct_c
        p[T.S_PRIOR_EVEN] = self.prior_even
        p[T.S_PRIOR_SELFATARI] = self.prior_selfatari
        p[T.S_PRIOR_CAPTURE_ONE] = self.prior_capture_one
        p[T.S_PRIOR_CAPTURE_MANY] = self.prior_capture_many
        p[T.S_PRIOR_PAT3] = self.prior_pat3
        p[T.S_PRIOR_CFG1], p[T.S_PRIOR_CFG2], p[T.S_PRIOR_CFG3] = self.prior_cfg
        p[T.S_PRIOR_EMPTYAREA] = self.prior_emptyarea
        p[T.S_PRIOR_LADDER] = self.prior_ladder
        p[T.S_KOMI] = komi
        return p

    def policy_params(self) -> np.ndarray:
        """The playout policy's parameter array (:mod:`miai._kernel.policy`'s ``P_*``)."""
        from miai._kernel import policy as P

        p = np.zeros(P.NPARAMS, np.float64)
        p[P.P_CAPTURE] = self.p_capture
        p[P.P_PATTERN] = self.p_pattern
        p[P.P_SELFATARI_HEURISTIC] = self.p_selfatari_heuristic
        p[P.P_SELFATARI_RANDOM] = self.p_selfatari_random
        return p
