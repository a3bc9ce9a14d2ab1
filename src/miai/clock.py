"""Time controls and game clocks, in integer milliseconds.

One clock for every part of miai: the GTP engine stores the controller's time control and
``time_left`` reports with these types, the search turns them into a thinking time
(:func:`miai.ai.mcts.move_budget`), the referee (:mod:`miai.match`) keeps the two engines'
clocks with them, and an online server can keep its players' clocks the same way.

* :class:`TimeControl` is the time system of a game, a frozen value: ``none``, ``absolute``,
  ``byoyomi`` (Japanese), ``canadian``, ``fischer`` (an increment, with an optional cap on the
  bank) or ``simple`` (a fixed time for every move). Its text form is ``miai match --time``'s
  and round-trips; it writes and reads GTP's ``time_settings`` and kgsGtp's
  ``kgs-time_settings``, and describes itself for people (``5:00 + 3×30 s``).
* :class:`Clock` is the state of both players' clocks, also a frozen value: every change
  (:meth:`~Clock.start`, :meth:`~Clock.stop`, :meth:`~Clock.pause`, ...) returns a new
  clock, so a game owner can keep the clock after each event and a test can compare them.
  The time comes from an injected :class:`~miai.timesource.TimeSource` (its monotonic
  milliseconds), a fake in tests.
* :class:`TimeLeft` is what GTP's ``time_left`` says: the time left and the stones (or
  byo-yomi periods) left.

Decisions (as Lichess's scalachess and OGS's JGOF clocks make them, with integer ms):

* **The flag at zero.** A move made with exactly 0 ms left is on time: a player who may
  think ``t`` ms loses only when a move takes ``t + 1`` ms or more. The same rule makes a
  byo-yomi period used to its last millisecond count as kept (it is not used up).
* **Overtime.** Main time is spent first; the move that runs out of it goes on into the
  overtime, and counts as an overtime move (a Canadian stone, a byo-yomi period).
* **Lag.** A :class:`LagAllowance` gives each player a small bank (Lichess's "quota"): each
  move may be excused up to the lag the server measured for it, taken from the bank, and
  the bank grows by a small gain after each move, up to a cap. The flag falls only when even
  the whole bank could not save the move. Off by default (a referee on one machine has no
  network lag).
* **Pause.** A paused clock charges nobody; the server pauses it in the marking phase.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from miai.coords import Color
from miai.errors import ClockError
from miai.timesource import SYSTEM_TIME, TimeSource

__all__ = [
    "Clock",
    "LagAllowance",
    "PlayerClock",
    "TimeControl",
    "TimeLeft",
    "TimeSystem",
]

MAX_SECONDS = 366 * 24 * 3600
"""The longest time any field of a time control may hold: a year (correspondence games)."""
MAX_MS = MAX_SECONDS * 1000
DAY_MS = 86_400_000
"""A day: a time written ``3d`` (correspondence games give days per move)."""
_UNITS = {"d": 86_400, "h": 3_600}
MAX_COUNT = 1000
"""The most byo-yomi periods or Canadian stones a time control may have."""

# ---------------------------------------------------------------------- reading numbers
def _seconds(word: str, what: str) -> int:
    """A number of seconds (decimals allowed), or of days or hours (``3d``, ``12h``), as
    milliseconds; ClockError names ``what``."""
    text = str(word).strip()
    unit = _UNITS.get(text[-1:], 1) if text[:-1] else 1
    try:
        value = float(text[:-1] if unit != 1 else text) * unit
    except (ValueError, TypeError):
        raise ClockError(f"{what} must be a number, not {word!r}") from None
    if not math.isfinite(value):
        raise ClockError(f"{what} must be a finite number, not {word!r}")
    if value < 0:
        raise ClockError(f"{what} must not be negative, not {word}")
    if value > MAX_SECONDS:
        raise ClockError(f"{what} must be at most {MAX_SECONDS} seconds, not {word}")
    return round(value * 1000)


def _count(word: str, what: str) -> int:
    """A whole number from 0 to :data:`MAX_COUNT`; ClockError names ``what``."""
    w = str(word).strip()
    digits = w.lstrip("+-")
    if digits.isdigit() and len(digits) > 9:
        raise ClockError(f"{what} must be at most {MAX_COUNT}, not {w[:20]}{'...' if len(w) > 20 else ''}")
    try:
        value = int(w)
    except ValueError:
        raise ClockError(f"{what} must be an integer, not {word!r}") from None
    if value < 0:
        raise ClockError(f"{what} must not be negative, not {value}")
    if value > MAX_COUNT:
        raise ClockError(f"{what} must be at most {MAX_COUNT}, not {value}")
    return value


def _check_ms(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"{what} must be a whole number of milliseconds, not {value!r}")
    if not 0 <= value <= MAX_MS:
        raise ClockError(f"{what} must be from 0 to {MAX_MS} ms, not {value}")


def _check_count(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"{what} must be an integer, not {value!r}")
    if not 0 <= value <= MAX_COUNT:
        raise ClockError(f"{what} must be from 0 to {MAX_COUNT}, not {value}")


def _sec_text(ms: int) -> str:
    """Milliseconds as exact seconds text: ``60``, ``0.5``, ``1.25``."""
    whole, frac = divmod(ms, 1000)
    return f"{whole}.{frac:03d}".rstrip("0") if frac else str(whole)


def _time_text(ms: int) -> str:
    """A field of the text form: whole days as ``3d``, anything else in seconds (:func:`_sec_text`)."""
    if ms and ms % DAY_MS == 0:
        return f"{ms // DAY_MS}d"
    return _sec_text(ms)


def _gtp_sec(ms: int) -> int:
    """Whole seconds for GTP (which has no fractions): rounded down, but at least 1 if any."""
    return max(1, ms // 1000) if ms else 0


def _human(ms: int) -> str:
    """A duration for people: ``30 s``, ``1.5 s``, ``5:00``, ``1:30:00``, ``3 days``."""
    if ms and ms % DAY_MS == 0:
        days = ms // DAY_MS
        return f"{days} day{'s' if days != 1 else ''}"
    if ms % 1000 or ms < 60_000:
        return f"{_sec_text(ms)} s"
    s = ms // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


# ---------------------------------------------------------------------- time controls
class TimeSystem(str, Enum):
    """The time systems a :class:`TimeControl` can be (a closed set, as JGOF's)."""

    NONE = "none"
    ABSOLUTE = "absolute"
    """``main_ms`` for the whole game (sudden death)."""
    BYOYOMI = "byoyomi"
    """Main time, then ``periods`` periods of ``period_ms``; a move made within a period keeps
    it, a period overrun is used up and the next begins."""
    CANADIAN = "canadian"
    """Main time, then ``stones`` moves in each ``period_ms``; a new period after each block."""
    FISCHER = "fischer"
    """Main time, ``increment_ms`` added after each move, the bank capped at ``cap_ms``."""
    SIMPLE = "simple"
    """``period_ms`` for every move; unused time is not kept."""


_FIELDS: dict[TimeSystem, tuple[str, ...]] = {
    TimeSystem.NONE: (),
    TimeSystem.ABSOLUTE: ("main_ms",),
    TimeSystem.BYOYOMI: ("main_ms", "period_ms", "periods"),
    TimeSystem.CANADIAN: ("main_ms", "period_ms", "stones"),
    TimeSystem.FISCHER: ("main_ms", "increment_ms", "cap_ms"),
    TimeSystem.SIMPLE: ("period_ms",),
}
"""The fields each system may set, in the order its text form gives them
(``byoyomi:MAIN:PERIOD:PERIODS``): the one table behind the checks and ``str()``."""
_FIELD_NAMES = {
    "main_ms": "the main time",
    "period_ms": "the period time",
    "periods": "the number of periods",
    "stones": "the stones per period",
    "increment_ms": "the increment",
    "cap_ms": "the cap",
}
def _article(system: TimeSystem) -> str:
    return ("an " if system is TimeSystem.ABSOLUTE else "a ") + system.value


_SYNTAX = (
    "none, SECONDS, absolute:MAIN, byoyomi:MAIN:PERIOD:PERIODS, canadian:MAIN:PERIOD:STONES, "
    "fischer:MAIN:INCREMENT[:CAP] or simple:SECONDS; times in seconds, or days and hours as 3d, 12h"
)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time system, in integer milliseconds.

    Only the fields of its system may be set (the others stay 0, ``cap_ms`` None), so equal
    controls compare equal; the constructors :meth:`absolute`, :meth:`byoyomi`,
    :meth:`canadian`, :meth:`fischer` and :meth:`simple` name them. ``period_ms`` is a
    byo-yomi period, a Canadian period or, under ``simple``, the time for each move.

    >>> tc = TimeControl.parse("byoyomi:300:30:3")
    >>> tc.main_ms, tc.period_ms, tc.periods
    (300000, 30000, 3)
    >>> str(tc), tc.describe()
    ('byoyomi:300:30:3', '5:00 + 3×30 s')
    >>> TimeControl.parse("fischer:300:10:600").gtp_time_settings()
    'time_settings 300 0 0'
    """

    system: TimeSystem = TimeSystem.NONE
    main_ms: int = 0
    period_ms: int = 0
    periods: int = 0
    stones: int = 0
    increment_ms: int = 0
    cap_ms: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.system, TimeSystem):
            try:
                object.__setattr__(self, "system", TimeSystem(self.system))
            except ValueError:
                raise ClockError(f"not a time system: {self.system!r} ({', '.join(s.value for s in TimeSystem)})") from None
        for name in ("main_ms", "period_ms", "increment_ms"):
            _check_ms(getattr(self, name), _FIELD_NAMES[name])
        if self.cap_ms is not None:
            _check_ms(self.cap_ms, _FIELD_NAMES["cap_ms"])
        for name in ("periods", "stones"):
            _check_count(getattr(self, name), _FIELD_NAMES[name])
        allowed = _FIELDS[self.system]
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if name not in allowed and value not in (0, None):
                raise ClockError(f"{_article(self.system)} time control has no {_FIELD_NAMES[name][4:]} (got {value})")
        s = self.system
        if s in (TimeSystem.BYOYOMI, TimeSystem.CANADIAN, TimeSystem.SIMPLE) and self.period_ms == 0:
            raise ClockError(f"{_article(s)} time control needs a period time above 0")
        if s is TimeSystem.BYOYOMI and self.periods == 0:
            raise ClockError("a byoyomi time control needs at least one period")
        if s is TimeSystem.CANADIAN and self.stones == 0:
            raise ClockError("a canadian time control needs at least one stone per period")
        if s is TimeSystem.FISCHER and self.cap_ms is not None and self.cap_ms < self.main_ms:
            raise ClockError(f"the cap ({_sec_text(self.cap_ms)} s) must not be below the main time ({_sec_text(self.main_ms)} s)")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def absolute(cls, main_ms: int) -> TimeControl:
        return cls(TimeSystem.ABSOLUTE, main_ms)

    @classmethod
    def byoyomi(cls, main_ms: int, period_ms: int, periods: int) -> TimeControl:
        return cls(TimeSystem.BYOYOMI, main_ms, period_ms, periods=periods)

    @classmethod
    def canadian(cls, main_ms: int, period_ms: int, stones: int) -> TimeControl:
        return cls(TimeSystem.CANADIAN, main_ms, period_ms, stones=stones)

    @classmethod
    def fischer(cls, main_ms: int, increment_ms: int, cap_ms: int | None = None) -> TimeControl:
        return cls(TimeSystem.FISCHER, main_ms, increment_ms=increment_ms, cap_ms=cap_ms)

    @classmethod
    def simple(cls, per_move_ms: int) -> TimeControl:
        return cls(TimeSystem.SIMPLE, period_ms=per_move_ms)

    @property
    def unlimited(self) -> bool:
        return self.system is TimeSystem.NONE

    @property
    def correspondence(self) -> bool:
        """Days per move (``fischer:3d:1d``): a game played over days, whose clock is the
        calendar's (a server's downtime is charged to the player to move, as the days go by)."""
        return not self.unlimited and max(self.main_ms, self.period_ms, self.increment_ms) >= DAY_MS

    # ------------------------------------------------------------------ text
    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``miai match --time``'s syntax (the inverse of ``str()``): ``none``,
        ``SECONDS`` or ``absolute:MAIN``, ``byoyomi:MAIN:PERIOD:PERIODS``,
        ``canadian:MAIN:PERIOD:STONES``, ``fischer:MAIN:INCREMENT[:CAP]``,
        ``simple:SECONDS``. Times are seconds, decimals allowed. A byo-yomi or Canadian
        overtime of no time is absolute time. Raises :class:`~miai.errors.ClockError`
        naming the bad field, and for a control with no time at all."""
        t = str(text).strip().lower()
        parts = t.split(":")
        if t in ("", "none"):
            return cls()
        if len(parts) == 1:
            try:
                float(parts[0])
            except ValueError:
                raise ClockError(f"not a time control: {text!r} ({_SYNTAX})") from None
            parts = ["absolute", parts[0]]
        kind, nums = parts[0].replace("-", ""), parts[1:]
        try:
            if kind == "absolute" and len(nums) == 1:
                tc = cls.absolute(_seconds(nums[0], "the main time"))
            elif kind in ("byoyomi", "canadian") and len(nums) == 3:
                main = _seconds(nums[0], "the main time")
                period = _seconds(nums[1], "the period time")
                count = _count(nums[2], "the number of periods" if kind == "byoyomi" else "the stones per period")
                if period == 0 or count == 0:
                    tc = cls.absolute(main)
                elif kind == "byoyomi":
                    tc = cls.byoyomi(main, period, count)
                else:
                    tc = cls.canadian(main, period, count)
            elif kind == "fischer" and len(nums) in (2, 3):
                cap = _seconds(nums[2], "the cap") if len(nums) == 3 else None
                tc = cls.fischer(_seconds(nums[0], "the main time"), _seconds(nums[1], "the increment"), cap)
            elif kind == "simple" and len(nums) == 1:
                per_move = _seconds(nums[0], "the time per move")
                if per_move == 0:
                    raise ClockError("the time per move must be above 0")
                tc = cls.simple(per_move)
            else:
                raise ClockError(f"not a time control: {text!r} ({_SYNTAX})")
        except ClockError as exc:
            if str(exc).startswith("not a time control"):
                raise
            raise ClockError(f"{exc} in the time control {text!r}") from None
        if tc.system in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER) and tc.main_ms == 0:
            raise ClockError(f"a time control with no time at all: {text!r}")
        return tc

    def __str__(self) -> str:
        """The text form :meth:`parse` reads back: the system, then its fields in
        :data:`_FIELDS`' order, times in seconds (``byoyomi:300:30:3``, ``none``; a Fischer
        control without a cap leaves it out)."""
        parts = [self.system.value]
        for name in _FIELDS[self.system]:
            value = getattr(self, name)
            if value is not None:
                parts.append(_time_text(value) if name.endswith("_ms") else str(value))
        return ":".join(parts)

    def describe(self) -> str:
        """The control for people: ``10:00``, ``5:00 + 3×30 s``, ``10:00 + 25 stones in
        5:00``, ``5:00 + 10 s per move (at most 10:00)``, ``5 s per move``."""
        h = _human
        if self.system is TimeSystem.NONE:
            return "no time limit"
        if self.system is TimeSystem.ABSOLUTE:
            return h(self.main_ms)
        main = f"{h(self.main_ms)} + " if self.main_ms else ""
        if self.system is TimeSystem.BYOYOMI:
            return f"{main}{self.periods}×{h(self.period_ms)}"
        if self.system is TimeSystem.CANADIAN:
            return f"{main}{self.stones} stone{'s' if self.stones != 1 else ''} in {h(self.period_ms)}"
        if self.system is TimeSystem.FISCHER:
            cap = f" (at most {h(self.cap_ms)})" if self.cap_ms is not None else ""
            return f"{h(self.main_ms)} + {h(self.increment_ms)} per move{cap}"
        return f"{h(self.period_ms)} per move"

    # ------------------------------------------------------------------ GTP
    def gtp_time_settings(self) -> str:
        """GTP's ``time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`` (Canadian overtime; whole
        seconds, at least 1 when not 0). Exact for none, absolute, Canadian and simple (one
        stone per period of the time per move); byo-yomi is sent as one stone per period
        (as kgsGtp does) and Fischer as absolute time: ``time_left`` before each move tells
        the engine the truth."""
        return "time_settings {} {} {}".format(*self._canadian_seconds())

    def _canadian_seconds(self) -> tuple[int, int, int]:
        """``(main time, overtime, stones)`` in whole seconds: the control in GTP's Canadian
        terms, as ``time_settings`` and kgsGtp's ``canadian`` write it (see
        :meth:`gtp_time_settings` for what is exact)."""
        g = _gtp_sec
        s = self.system
        if s is TimeSystem.NONE:
            return 0, 1, 0
        if s in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER):
            return g(self.main_ms), 0, 0
        if s is TimeSystem.CANADIAN:
            return g(self.main_ms), g(self.period_ms), self.stones
        if s is TimeSystem.BYOYOMI:
            return g(self.main_ms), g(self.period_ms), 1
        return 0, g(self.period_ms), 1

    def kgs_time_settings(self) -> str:
        """kgsGtp's ``kgs-time_settings``, which names none, absolute, byo-yomi and Canadian
        exactly; simple is sent as Canadian with one stone, Fischer as absolute time."""
        s = self.system
        if s is TimeSystem.NONE:
            return "kgs-time_settings none"
        if s in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER):
            return f"kgs-time_settings absolute {_gtp_sec(self.main_ms)}"
        if s is TimeSystem.BYOYOMI:
            return f"kgs-time_settings byoyomi {_gtp_sec(self.main_ms)} {_gtp_sec(self.period_ms)} {self.periods}"
        return "kgs-time_settings canadian {} {} {}".format(*self._canadian_seconds())

    @classmethod
    def from_gtp_time_settings(cls, args: Sequence[str]) -> TimeControl:
        """The control a GTP ``time_settings`` command's arguments announce (GTP §4.2):
        a byo-yomi time with 0 stones means no limit; 0 byo-yomi time and 0 stones,
        absolute time. Raises :class:`~miai.errors.ClockError` saying what is wrong."""
        if len(args) != 3:
            raise ClockError("expected time_settings <main time> <byo-yomi time> <byo-yomi stones>")
        main = _seconds(args[0], "the main time")
        period = _seconds(args[1], "the byo-yomi time")
        stones = _count(args[2], "the byo-yomi stones")
        if stones == 0:
            return cls() if period > 0 else cls.absolute(main)
        if period == 0:
            return cls.absolute(main)
        return cls.canadian(main, period, stones)

    @classmethod
    def from_kgs_time_settings(cls, args: Sequence[str]) -> TimeControl:
        """The control of kgsGtp's ``kgs-time_settings none | absolute MAIN | byoyomi MAIN
        PERIOD PERIODS | canadian MAIN PERIOD STONES`` arguments (an overtime of no time
        is absolute time). Raises :class:`~miai.errors.ClockError`."""
        if not args:
            raise ClockError("expected kgs-time_settings none|absolute|byoyomi|canadian ...")
        kind, rest = args[0].lower(), args[1:]
        usage = {
            "none": "kgs-time_settings none",
            "absolute": "kgs-time_settings absolute <main time>",
            "byoyomi": "kgs-time_settings byoyomi <main time> <period time> <periods>",
            "canadian": "kgs-time_settings canadian <main time> <period time> <stones>",
        }
        if kind not in usage:
            raise ClockError(f"unknown time system {args[0]!r} (none, absolute, byoyomi, canadian)")
        if len(rest) != {"none": 0, "absolute": 1}.get(kind, 3):
            raise ClockError(f"expected {usage[kind]}")
        if kind == "none":
            return cls()
        main = _seconds(rest[0], "the main time")
        if kind == "absolute":
            return cls.absolute(main)
        period = _seconds(rest[1], "the period time")
        count = _count(rest[2], "the number of periods" if kind == "byoyomi" else "the stones per period")
        if count == 0 or period == 0:
            return cls.absolute(main)
        return cls.byoyomi(main, period, count) if kind == "byoyomi" else cls.canadian(main, period, count)


