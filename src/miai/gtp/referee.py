"""A referee for matches between two GTP engines (``miai match``).

Reading guide:

* :class:`MatchConfig` says what to play: the two engines (command lines), the number of
  games, size, rules, komi, handicap, :class:`TimeControl`, move cap and how dead stones
  are decided. Engine A takes Black in games 0, 2, 4...; engine B in the others.
* :class:`Referee` plays one game between two running :class:`EnginePlayer` s and returns
  a :class:`GameRecord`: the result object that says why the game ended (score,
  resignation, time, an illegal move, a crash, a timeout, garbage output, a refused
  command, the move cap or a void by repetition), with the engines' thinking time and
  their dead-stone lists.
* :class:`Match` runs the games, restarts an engine that failed, writes one SGF per game,
  appends each game's record to ``results.jsonl`` as soon as it ends (so a crash loses
  nothing) and can resume an interrupted run in the same directory.
* :func:`summarize` / :func:`format_summary` turn the records into the results table: wins
  by colour, the win rate with a 95% Wilson interval, the Elo difference with its interval,
  the average time per move of each engine and the reasons games ended. :func:`load_run`
  and :func:`pool_runs` pool several runs of one match (``miai match-report``).

Our rules core judges every move: each ``genmove`` answer is played into a
:class:`~miai.game.Game` (``Game.play`` checks it), then sent to the opponent with ``play``.
The referee keeps the clocks itself, in integer milliseconds, with an injectable time source.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
import os
import re
import shlex
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.errors import InvalidMoveError, MiaiError
from miai.gtp.controller import (
    GtpCommandFailed,
    GtpController,
    GtpEngineDied,
    GtpEngineError,
    GtpProtocolError,
    GtpTimeout,
)
from miai.result import Result, Termination
from miai.rules import Rules
from miai.sgf import game_to_sgf

__all__ = [
    "Clock",
    "DeadStones",
    "EnginePlayer",
    "EngineSpec",
    "GameRecord",
    "Match",
    "MatchConfig",
    "MatchError",
    "MatchRun",
    "MatchSummary",
    "Reason",
    "Referee",
    "TimeControl",
    "elo_difference",
    "format_summary",
    "load_records",
    "load_run",
    "pool_runs",
    "summarize",
    "wilson_interval",
]


class MatchError(MiaiError):
    """The match cannot go on: an engine cannot be started or cannot play at all, or the
    output directory belongs to another match."""


# ---------------------------------------------------------------------- time
@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time system, in integer milliseconds.

    ``system``: ``none``; ``absolute`` (``main_ms`` for the game); ``canadian`` (then
    ``stones`` moves in each ``period_ms``); ``byoyomi`` (then ``periods`` periods of
    ``period_ms``, one move per period, a period used up only when exceeded).
    """

    system: str = "none"
    main_ms: int = 0
    period_ms: int = 0
    stones: int = 0
    periods: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``none``, ``60`` or ``absolute:60``, ``canadian:60:30:5`` (main, period, stones),
        ``byoyomi:60:10:3`` (main, period, periods). Times are seconds (decimals allowed)."""
        parts = text.strip().lower().split(":")
        try:
            if parts == ["none"] or parts == [""]:
                return cls()
            if len(parts) == 1:
                parts = ["absolute", parts[0]]
            kind, nums = parts[0], parts[1:]
            ms = lambda s: int(round(float(s) * 1000))  # noqa: E731
            if kind == "absolute" and len(nums) == 1:
                tc = cls("absolute", ms(nums[0]))
            elif kind == "canadian" and len(nums) == 3:
                tc = cls("canadian", ms(nums[0]), ms(nums[1]), stones=int(nums[2]))
            elif kind == "byoyomi" and len(nums) == 3:
                tc = cls("byoyomi", ms(nums[0]), ms(nums[1]), periods=int(nums[2]))
            else:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"not a time control: {text!r} (none, SECONDS, absolute:MAIN, canadian:MAIN:PERIOD:STONES "
                "or byoyomi:MAIN:PERIOD:PERIODS)"
            ) from None
        if min(tc.main_ms, tc.period_ms, tc.stones, tc.periods) < 0:
            raise ValueError(f"negative time in {text!r}")
        if tc.system != "absolute" and (tc.period_ms == 0 or max(tc.stones, tc.periods) == 0):
            tc = TimeControl("absolute", tc.main_ms)
        if tc.system == "absolute" and tc.main_ms == 0:
            raise ValueError(f"a time control with no time at all: {text!r}")
        return tc

    def __str__(self) -> str:
        s = lambda v: f"{v / 1000:g}"  # noqa: E731
        if self.system == "none":
            return "none"
        if self.system == "absolute":
            return f"absolute:{s(self.main_ms)}"
        if self.system == "canadian":
            return f"canadian:{s(self.main_ms)}:{s(self.period_ms)}:{self.stones}"
        return f"byoyomi:{s(self.main_ms)}:{s(self.period_ms)}:{self.periods}"

    @property
    def unlimited(self) -> bool:
        return self.system == "none"

    def gtp_time_settings(self) -> str:
        """The standard ``time_settings`` command (Canadian byo-yomi; Japanese byo-yomi is
        approximated as one stone per period, as kgsGtp does). Whole seconds, at least 1."""
        sec = lambda v: max(1, v // 1000) if v else 0  # noqa: E731
        if self.system == "none":
            return "time_settings 0 1 0"
        if self.system == "absolute":
            return f"time_settings {sec(self.main_ms)} 0 0"
        if self.system == "canadian":
            return f"time_settings {sec(self.main_ms)} {sec(self.period_ms)} {self.stones}"
        return f"time_settings {sec(self.main_ms)} {sec(self.period_ms)} 1"

    def kgs_time_settings(self) -> str:
        """``kgs-time_settings``, which names every system exactly."""
        sec = lambda v: max(1, v // 1000) if v else 0  # noqa: E731
        if self.system == "none":
            return "kgs-time_settings none"
        if self.system == "absolute":
            return f"kgs-time_settings absolute {sec(self.main_ms)}"
        if self.system == "canadian":
            return f"kgs-time_settings canadian {sec(self.main_ms)} {sec(self.period_ms)} {self.stones}"
        return f"kgs-time_settings byoyomi {sec(self.main_ms)} {sec(self.period_ms)} {self.periods}"


class Clock:
    """One player's clock under a :class:`TimeControl`, in integer milliseconds."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.main_ms = control.main_ms
        self.period_left_ms = control.period_ms
        self.stones_left = control.stones
        self.periods_left = control.periods
        self.flagged = False

    def available_ms(self) -> int | None:
        """How long the player may think about this move before its flag falls (None: for ever)."""
        tc = self.control
        if tc.system == "none":
            return None
        if tc.system == "absolute":
            return self.main_ms
        if tc.system == "canadian":
            return self.main_ms + self.period_left_ms
        return self.main_ms + self.periods_left * tc.period_ms

    def spend(self, ms: int) -> bool:
        """Charge a move that took ``ms``; False (and ``flagged``) if the time ran out."""
        tc = self.control
        if tc.system == "none":
            return True
        ms = max(0, int(ms))
        available = self.available_ms()
        assert available is not None
        if ms > available:
            self.main_ms = 0
            self.period_left_ms = 0
            self.periods_left = 0
            self.flagged = True
            return False
        if ms <= self.main_ms:
            self.main_ms -= ms
            return True
        ms -= self.main_ms
        self.main_ms = 0
        if tc.system == "canadian":
            self.period_left_ms -= ms
            self.stones_left -= 1
            if self.stones_left <= 0:
                self.period_left_ms = tc.period_ms
                self.stones_left = tc.stones
        elif tc.system == "byoyomi" and ms > 0:
            self.periods_left -= (ms - 1) // tc.period_ms  # the periods used up entirely
        return True

    def time_left_args(self) -> tuple[int, int]:
        """(seconds, stones) for GTP ``time_left``: stones is 0 in main time; in byo-yomi the
        period's time and stones (Canadian) or periods (Japanese, as KGS does)."""
        tc = self.control
        if self.main_ms > 0 or tc.system == "absolute":
            return self.main_ms // 1000, 0
        if tc.system == "canadian":
            return self.period_left_ms // 1000, self.stones_left
        return tc.period_ms // 1000, self.periods_left


