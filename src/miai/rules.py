"""Rulesets as values (docs/RULES.md §8).

A :class:`Rules` is a frozen dataclass: code reads its fields, never a preset's name. The
seven presets of docs/RULES.md fill the fields in; any field can be changed alone with
:meth:`Rules.replace`, and every ruleset round-trips through text::

    >>> r = Rules.preset("japanese").replace(komi=0.5)
    >>> str(r)
    'japanese komi=0.5'
    >>> Rules.parse(str(r)) == r
    True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from miai.errors import RulesError

MAX_KOMI = 1000.0
"""The largest komi, either way: a ruleset with more is refused wherever its text or value
comes from (a game's margin stays within what a :class:`~miai.result.Result` can say)."""


class Scoring(str, Enum):
    """Area (stones + territory, Chinese) or territory (territory + prisoners, Japanese)."""

    AREA = "area"
    TERRITORY = "territory"


class KoRule(str, Enum):
    """Which repeated positions a move may not create (docs/RULES.md §3)."""

    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class HandicapBonus(str, Enum):
    """Points White gets per handicap stone under area scoring: none, N (Chinese), N-1 (AGA)."""

    NONE = "0"
    N = "N"
    N_MINUS_1 = "N-1"

    def points(self, handicap: int) -> int:
        """The bonus for a game with ``handicap`` stones (0 or 1 stone gives nothing)."""
        if handicap < 2 or self is HandicapBonus.NONE:
            return 0
        return handicap if self is HandicapBonus.N else handicap - 1


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset. Field names are also the keys of the text form."""

    scoring: Scoring = Scoring.AREA
    ko: KoRule = KoRule.POSITIONAL
    void_on_repetition: bool = False
    """Under simple ko: the third occurrence of a position with the same player to move voids the game."""
    suicide: bool = False
    """Multi-stone suicide allowed (a single stone's suicide is illegal under every ruleset)."""
    seki_points: bool = True
    """Empty points inside a seki count as territory (area rulesets) or not (Japanese, Korean)."""
    handicap_bonus: HandicapBonus = HandicapBonus.NONE
    komi: float = 7.5
    white_wins_ties: bool = False
    remove_dead_stones: bool = True
    """Dead stones are agreed and removed after two passes (docs/RULES.md §5), or stones count as they stand."""

    def __post_init__(self) -> None:
        for name, kind in (("scoring", Scoring), ("ko", KoRule), ("handicap_bonus", HandicapBonus)):
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, name, kind(value))
                except ValueError:
                    allowed = ", ".join(v.value for v in kind)
                    raise RulesError(f"{name} must be one of {allowed}, not {value!r}") from None
        for name in ("void_on_repetition", "suicide", "seki_points", "white_wins_ties", "remove_dead_stones"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        komi = self.komi
        if isinstance(komi, bool) or not isinstance(komi, (int, float)) or not math.isfinite(komi):
            raise RulesError(f"komi must be a finite number, not {komi!r}")
        if abs(komi) > MAX_KOMI:
            raise RulesError(f"komi must be from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {komi:g}")
        object.__setattr__(self, "komi", float(komi))

    # ------------------------------------------------------------------ presets
    @staticmethod
    def preset(name: str) -> Rules:
        """The named preset (``simple``, ``chinese``, ``japanese``, ``korean``, ``aga``,
        ``new-zealand``, ``tromp-taylor``); common spellings such as ``Japanese``, ``NZ`` or
        ``TrompTaylor`` are accepted."""
        key = _normalize(name)
        key = PRESET_ALIASES.get(key, key)
        try:
            return PRESETS[key]
        except KeyError:
            raise RulesError(f"unknown ruleset {name!r}; presets are: {', '.join(PRESETS)}") from None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like the constructor)."""
        return replace(self, **changes)

    # --------------------------------------------------------------- text form
    def nearest_preset(self) -> str:
        """The name of the preset that differs from these rules in the fewest fields (the
        first in :data:`PRESETS`' order on ties): their own name when they are one."""
        return min(PRESETS, key=lambda name: len(self._differences(PRESETS[name])))

    def _differences(self, other: Rules) -> list[str]:
        """The names of the fields whose values differ between these rules and ``other``."""
        return [f.name for f in fields(Rules) if getattr(other, f.name) != getattr(self, f.name)]

    def to_text(self) -> str:
        """The nearest preset's name followed by ``key=value`` for each field that differs."""
        name = self.nearest_preset()
        parts = [name] + [f"{key}={_format_value(getattr(self, key))}" for key in self._differences(PRESETS[name])]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()

    @staticmethod
    def parse(text: str) -> Rules:
        """Read the text form: a preset name, then optional ``key=value`` overrides.

        Overrides may also come alone (``komi=6.5 ko=simple``), applied to the ``chinese``
        preset. Raises :class:`RulesError` saying which word was not understood.
        """
        words = text.replace(",", " ").split()
        if not words:
            raise RulesError("empty ruleset description")
        rules = PRESETS["chinese"]
        if "=" not in words[0]:
            rules = Rules.preset(words[0])
            words = words[1:]
        changes: dict[str, Any] = {}
        for word in words:
            key, sep, value = word.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not sep:
                raise RulesError(f"expected key=value after the preset name, got {word!r}")
            changes[key] = _parse_field(key, value)
        return rules.replace(**changes)


FIELD_NAMES = tuple(f.name for f in fields(Rules))

_TRUE = {"yes", "true", "1", "on", "counted"}
_FALSE = {"no", "false", "0", "off", "not-counted", "not_counted"}


def _parse_field(key: str, value: str) -> Any:
    """Turn the text of one field into its value, or raise RulesError naming the field."""
    if key not in FIELD_NAMES:
        raise RulesError(f"unknown rule {key!r}; rules are: {', '.join(FIELD_NAMES)}")
    v = value.strip().lower()
    if key == "komi":
        try:
            return float(v)
        except ValueError:
            raise RulesError(f"komi must be a number, not {value!r}") from None
    if key == "scoring":
        return Scoring(v) if v in {s.value for s in Scoring} else _bad(key, value, Scoring)
    if key == "ko":
        return KoRule(v) if v in {k.value for k in KoRule} else _bad(key, value, KoRule)
    if key == "handicap_bonus":
        v = v.upper()
        return HandicapBonus(v) if v in {b.value for b in HandicapBonus} else _bad(key, value, HandicapBonus)
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise RulesError(f"{key} must be yes or no, not {value!r}")


def _bad(key: str, value: str, kind: type[Enum]) -> Any:
    raise RulesError(f"{key} must be one of {', '.join(str(m.value) for m in kind)}, not {value!r}")


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _normalize(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


_A, _T = Scoring.AREA, Scoring.TERRITORY
_POS, _SIT, _SIM = KoRule.POSITIONAL, KoRule.SITUATIONAL, KoRule.SIMPLE
_B0, _BN, _BN1 = HandicapBonus.NONE, HandicapBonus.N, HandicapBonus.N_MINUS_1

_PRESET_TABLE: tuple[tuple[str, Scoring, KoRule, bool, bool, bool, HandicapBonus, float, bool, bool], ...] = (
    # name          scoring  ko    void   suicide seki   bonus komi ties   remove dead
    ("simple",       _A,     _POS, False, False,  True,  _B0,  7.0, False, False),
    ("chinese",      _A,     _POS, False, False,  True,  _BN,  7.5, False, True),
    ("japanese",     _T,     _SIM, True,  False,  False, _B0,  6.5, False, True),
    ("korean",       _T,     _SIM, True,  False,  False, _B0,  6.5, False, True),
    ("aga",          _A,     _SIT, False, False,  True,  _BN1, 7.5, False, True),
    ("new-zealand",  _A,     _SIT, False, True,   True,  _B0,  7.0, False, True),
    ("tromp-taylor", _A,     _POS, False, True,   True,  _B0,  7.5, False, False),
)
"""The presets, one row each, the columns in the order of :class:`Rules`'s fields."""

PRESETS: dict[str, Rules] = {row[0]: Rules(*row[1:]) for row in _PRESET_TABLE}
"""docs/RULES.md §8, in the order of its table."""

PRESET_ALIASES: dict[str, str] = {
    "jp": "japanese",
    "japan": "japanese",
    "cn": "chinese",
    "china": "chinese",
    "kr": "korean",
    "korea": "korean",
    "nz": "new-zealand",
    "newzealand": "new-zealand",
    "new-zeland": "new-zealand",
    "tt": "tromp-taylor",
    "tromptaylor": "tromp-taylor",
    "tromp/taylor": "tromp-taylor",
    "american": "aga",
    "simple-rules": "simple",
}