# ---------------------------------------------------------------------- time left
@dataclass(frozen=True, slots=True)
class TimeLeft:
    """What GTP's ``time_left COLOR TIME STONES`` says of one player.

    ``ms`` is the time left: of the main time while ``stones`` is 0, else of the current
    overtime period. ``stones`` is then the moves left to play in that period (Canadian,
    simple) or, under byo-yomi, the periods left (kgsGtp's convention). ``at_ms`` is the
    time source's reading when this was true, so that a reader can subtract what has passed
    since (:meth:`remaining_ms`).
    """

    ms: int
    stones: int = 0
    at_ms: int = 0

    def __post_init__(self) -> None:
        _check_ms(self.ms, "the time left")
        _check_count(self.stones, "the stones left")

    def remaining_ms(self, now_ms: int) -> int:
        """The time left at ``now_ms`` (never below 0)."""
        return max(0, self.ms - max(0, now_ms - self.at_ms))

    def gtp_args(self) -> str:
        """``TIME STONES`` for ``time_left`` (whole seconds, rounded down)."""
        return f"{self.ms // 1000} {self.stones}"

    @classmethod
    def from_gtp(cls, time_word: str, stones_word: str, at_ms: int = 0) -> TimeLeft:
        """Read ``time_left``'s TIME (seconds, decimals allowed) and STONES arguments."""
        return cls(_seconds(time_word, "the time left"), _count(stones_word, "the stones left"), at_ms)