# ---------------------------------------------------------------------- engines
@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine: its command line and the label the results use."""

    command: tuple[str, ...]
    label: str

    @classmethod
    def parse(cls, command: str | Sequence[str], label: str | None = None) -> EngineSpec:
        argv = tuple(shlex.split(command) if isinstance(command, str) else command)
        if not argv:
            raise ValueError("an engine needs a command line")
        return cls(argv, label or _default_label(argv))


def _default_label(argv: Sequence[str]) -> str:
    name = os.path.basename(argv[0])
    if name in ("python", "python3") and len(argv) > 1:
        name = os.path.basename(argv[2] if argv[1] == "-m" and len(argv) > 2 else argv[1])
    level = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--level"), None)
    return f"{name} L{level}" if level is not None else name


class EnginePlayer:
    """A running engine for the referee: a :class:`GtpController` started on demand,
    restarted after it failed, with ``known_command`` answers cached."""

    def __init__(self, spec: EngineSpec, *, timeout: float = 30.0, cwd: str | os.PathLike[str] | None = None):
        self.spec = spec
        self.timeout = timeout
        self.cwd = cwd
        self.controller: GtpController | None = None
        self.needs_restart = False
        self.starts = 0
        self.name = spec.label
        self._known: dict[str, bool] = {}

    @property
    def label(self) -> str:
        return self.spec.label

    def ensure_running(self) -> GtpController:
        """The controller, (re)started if it is not running or failed in the last game.
        Raises :class:`GtpEngineError` if the engine cannot be started or does not answer."""
        c = self.controller
        if c is not None and (self.needs_restart or not c.alive):
            c.kill()
            c = self.controller = None
        if c is None:
            c = GtpController(list(self.spec.command), timeout=self.timeout, cwd=self.cwd)
            self.controller = c
            self.starts += 1
            self.needs_restart = False
            self._known.clear()
            try:
                name = c.name()
                try:
                    version = c.version()
                except GtpCommandFailed:
                    version = ""
            except GtpCommandFailed:
                name, version = self.spec.command[0], ""
            except GtpEngineError:
                self.needs_restart = True
                raise
            self.name = f"{name} {version}".strip()
        return c

    def knows(self, command: str) -> bool:
        if command not in self._known:
            assert self.controller is not None
            try:
                self._known[command] = self.controller.known_command(command)
            except GtpCommandFailed:
                self._known[command] = False
        return self._known[command]

    def close(self) -> None:
        if self.controller is not None:
            self.controller.close()
            self.controller = None


# ---------------------------------------------------------------------- results
class Reason(str, Enum):
    """Why a game ended."""

    SCORE = "score"
    RESIGNATION = "resignation"
    TIME = "time"
    ILLEGAL = "illegal move"
    CRASH = "crash"
    TIMEOUT = "timeout"
    GARBAGE = "garbage output"
    REFUSED = "refused command"
    MOVE_CAP = "move cap"
    VOID = "void"

    @property
    def forfeit(self) -> bool:
        return self in (Reason.ILLEGAL, Reason.CRASH, Reason.TIMEOUT, Reason.GARBAGE, Reason.REFUSED)


class DeadStones(str, Enum):
    """How the dead stones are decided after two passes."""

    AGREED = "agreed"
    """Stones both engines list as dead (a stone only one lists is a disagreement, recorded, and stays)."""
    UNION = "union"
    """Stones either engine lists as dead."""
    NONE = "none"
    """No stone is dead: everything counts as it stands."""
    ESTIMATOR = "estimator"
    """miai's own estimator (``miai.ai.status.estimate_status``); the engines' lists are recorded."""


@dataclass(slots=True)
class GameRecord:
    """The result object of one game: who played, the result and why the game ended."""

    index: int
    black: str
    """The label of the engine that had Black."""
    white: str
    result: str
    """As SGF writes it: ``B+3.5``, ``W+R``, ``B+T``, ``W+F`` (forfeit), ``0``, ``Void``."""
    reason: Reason
    detail: str
    """The reason in words (the illegal move and the rule it breaks, the crash's exit code...)."""
    moves: int = 0
    black_name: str = ""
    white_name: str = ""
    time_ms: dict[str, int] = field(default_factory=dict)
    """Total genmove time of each engine (by label)."""
    genmoves: dict[str, int] = field(default_factory=dict)
    dead: list[str] = field(default_factory=list)
    """The dead stones the count used (GTP vertices)."""
    dead_by_engine: dict[str, list[str] | None] = field(default_factory=dict)
    """What each engine listed as dead (None: it could not say)."""
    disagreement: list[str] = field(default_factory=list)
    """Stones one engine listed as dead and the other did not."""
    notes: list[str] = field(default_factory=list)
    sgf: str = ""
    at_fault: str | None = None
    """The label of the engine that forfeited, for forfeits."""

    @property
    def winner_color(self) -> Color | None:
        result = Result.read(self.result)
        return result.winner if result is not None else None

    @property
    def winner(self) -> str | None:
        """The label of the winning engine (None: a draw or no result)."""
        c = self.winner_color
        return None if c is None else (self.black if c is Color.BLACK else self.white)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["reason"] = self.reason.value
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        names = {f.name for f in dataclasses.fields(cls)}
        d = {k: v for k, v in d.items() if k in names}
        d["reason"] = Reason(d["reason"])
        return cls(**d)


class _Forfeit(Exception):
    def __init__(self, color: Color, reason: Reason, detail: str):
        super().__init__(detail)
        self.color = color
        self.reason = reason
        self.detail = detail


class _OutOfTime(Exception):
    def __init__(self, color: Color, detail: str):
        super().__init__(detail)
        self.color = color
        self.detail = detail


_VERTEX = re.compile(r"^(pass|[a-hj-z]\d{1,2})$", re.IGNORECASE)


def _first_line(text: str) -> str:
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    return lines[0] if lines else ""


# ---------------------------------------------------------------------- one game
@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What a match plays. ``komi`` None takes the rules' komi."""

    engines: tuple[EngineSpec, EngineSpec]
    games: int = 2
    size: int = 9
    rules: Rules = field(default_factory=lambda: Rules.preset("chinese"))
    komi: float | None = None
    handicap: int = 0
    time_control: TimeControl = TimeControl()
    move_timeout: float = 60.0
    """Seconds allowed for one genmove when there is no time control (beyond: a timeout forfeit)."""
    setup_timeout: float = 30.0
    max_moves: int | None = None
    """The move cap (None: three times the number of points)."""
    dead_stones: DeadStones = DeadStones.AGREED
    lag_ms: int = 1000
    """With a time control, how long past the flag the referee waits for an answer."""

    @property
    def move_cap(self) -> int:
        return self.max_moves if self.max_moves is not None else 3 * self.size * self.size

    def to_json(self) -> dict[str, Any]:
        return {
            "engines": [{"command": list(e.command), "label": e.label} for e in self.engines],
            "games": self.games,
            "size": self.size,
            "rules": str(self.rules),
            "komi": self.komi,
            "handicap": self.handicap,
            "time_control": str(self.time_control),
            "move_timeout": self.move_timeout,
            "max_moves": self.max_moves,
            "dead_stones": self.dead_stones.value,
        }


Millis = Callable[[], int]


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class Referee:
    """Plays games between two :class:`EnginePlayer` s under a :class:`MatchConfig`;
    ``clock`` is the time source in milliseconds."""

    def __init__(self, config: MatchConfig, *, clock: Millis = _monotonic_ms):
        self.config = config
        self.clock = clock

    def play_game(self, index: int, black: EnginePlayer, white: EnginePlayer) -> tuple[GameRecord, Any]:
        """Play one game; returns its record and the :class:`~miai.game.Game`. Never raises
        for an engine's failure: that engine forfeits and is marked for a restart."""
        from miai.game import Game, Phase

        cfg = self.config
        players = {Color.BLACK: black, Color.WHITE: white}
        game = Game(cfg.size, cfg.rules, handicap=cfg.handicap, komi=cfg.komi)
        rec = GameRecord(index, black.label, white.label, "", Reason.SCORE, "")
        rec.time_ms = {black.label: 0, white.label: 0}
        rec.genmoves = {black.label: 0, white.label: 0}
        clocks = {c: Clock(cfg.time_control) for c in Color}
        try:
            for color in (Color.BLACK, Color.WHITE):
                self._setup(players[color], color, game, rec)
            rec.black_name, rec.white_name = black.name, white.name
            while game.phase is Phase.PLAY:
                if game.move_number >= cfg.move_cap:
                    game.set_result(Result.void(), f"the move cap of {cfg.move_cap} moves was reached")
                    rec.reason = Reason.MOVE_CAP
                    break
                self._move(game, players, clocks, rec)
            if game.phase is Phase.MARKING:
                self._count(game, players, rec)
        except _Forfeit as f:
            game.set_result(Result.forfeit(f.color), f"{f.color} forfeits: {f.detail}")
            rec.reason = f.reason
            rec.at_fault = players[f.color].label
        except _OutOfTime as t:
            game.lose_on_time(t.color)
            rec.reason = Reason.TIME
            rec.detail = t.detail
        result = game.result or Result.void()
        rec.result = str(result)
        rec.moves = game.move_number
        if rec.reason is Reason.SCORE:
            if result.by is Termination.VOID:
                rec.reason = Reason.VOID
            elif result.by is Termination.RESIGNATION:
                rec.reason = Reason.RESIGNATION
        if not rec.detail:
            rec.detail = game.end_reason or ""
        rec.black_name = rec.black_name or black.name
        rec.white_name = rec.white_name or white.name
        return rec, game

    # -- the parts of a game
    def _call(self, player: EnginePlayer, color: Color, command: str, timeout: float | None) -> str:
        """Send a command whose failure forfeits the game for ``color``."""
        try:
            c = player.ensure_running()
            return c.send(command, timeout=timeout)
        except GtpCommandFailed as exc:
            raise _Forfeit(color, Reason.REFUSED, f"{player.label} refused {command!r}: {exc.text}") from None
        except GtpEngineError as exc:
            player.needs_restart = True
            raise _Forfeit(color, *self._engine_failure(player, command, exc)) from None

    @staticmethod
    def _engine_failure(player: EnginePlayer, command: str, exc: GtpEngineError) -> tuple[Reason, str]:
        if isinstance(exc, GtpTimeout):
            return Reason.TIMEOUT, f"{player.label} did not answer {command!r} within {exc.timeout:g} s"
        if isinstance(exc, GtpProtocolError):
            said = _first_line(exc.text)
            return Reason.GARBAGE, f"{player.label} answered {command!r} with something that is not GTP: {said!r}"
        detail = f"{player.label} crashed"
        if isinstance(exc, GtpEngineDied):
            detail += f" on {command!r}"
            if exc.returncode is not None:
                detail += f" (exit code {exc.returncode})"
        else:
            detail += f": {_first_line(str(exc))}"
        if exc.stderr:
            detail += f"; its last words: {exc.stderr.strip().splitlines()[-1]!r}"
        return Reason.CRASH, detail

    def _setup(self, player: EnginePlayer, color: Color, game: Any, rec: GameRecord) -> None:
        cfg = self.config
        t = cfg.setup_timeout
        self._call(player, color, f"boardsize {cfg.size}", t)
        self._call(player, color, "clear_board", t)
        if player.knows("kata-set-rules"):
            from miai.gtp.katago_rules import to_katago_json

            try:
                player.ensure_running().send(f"kata-set-rules {to_katago_json(cfg.rules)}", timeout=t)
            except GtpCommandFailed as exc:
                rec.notes.append(f"{player.label} refused kata-set-rules ({exc.text}): it may play other rules")
            except GtpEngineError as exc:
                player.needs_restart = True
                raise _Forfeit(color, *self._engine_failure(player, "kata-set-rules", exc)) from None
        self._call(player, color, f"komi {game.komi:g}", t)
        if cfg.handicap:
            wanted = sorted(game.handicap_points)
            text = self._call(player, color, f"fixed_handicap {cfg.handicap}", t)
            try:
                placed = sorted(p for p in (point_from_gtp(v, cfg.size) for v in text.split()) if p is not None)
            except InvalidMoveError:
                placed = []
            if placed != wanted:
                raise _Forfeit(
                    color,
                    Reason.GARBAGE,
                    f"{player.label} placed the handicap at {text.strip()!r}, "
                    f"not at {' '.join(point_to_gtp(p) for p in wanted)}",
                )
        tc = cfg.time_control
        if not tc.unlimited:
            if tc.system != "absolute" and player.knows("kgs-time_settings"):
                self._call(player, color, tc.kgs_time_settings(), t)
            elif player.knows("time_settings"):
                self._call(player, color, tc.gtp_time_settings(), t)
            else:
                rec.notes.append(f"{player.label} does not know time_settings: it is not told the time control")

    def _move(self, game: Any, players: dict[Color, EnginePlayer], clocks: dict[Color, Clock], rec: GameRecord) -> None:
        cfg = self.config
        color = game.to_move
        player, opponent = players[color], players[color.opponent]
        clock = clocks[color]
        available = clock.available_ms()
        if available is not None:
            if player.knows("time_left"):
                secs, stones = clock.time_left_args()
                self._call(player, color, f"time_left {color.name.lower()} {secs} {stones}", cfg.setup_timeout)
            limit: float | None = (available + cfg.lag_ms) / 1000
        else:
            limit = cfg.move_timeout
        command = f"genmove {color.name.lower()}"
        start = self.clock()
        try:
            c = player.ensure_running()
            answer = c.send(command, timeout=limit)
        except GtpCommandFailed as exc:
            raise _Forfeit(color, Reason.REFUSED, f"{player.label} refused {command!r}: {exc.text}") from None
        except GtpTimeout as exc:
            player.needs_restart = True
            if available is not None:
                clock.spend(available + 1)
                raise _OutOfTime(color, f"{color} ran out of time: no move within {exc.timeout:g} s") from None
            raise _Forfeit(color, *self._engine_failure(player, command, exc)) from None
        except GtpEngineError as exc:
            player.needs_restart = True
            raise _Forfeit(color, *self._engine_failure(player, command, exc)) from None
        elapsed = max(0, self.clock() - start)
        rec.time_ms[player.label] += elapsed
        rec.genmoves[player.label] += 1
        if not clock.spend(elapsed):
            raise _OutOfTime(color, f"{color} ran out of time: the move took {elapsed} ms of the {available} ms left")
        vertex = answer.strip()
        if vertex.lower() == "resign":
            game.resign(color)
            rec.detail = f"{color} ({player.label}) resigned"
            return
        if not _VERTEX.match(vertex):
            raise _Forfeit(color, Reason.GARBAGE, f"{player.label} answered {command!r} with {_first_line(vertex)!r}, not a move")
        try:
            point = point_from_gtp(vertex, cfg.size)
            game.play(Move(color, point))
        except (InvalidMoveError, ValueError) as exc:  # IllegalMoveError is a ValueError
            raise _Forfeit(color, Reason.ILLEGAL, f"{player.label} played {vertex.upper()} as {color}: {exc}") from None
        self._call(opponent, color.opponent, f"play {color.name.lower()} {vertex.upper()}", cfg.setup_timeout)

    def _dead_list(self, player: EnginePlayer, game: Any) -> list[Point] | None:
        """What ``player`` lists as dead (stones only), or None if it cannot say."""
        try:
            c = player.ensure_running()
            if not player.knows("final_status_list"):
                return None
            text = c.send("final_status_list dead", timeout=self.config.setup_timeout)
        except GtpCommandFailed:
            return None
        except GtpEngineError:
            player.needs_restart = True
            return None
        points = set()
        for word in text.split():
            try:
                p = point_from_gtp(word, self.config.size)
            except InvalidMoveError:
                continue
            if p is not None and game.board[p] is not None:
                points.add(p)
        return sorted(points)

    def _count(self, game: Any, players: dict[Color, EnginePlayer], rec: GameRecord) -> None:
        cfg = self.config
        lists: dict[Color, list[Point] | None] = {c: self._dead_list(players[c], game) for c in Color}
        seki: list[Point] = []
        for c in Color:
            got = lists[c]
            rec.dead_by_engine[players[c].label] = None if got is None else [point_to_gtp(p) for p in got]
        known = [set(v) for v in lists.values() if v is not None]
        if len(known) == 2:
            rec.disagreement = [point_to_gtp(p) for p in sorted(known[0] ^ known[1])]
        if cfg.dead_stones is DeadStones.NONE or not known:
            dead: set[Point] = set()
            if not known and cfg.dead_stones is not DeadStones.NONE:
                rec.notes.append("neither engine lists dead stones: all stones count as they stand")
        elif cfg.dead_stones is DeadStones.UNION:
            dead = set().union(*known)
        elif cfg.dead_stones is DeadStones.ESTIMATOR:
            from miai.ai.status import estimate_status

            estimate = estimate_status(game)
            dead, seki = set(estimate.dead), sorted(estimate.seki)
        else:
            dead = set.intersection(*known)
        if rec.disagreement:
            rec.notes.append(
                "the engines disagree on the dead stones at " + " ".join(rec.disagreement)
                + f" (counted with {cfg.dead_stones.value} dead stones)"
            )
        rec.dead = [point_to_gtp(p) for p in sorted(dead)]
        score = game.finish(sorted(dead), seki=seki)
        rec.detail = f"both passed; counted {score.black.total:g} to {score.white.total:g}" + (
            f" with {len(dead)} dead stone{'s' if len(dead) != 1 else ''} removed" if dead else ""
        )


# ---------------------------------------------------------------------- the match
def load_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """The records of a ``results.jsonl`` file; a line cut short by a crash is skipped."""
    records = []
    p = Path(path)
    if not p.exists():
        return []
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            records.append(GameRecord.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            continue
    return records


class Match:
    """Plays ``config.games`` games into ``out_dir``: ``match.json`` (the settings),
    ``results.jsonl`` (one record per finished game, appended as it ends) and
    ``game-NNN.sgf``. With ``resume`` the games already in ``results.jsonl`` are kept and
    skipped. ``on_game_start(index)`` and ``on_game_end(record)`` report progress."""

    def __init__(
        self,
        config: MatchConfig,
        out_dir: str | os.PathLike[str],
        *,
        resume: bool = False,
        clock: Millis = _monotonic_ms,
        on_game_start: Callable[[int], None] | None = None,
        on_game_end: Callable[[GameRecord], None] | None = None,
    ):
        if config.engines[0].label == config.engines[1].label:
            raise ValueError(f"the two engines need different labels, not both {config.engines[0].label!r}")
        self.config = config
        self.out_dir = Path(out_dir)
        self.resume = resume
        self.referee = Referee(config, clock=clock)
        self.on_game_start = on_game_start
        self.on_game_end = on_game_end
        self.results_path = self.out_dir / "results.jsonl"
        self.records: list[GameRecord] = []

    def _prepare(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        settings = self.out_dir / "match.json"
        mine = self.config.to_json()
        if settings.exists():
            try:
                theirs = json.loads(settings.read_text(encoding="utf-8"))
            except ValueError:
                theirs = None
            if not self.resume:
                if self.results_path.exists() and self.results_path.stat().st_size:
                    raise MatchError(f"{self.out_dir} already holds a match: use --resume to continue it, or another directory")
            elif theirs is not None:
                differ = [k for k in mine if k != "games" and mine[k] != theirs.get(k)]
                if differ:
                    raise MatchError(
                        f"{self.out_dir} holds a match with other settings ({', '.join(differ)}): "
                        "resume it with the same settings, or use another directory"
                    )
        settings.write_text(json.dumps(mine, indent=2) + "\n", encoding="utf-8")
        self.records = load_records(self.results_path) if self.resume else []
        if self.results_path.exists():
            # rewrite what was read: a line cut short by a crash must not swallow the next record
            with open(self.results_path, "w", encoding="utf-8") as f:
                for r in self.records:
                    f.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")

    def pending(self) -> list[int]:
        done = {r.index for r in self.records}
        return [i for i in range(self.config.games) if i not in done]

    def run(self) -> list[GameRecord]:
        """Play the games still to play; returns every record (resumed ones included)."""
        self._prepare()
        cfg = self.config
        a, b = (EnginePlayer(spec, timeout=cfg.setup_timeout) for spec in cfg.engines)
        try:
            for player in (a, b):
                self._check(player)
            for index in self.pending():
                if self.on_game_start is not None:
                    self.on_game_start(index)
                black, white = (a, b) if index % 2 == 0 else (b, a)
                for player in (black, white):
                    if player.needs_restart or player.controller is None or not player.controller.alive:
                        self._check(player)
                record, game = self.referee.play_game(index, black, white)
                self._save(record, game)
                if self.on_game_end is not None:
                    self.on_game_end(record)
        finally:
            for player in (a, b):
                player.close()
        return sorted(self.records, key=lambda r: r.index)

    def _check(self, player: EnginePlayer) -> None:
        """Start (or restart) an engine and make sure it can play at all."""
        try:
            player.ensure_running()
            if not player.knows("genmove"):
                raise MatchError(
                    f"engine {player.label!r} ({' '.join(player.spec.command)}) cannot play: "
                    "it does not know the GTP command genmove"
                )
        except GtpEngineError as exc:
            raise MatchError(f"engine {player.label!r} ({' '.join(player.spec.command)}) failed to start: {exc}") from None

    def _save(self, record: GameRecord, game: Any) -> None:
        """Write the game's SGF, then append its result line. A record that cannot be
        written (a full disk, a bug in the writer) is noted in the result, which is
        appended all the same: the game's result is never lost."""
        record.sgf = f"game-{record.index + 1:03d}.sgf"
        root = [f"miai match, game {record.index + 1}: {record.black} (Black) vs {record.white} (White)"]
        root.append(f"Result {record.result}: {record.reason.value} - {record.detail}")
        root += record.notes
        comments = {0: "\n".join(root)}
        if record.dead_by_engine:
            lines = [f"{label} lists dead: {' '.join(v) if v else '(none)' if v is not None else '(cannot say)'}"
                     for label, v in record.dead_by_engine.items()]
            comments[game.move_number] = "\n".join(lines + [f"counted with dead: {' '.join(record.dead) or '(none)'}"])
        try:
            text = game_to_sgf(
                game,
                black=_player_name(record.black, record.black_name),
                white=_player_name(record.white, record.white_name),
                date=_dt.date.today().isoformat(),
                comments=comments,
            )
            (self.out_dir / record.sgf).write_text(text, encoding="utf-8")
        except Exception as exc:  # noqa: BLE001 - the result line below must still be written
            record.notes.append(f"SGF not written: {type(exc).__name__}: {exc}")
            record.sgf = ""
        with open(self.results_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.records.append(record)


# ---------------------------------------------------------------------- pooling runs
POOLED_SETTINGS = ("size", "rules", "komi", "handicap", "time_control", "dead_stones")
"""The settings that runs must share to be pooled: what their games were played under."""


@dataclass(frozen=True, slots=True)
class MatchRun:
    """A directory as :class:`Match` leaves it: its settings (``match.json``) and the games
    it finished (``results.jsonl``), a run still in progress included."""

    out_dir: Path
    settings: dict[str, Any]
    records: list[GameRecord]

    @property
    def labels(self) -> tuple[str, str]:
        """Engine A's and engine B's labels."""
        a, b = self.settings["engines"]
        return a["label"], b["label"]


def load_run(out_dir: str | os.PathLike[str]) -> MatchRun:
    """Read a match directory; :class:`MatchError` says why one cannot be read."""
    path = Path(out_dir) / "match.json"
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MatchError(f"{out_dir} is not a match directory: it has no match.json") from None
    except (OSError, ValueError) as exc:
        raise MatchError(f"{path} cannot be read: {exc}") from None
    engines = settings.get("engines") if isinstance(settings, dict) else None
    if not (isinstance(engines, list) and len(engines) == 2 and all(isinstance(e, dict) and "label" in e for e in engines)):
        raise MatchError(f"{path} does not name two engines with labels")
    return MatchRun(Path(out_dir), settings, load_records(path.with_name("results.jsonl")))


def pool_runs(runs: Sequence[MatchRun], labels: tuple[str, str] | None = None) -> tuple[tuple[str, str], list[GameRecord]]:
    """The games of several runs of one match as one list for :func:`summarize`: engine A of
    every run under ``labels[0]`` and engine B under ``labels[1]`` (default: the first run's
    labels), numbered in run order, each record's ``sgf`` pointing into its own directory.

    Runs are pooled when the same two engines (possibly different builds of them, run side
    by side to use more cores, or a run resumed elsewhere) played under the same
    :data:`POOLED_SETTINGS`; runs that differ there measured something else and are refused.
    """
    if not runs:
        raise MatchError("no match directory to report on")
    first = runs[0]
    for run in runs[1:]:
        differ = [k for k in POOLED_SETTINGS if run.settings.get(k) != first.settings.get(k)]
        if differ:
            what = ", ".join(f"{k} {run.settings.get(k)!r} (not {first.settings.get(k)!r})" for k in differ)
            raise MatchError(f"{run.out_dir} was played with other settings than {first.out_dir}: {what}")
    a, b = labels if labels is not None else first.labels
    if a == b:
        raise MatchError(f"the two engines need different labels, not both {a!r}")
    pooled: list[GameRecord] = []
    for run in runs:
        rename = dict(zip(run.labels, (a, b), strict=True))
        for r in sorted(run.records, key=lambda r: r.index):
            pooled.append(_relabelled(r, rename, len(pooled), run.out_dir))
    return (a, b), pooled


def _relabelled(r: GameRecord, rename: dict[str, str], index: int, out_dir: Path) -> GameRecord:
    def new(label: str) -> str:
        return rename.get(label, label)

    return dataclasses.replace(
        r,
        index=index,
        black=new(r.black),
        white=new(r.white),
        time_ms={new(k): v for k, v in r.time_ms.items()},
        genmoves={new(k): v for k, v in r.genmoves.items()},
        dead_by_engine={new(k): v for k, v in r.dead_by_engine.items()},
        at_fault=None if r.at_fault is None else new(r.at_fault),
        sgf=str(out_dir / r.sgf) if r.sgf else "",
    )


def _player_name(label: str, name: str) -> str:
    return label if not name or name == label else f"{label} ({name})"


# ---------------------------------------------------------------------- statistics
def wilson_interval(score: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``score`` successes of ``n``; a draw is
    half a success). (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if p == 0 else max(0.0, centre - half)
    hi = 1.0 if p == 1 else min(1.0, centre + half)
    return lo, hi


def elo_difference(p: float) -> float:
    """The Elo difference that gives a win rate ``p`` (±inf at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


@dataclass(slots=True)
class MatchSummary:
    """The numbers of the results table, from engine A's point of view."""

    labels: tuple[str, str]
    games: int
    decided: int
    """Games with a winner or a draw (no-result games are left out of the rates)."""
    wins: dict[str, int]
    draws: int
    no_result: int
    wins_as: dict[tuple[str, str], int]
    """(label, "black"|"white") -> wins."""
    games_as: dict[tuple[str, str], int]
    black_wins: int
    white_wins: int
    win_rate: float
    interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]
    ms_per_move: dict[str, float | None]
    reasons: Counter[str]
    forfeits: Counter[str]
    """label -> games it forfeited."""


def summarize(records: Iterable[GameRecord], labels: tuple[str, str]) -> MatchSummary:
    recs = list(records)
    a, b = labels
    wins = {a: 0, b: 0}
    wins_as: dict[tuple[str, str], int] = {(x, c): 0 for x in labels for c in ("black", "white")}
    games_as: dict[tuple[str, str], int] = dict(wins_as)
    draws = no_result = black_wins = white_wins = 0
    time_ms = {a: 0, b: 0}
    moves = {a: 0, b: 0}
    reasons: Counter[str] = Counter()
    forfeits: Counter[str] = Counter()
    for r in recs:
        reasons[r.reason.value] += 1
        if r.at_fault:
            forfeits[r.at_fault] += 1
        for label, colour in ((r.black, "black"), (r.white, "white")):
            if label in (a, b):
                games_as[(label, colour)] += 1
        for label, ms in r.time_ms.items():
            if label in time_ms:
                time_ms[label] += ms
                moves[label] += r.genmoves.get(label, 0)
        w = r.winner
        if w is not None:
            wins[w] = wins.get(w, 0) + 1
            if r.winner_color is Color.BLACK:
                black_wins += 1
                wins_as[(w, "black")] = wins_as.get((w, "black"), 0) + 1
            else:
                white_wins += 1
                wins_as[(w, "white")] = wins_as.get((w, "white"), 0) + 1
        elif r.result in ("0", "Draw"):
            draws += 1
        else:
            no_result += 1
    decided = len(recs) - no_result
    points = wins[a] + 0.5 * draws
    rate = points / decided if decided else 0.5
    lo, hi = wilson_interval(points, decided)
    return MatchSummary(
        labels=labels,
        games=len(recs),
        decided=decided,
        wins=wins,
        draws=draws,
        no_result=no_result,
        wins_as=wins_as,
        games_as=games_as,
        black_wins=black_wins,
        white_wins=white_wins,
        win_rate=rate,
        interval=(lo, hi),
        elo=elo_difference(rate) if decided else 0.0,
        elo_interval=(elo_difference(lo), elo_difference(hi)) if decided else (-math.inf, math.inf),
        ms_per_move={x: (time_ms[x] / moves[x] if moves[x] else None) for x in labels},
        reasons=reasons,
        forfeits=forfeits,
    )


def _elo_text(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x) + 0:+d}"


def format_summary(s: MatchSummary) -> str:
    """The results table as plain text."""
    a, b = s.labels
    width = max(len(a), len(b), 6)
    lines = [f"{s.games} game{'s' if s.games != 1 else ''}: {a} (A) vs {b} (B)"]
    head = f"{'engine':<{width}}  {'wins':>5}  {'as Black':>9}  {'as White':>9}  {'ms/move':>8}  {'forfeits':>8}"
    lines += [head, "-" * len(head)]
    for x in s.labels:
        ms = s.ms_per_move[x]
        as_b = f"{s.wins_as[(x, 'black')]}/{s.games_as[(x, 'black')]}"
        as_w = f"{s.wins_as[(x, 'white')]}/{s.games_as[(x, 'white')]}"
        lines.append(
            f"{x:<{width}}  {s.wins[x]:>5}  {as_b:>9}  {as_w:>9}  "
            f"{(f'{ms:.0f}' if ms is not None else '-'):>8}  {s.forfeits.get(x, 0):>8}"
        )
    lines.append("")
    extra = []
    if s.draws:
        extra.append(f"{s.draws} draw{'s' if s.draws != 1 else ''}")
    if s.no_result:
        extra.append(f"{s.no_result} without result")
    lines.append(f"Black won {s.black_wins}, White won {s.white_wins}" + (f", {', '.join(extra)}" if extra else ""))
    lo, hi = s.interval
    lines.append(
        f"{a} win rate: {100 * s.win_rate:.1f}% (95% CI {100 * lo:.1f}%-{100 * hi:.1f}%, Wilson, {s.decided} decided games)"
    )
    lines.append(
        f"Elo difference {a} - {b}: {_elo_text(s.elo)} (95% CI {_elo_text(s.elo_interval[0])} to {_elo_text(s.elo_interval[1])})"
    )
    lines.append("Games ended by: " + ", ".join(f"{k} {v}" for k, v in s.reasons.most_common()))
    return "\n".join(lines)