# ---------------------------------------------------------------------- lag allowance
@dataclass(frozen=True, slots=True)
class LagAllowance:
    """Lichess's lag quota, simplified: each player has a bank, starting at ``start_ms``;
    a move's measured lag is excused up to what the bank holds (and taken from it), and
    after each move the bank gains ``gain_ms``, up to ``max_ms``. :meth:`none` (the
    default of a :class:`Clock`) excuses nothing; the defaults suit play over a network."""

    gain_ms: int = 500
    max_ms: int = 2000
    start_ms: int = 1500

    def __post_init__(self) -> None:
        for name in ("gain_ms", "max_ms", "start_ms"):
            _check_ms(getattr(self, name), f"the lag allowance's {name[:-3]}")
        if self.start_ms > self.max_ms:
            raise ClockError(f"the lag allowance starts above its cap ({self.start_ms} > {self.max_ms} ms)")

    @classmethod
    def none(cls) -> LagAllowance:
        return cls(0, 0, 0)


# ---------------------------------------------------------------------- one player's clock
@dataclass(frozen=True, slots=True)
class PlayerClock:
    """One player's time between moves: ``main_ms`` left; ``period_ms`` left in the current
    Canadian period; ``periods`` byo-yomi periods left; ``stones`` left to play in the
    current Canadian period; ``lag_bank_ms``, the :class:`LagAllowance` bank."""

    main_ms: int = 0
    period_ms: int = 0
    periods: int = 0
    stones: int = 0
    lag_bank_ms: int = 0

    @classmethod
    def fresh(cls, control: TimeControl, lag: LagAllowance) -> PlayerClock:
        canadian = control.system is TimeSystem.CANADIAN
        period = control.period_ms if canadian else 0
        return cls(control.main_ms, period, control.periods, control.stones, lag.start_ms)

    def available_ms(self, control: TimeControl) -> int | None:
        """How long the player may think about its next move (None: for ever)."""
        s = control.system
        if s is TimeSystem.NONE:
            return None
        if s in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER):
            return self.main_ms
        if s is TimeSystem.SIMPLE:
            return control.period_ms
        if s is TimeSystem.CANADIAN:
            return self.main_ms + self.period_ms
        return self.main_ms + self.periods * control.period_ms

    def after_move(self, control: TimeControl, used_ms: int) -> PlayerClock | None:
        """The clock after a move that took ``used_ms``: main time first, then the overtime
        (a Canadian stone, byo-yomi periods overrun, the Fischer increment). None if the
        move came too late (``used_ms`` above :meth:`available_ms`)."""
        available = self.available_ms(control)
        if available is None:
            return self
        if used_ms > available:
            return None
        s = control.system
        if s is TimeSystem.SIMPLE:
            return self
        if s is TimeSystem.ABSOLUTE:
            return dataclasses.replace(self, main_ms=self.main_ms - used_ms)
        if s is TimeSystem.FISCHER:
            bank = self.main_ms - used_ms + control.increment_ms
            if control.cap_ms is not None:
                bank = min(bank, control.cap_ms)
            return dataclasses.replace(self, main_ms=bank)
        if used_ms <= self.main_ms:
            return dataclasses.replace(self, main_ms=self.main_ms - used_ms)
        over = used_ms - self.main_ms
        if s is TimeSystem.CANADIAN:
            stones = self.stones - 1
            if stones == 0:  # the period's last stone: a fresh period
                return dataclasses.replace(self, main_ms=0, period_ms=control.period_ms, stones=control.stones)
            return dataclasses.replace(self, main_ms=0, period_ms=self.period_ms - over, stones=stones)
        # byo-yomi: the periods overrun are used up; the one the move was made in is kept
        return dataclasses.replace(self, main_ms=0, periods=self.periods - (over - 1) // control.period_ms)

    def time_left(self, control: TimeControl, used_ms: int = 0, at_ms: int = 0) -> TimeLeft | None:
        """What ``time_left`` reports ``used_ms`` into a move (None without a time limit)."""
        s = control.system
        if s is TimeSystem.NONE:
            return None
        if s is TimeSystem.SIMPLE:
            return TimeLeft(max(0, control.period_ms - used_ms), 1, at_ms)
        if self.main_ms - used_ms > 0 or s in (TimeSystem.ABSOLUTE, TimeSystem.FISCHER):
            return TimeLeft(max(0, self.main_ms - used_ms), 0, at_ms)
        over = used_ms - self.main_ms
        if s is TimeSystem.CANADIAN:
            return TimeLeft(max(0, self.period_ms - over), self.stones, at_ms)
        gone = (over - 1) // control.period_ms if over > 0 else 0  # periods overrun
        periods = self.periods - gone
        if periods <= 0:
            return TimeLeft(0, 0, at_ms)
        return TimeLeft(control.period_ms * (gone + 1) - over, periods, at_ms)

    def to_json(self) -> dict[str, int]:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------- the two clocks
@dataclass(frozen=True, slots=True)
class Clock:
    """Both players' clocks under one :class:`TimeControl`: an immutable value.

    Every change returns a new clock; ``time`` (its monotonic milliseconds) is read once per
    change. The usual sequence: ``clock = Clock.new(control)``, then for each move
    ``clock = clock.start(color)`` ... ``clock = clock.stop()`` (or :meth:`switch`, which
    stops one clock and starts the other). :attr:`flagged` is the player whose time ran out.

    >>> from miai.testing.manualtime import ManualTime
    >>> t = ManualTime(monotonic_ms=0)
    >>> clock = Clock.new(TimeControl.parse("byoyomi:10:5:2"), time=t).start(Color.BLACK)
    >>> t.advance(12_000)  # 10 s of main time and 2 s of the first period
    >>> clock = clock.stop()
    >>> clock.black.main_ms, clock.black.periods, clock.flagged
    (0, 2, None)
    >>> t.advance(18_000)
    >>> clock.start(Color.BLACK).time_left(Color.BLACK)
    TimeLeft(ms=5000, stones=2, at_ms=30000)

    ``running`` is the player whose turn is being timed; ``turn_start_ms`` when its current
    stretch began (None while paused or stopped); ``used_ms`` the time of this turn spent
    before a pause.
    """

    control: TimeControl
    black: PlayerClock
    white: PlayerClock
    running: Color | None = None
    turn_start_ms: int | None = None
    used_ms: int = 0
    paused: bool = False
    flagged: Color | None = None
    lag: LagAllowance = field(default_factory=LagAllowance.none)
    time: TimeSource = field(default=SYSTEM_TIME, compare=False, repr=False)

    @classmethod
    def new(cls, control: TimeControl, *, time: TimeSource = SYSTEM_TIME, lag: LagAllowance | None = None) -> Clock:
        """Fresh clocks for a game; nobody's is running."""
        lag = lag if lag is not None else LagAllowance.none()
        fresh = PlayerClock.fresh(control, lag)
        return cls(control, fresh, fresh, lag=lag, time=time)

    # ------------------------------------------------------------------ reading
    def player(self, color: Color) -> PlayerClock:
        return self.black if color is Color.BLACK else self.white

    def elapsed_ms(self) -> int:
        """How long the running player has been thinking in this turn (0 if nobody is)."""
        if self.running is None:
            return 0
        if self.turn_start_ms is None:
            return self.used_ms
        return self.used_ms + max(0, self.time.monotonic_ms() - self.turn_start_ms)

    def remaining_ms(self, color: Color) -> int | None:
        """How long ``color`` may still think about this (or its next) move before its flag
        falls, not counting the lag bank; 0 once flagged; None without a time limit."""
        if self.control.unlimited:
            return None
        if self.flagged is color:
            return 0
        available = self.player(color).available_ms(self.control)
        assert available is not None
        used = self.elapsed_ms() if color is self.running else 0
        return max(0, available - used)

    def time_left(self, color: Color) -> TimeLeft | None:
        """What GTP's ``time_left`` should say of ``color`` now (None without a time limit)."""
        if self.control.unlimited:
            return None
        at = self.time.monotonic_ms()
        if self.flagged is color:
            return TimeLeft(0, 0, at)
        used = self.elapsed_ms() if color is self.running else 0
        return self.player(color).time_left(self.control, used, at)

    def deadline_ms(self) -> int | None:
        """The last reading of the time at which the running player's move is still on time
        (its lag bank included): a server sets its flag timer just after it. None when
        nobody's clock runs, the clock is paused, or there is no time limit."""
        if self.running is None or self.turn_start_ms is None or self.control.unlimited:
            return None
        p = self.player(self.running)
        available = p.available_ms(self.control)
        assert available is not None
        return self.turn_start_ms + available + p.lag_bank_ms - self.used_ms

    def out_of_time(self) -> Color | None:
        """The player whose flag has fallen: :attr:`flagged`, or the running player once even
        its whole lag bank could not save the move."""
        if self.flagged is not None:
            return self.flagged
        deadline = self.deadline_ms()
        if deadline is not None and self.time.monotonic_ms() > deadline:
            return self.running
        return None

    # ------------------------------------------------------------------ changes
    def start(self, color: Color) -> Clock:
        """Start ``color``'s turn (paused clocks start counting on :meth:`resume`)."""
        if self.flagged is not None:
            raise ClockError(f"{self.flagged}'s flag has fallen: the clock does not run any more")
        if self.running is not None:
            raise ClockError(f"{self.running}'s clock is running: stop it before starting {color}'s")
        return dataclasses.replace(
            self, running=color, used_ms=0, turn_start_ms=None if self.paused else self.time.monotonic_ms()
        )

    def stop(self, *, lag_ms: int = 0) -> Clock:
        """End the running player's turn: its move has arrived. The time it took (less the
        lag excused from its bank) is charged by the time system; a move that came too
        late sets :attr:`flagged`. ``lag_ms`` is the network lag measured for the move."""
        color = self.running
        if color is None:
            raise ClockError("no clock is running")
        if lag_ms < 0 or lag_ms > MAX_MS:
            raise ClockError(f"the lag must be from 0 to {MAX_MS} ms, not {lag_ms}")
        used = self.elapsed_ms()
        p = self.player(color)
        excused = min(lag_ms, p.lag_bank_ms)
        after = p.after_move(self.control, max(0, used - excused))
        flagged = None
        if after is None:
            flagged = color
            after = PlayerClock(lag_bank_ms=p.lag_bank_ms)
        else:
            bank = min(p.lag_bank_ms - excused + self.lag.gain_ms, self.lag.max_ms)
            after = dataclasses.replace(after, lag_bank_ms=bank)
        return self._with(color, after, flagged=flagged)

    def switch(self, *, lag_ms: int = 0) -> Clock:
        """Stop the running player's clock and start the opponent's (unless a flag fell)."""
        color = self.running
        stopped = self.stop(lag_ms=lag_ms)
        if stopped.flagged is not None or color is None:
            return stopped
        return stopped.start(color.opponent)

    def flag(self) -> Clock:
        """Let the flag fall if :meth:`out_of_time` says so (the server's flag timer); the
        clock unchanged otherwise."""
        color = self.out_of_time()
        if color is None or self.flagged is not None:
            return self
        return self._with(color, PlayerClock(lag_bank_ms=self.player(color).lag_bank_ms), flagged=color)

    def pause(self) -> Clock:
        """Stop counting (the marking phase, an adjournment); the running turn keeps what it
        has used and goes on at :meth:`resume`."""
        if self.paused:
            return self
        return dataclasses.replace(self, paused=True, used_ms=self.elapsed_ms(), turn_start_ms=None)

    def resume(self) -> Clock:
        if not self.paused:
            return self
        start = self.time.monotonic_ms() if self.running is not None else None
        return dataclasses.replace(self, paused=False, turn_start_ms=start)

    def _with(self, color: Color, player: PlayerClock, *, flagged: Color | None) -> Clock:
        black, white = (player, self.white) if color is Color.BLACK else (self.black, player)
        return dataclasses.replace(
            self, black=black, white=white, running=None, turn_start_ms=None, used_ms=0, flagged=flagged
        )

    # ------------------------------------------------------------------ storage
    def to_json(self) -> dict[str, Any]:
        """The clocks as they stand now, for storage: the running turn's time so far is in
        ``used_ms``, so :meth:`from_json` (perhaps in another process, whose monotonic clock
        differs) goes on from there and charges nobody for the time in between."""
        return {
            "control": str(self.control),
            "black": self.black.to_json(),
            "white": self.white.to_json(),
            "running": self.running.name.lower() if self.running is not None else None,
            "used_ms": self.elapsed_ms(),
            "paused": self.paused,
            "flagged": self.flagged.name.lower() if self.flagged is not None else None,
            "lag": dataclasses.asdict(self.lag),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, time: TimeSource = SYSTEM_TIME) -> Clock:
        """Read :meth:`to_json`'s form; the running turn restarts at ``time``'s present."""
        try:
            control = TimeControl.parse(data["control"])
            black, white = (PlayerClock(**{k: int(v) for k, v in data[c].items()}) for c in ("black", "white"))
            running = Color.parse(data["running"]) if data.get("running") else None
            flagged = Color.parse(data["flagged"]) if data.get("flagged") else None
            lag = LagAllowance(**data.get("lag", {"gain_ms": 0, "max_ms": 0, "start_ms": 0}))
            used, paused = int(data.get("used_ms", 0)), bool(data.get("paused", False))
        except ClockError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ClockError(f"not a stored clock: {exc}") from None
        start = time.monotonic_ms() if running is not None and not paused else None
        return cls(control, black, white, running, start, used, paused, flagged, lag, time)
