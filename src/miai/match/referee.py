"""The referee: one game between two GTP engines, judged move by move by miai's rules.

* :class:`EngineSpec` is an engine's command line and label; :class:`EnginePlayer` a running
  engine (a :class:`~miai.gtp.controller.GtpController` started on demand and restarted
  after it failed).
* :class:`MatchConfig` says what to play (size, rules, komi, handicap, the
  :class:`~miai.clock.TimeControl`, the move cap, how dead stones are decided, the
  :mod:`openings <miai.match.openings>` the games start from); it checks every setting and
  raises :class:`~miai.match.errors.MatchConfigError` naming a bad one.
* :class:`Referee` plays one game and returns its :class:`~miai.match.results.GameResult`
  and the :class:`~miai.game.Game`. A game's opening moves are played into the game and
  sent to both engines with ``play`` before the first ``genmove``. Each ``genmove``
  answer is played into the game (``Game.play`` checks it), then sent to the opponent
  with ``play``. An engine that
  fails (an illegal move, a crash, a timeout, garbage output, a refused command) forfeits;
  one whose flag falls loses on time. The clocks are a :class:`~miai.clock.Clock` on an
  injectable time source; each engine hears ``time_left`` before each move.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from miai.clock import Clock, TimeControl, TimeSystem
from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp, vertices
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError
from miai.game import Game, Phase
from miai.gtp.controller import (
    GtpCommandFailed,
    GtpController,
    GtpEngineDied,
    GtpEngineError,
    GtpProtocolError,
    GtpTimeout,
)
from miai.gtp.katago_rules import to_katago_json
from miai.handicap import fixed_handicap_points
from miai.match.cputime import group_cpu_seconds
from miai.match.errors import MatchConfigError
from miai.match.openings import Opening, opening_for
from miai.match.results import GameResult, Reason
from miai.match.winrates import last_winrate
from miai.result import EndReason, Result
from miai.rules import Rules
from miai.timesource import SYSTEM_TIME, TimeSource

__all__ = ["DeadStones", "EnginePlayer", "EngineSpec", "MatchConfig", "Referee"]

MAX_KOMI = 1000.0
"""The largest komi (either sign) a match accepts."""
MAX_SECONDS = 366 * 24 * 3600.0
"""The longest timeout a match accepts."""


# ---------------------------------------------------------------------- engines
@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine: its command line and the label the results use."""

    command: tuple[str, ...]
    label: str

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(a, str) for a in self.command) or not self.command[0].strip():
            raise MatchConfigError(f"an engine needs a command line, not {list(self.command)!r}")
        if not isinstance(self.label, str) or not self.label.strip():
            raise MatchConfigError(f"an engine needs a label, not {self.label!r}")

    @classmethod
    def parse(cls, command: str | Sequence[str], label: str | None = None) -> EngineSpec:
        """An engine from a command line (a string is split as a shell would, without one)."""
        try:
            argv = tuple(shlex.split(command) if isinstance(command, str) else command)
        except ValueError as exc:  # shlex: "No closing quotation"
            raise MatchConfigError(f"cannot read the engine command line {command!r}: {exc}") from None
        if not argv:
            raise MatchConfigError("an engine needs a command line")
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
        self.stderr_lines: list[str] = []
        """What the engine wrote on stderr since the referee last cleared it (for its win rate);
        the referee settles the engine's stderr after each answer, so a move's lines are all here."""

    def _log(self, kind: str, text: str) -> None:
        if kind == "stderr" and len(self.stderr_lines) < 10_000:
            self.stderr_lines.append(text)

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
            c = GtpController(list(self.spec.command), timeout=self.timeout, cwd=self.cwd, log=self._log)
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

    def cpu_seconds(self) -> float | None:
        """The CPU seconds the engine's processes have used so far (None: it is not running,
        or the system cannot tell: :mod:`miai.match.cputime`)."""
        c = self.controller
        return None if c is None else group_cpu_seconds(c.pid)

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


# ---------------------------------------------------------------------- settings
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


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_SECONDS:
        raise MatchConfigError(f"{what} must be a number of seconds above 0 and at most {MAX_SECONDS:.0f}, not {value!r}")
    return float(value)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MatchConfigError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What a match plays. ``komi`` None takes the rules' komi. Every setting is checked:
    :class:`~miai.match.errors.MatchConfigError` names the one that makes no sense."""

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
    openings: tuple[Opening, ...] = ()
    """The positions the games start from, each played twice with the colours swapped (once
    when the match does not ``alternate``: :meth:`opening`); none:
    the empty board."""
    alternate: bool = True
    """Whether the engines take turns at Black (the first engine in even games); False: the
    first engine is Black in every game, and each opening is played once, as
    ``gogui-twogtp`` plays without ``-alternate``."""

    def first_is_black(self, index: int) -> bool:
        """Whether the first engine plays Black in game ``index`` (from 0)."""
        return not self.alternate or index % 2 == 0

    def opening(self, index: int) -> Opening | None:
        """The opening game ``index`` (from 0) starts from: one game each when the match does
        not alternate, two (the colours swapped) when it does; None without openings."""
        return opening_for(self.openings, index, 2 if self.alternate else 1)

    def __post_init__(self) -> None:
        if len(self.engines) != 2 or not all(isinstance(e, EngineSpec) for e in self.engines):
            raise MatchConfigError("a match needs two engines")
        if self.engines[0].label == self.engines[1].label:
            raise MatchConfigError(f"the two engines need different labels, not both {self.engines[0].label!r}")
        _whole(self.games, "the number of games", 1, 1_000_000)
        _whole(self.size, "the board size", 2, 25)
        if self.komi is not None:
            k = self.komi
            if isinstance(k, bool) or not isinstance(k, (int, float)) or not -MAX_KOMI <= k <= MAX_KOMI:
                raise MatchConfigError(f"komi must be a number from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {k!r}")
        elif abs(self.rules.komi) > MAX_KOMI:
            raise MatchConfigError(f"komi must be from {-MAX_KOMI:g} to {MAX_KOMI:g}, not {self.rules.komi:g}")
        _whole(self.handicap, "the handicap", 0, 25 * 25)
        if self.handicap:
            try:
                fixed_handicap_points(self.size, self.handicap)
            except HandicapError as exc:
                raise MatchConfigError(str(exc)) from None
        if not isinstance(self.time_control, TimeControl):
            raise MatchConfigError(f"not a time control: {self.time_control!r}")
        _seconds(self.move_timeout, "the move timeout")
        _seconds(self.setup_timeout, "the setup timeout")
        if self.max_moves is not None:
            _whole(self.max_moves, "the move cap", 1, 10_000_000)
        if not isinstance(self.dead_stones, DeadStones):
            raise MatchConfigError(f"not a dead-stone rule: {self.dead_stones!r}")
        _whole(self.lag_ms, "the lag allowance (ms)", 0, 3_600_000)
        for opening in self.openings:
            self._check_opening(opening)

    def _check_opening(self, opening: Opening) -> None:
        """Replay the opening under the match's settings: every move legal, and the game
        still in play after it, with moves left before the cap."""
        if not isinstance(opening, Opening):
            raise MatchConfigError(f"not an opening: {opening!r}")
        game = Game(self.size, self.rules, handicap=self.handicap, komi=self.komi)
        for number, move in enumerate(opening.moves, 1):
            if game.phase is not Phase.PLAY:
                raise MatchConfigError(f"opening {opening.name}: the game is over before move {number} ({move})")
            try:
                game.play(move)
            except (IllegalMoveError, InvalidMoveError) as exc:
                raise MatchConfigError(f"opening {opening.name}: move {number} ({move}) is illegal: {exc}") from None
        if game.phase is not Phase.PLAY:
            raise MatchConfigError(f"opening {opening.name}: the game is over after its moves (two passes)")
        if len(opening.moves) >= self.move_cap:
            raise MatchConfigError(f"opening {opening.name}: its {len(opening.moves)} moves reach the move cap")

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
        } | ({"openings": [o.to_json() for o in self.openings]} if self.openings else {}) | (
            {} if self.alternate else {"alternate": False}
        )


# ---------------------------------------------------------------------- one game
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


@dataclass(slots=True)
class _Tally:
    """What the referee notes during a game, before the game has a result."""

    time_ms: dict[str, int]
    genmoves: dict[str, int]
    reason: Reason = Reason.SCORE
    detail: str = ""
    at_fault: str | None = None
    notes: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    dead_by_engine: dict[str, list[str] | None] = field(default_factory=dict)
    disagreement: list[str] = field(default_factory=list)
    offturn_cpu_ms: dict[str, int] = field(default_factory=dict)
    winrates: dict[str, list[list[float]]] = field(default_factory=dict)
    """Each engine's ``[move number, its win rate]`` for the moves it played."""
    opening: str = ""


_VERTEX = re.compile(r"^(pass|[a-hj-z]\d{1,2})$", re.IGNORECASE)


def _first_line(text: str) -> str:
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    return lines[0] if lines else ""


class Referee:
    """Plays games between two :class:`EnginePlayer` s under a :class:`MatchConfig`;
    ``time`` is where it reads the time (the engines' clocks, their thinking time)."""

    def __init__(self, config: MatchConfig, *, time: TimeSource = SYSTEM_TIME):
        self.config = config
        self.time = time

    def play_game(self, index: int, black: EnginePlayer, white: EnginePlayer) -> tuple[GameResult, Game]:
        """Play one game; returns its result and the :class:`~miai.game.Game`. Never raises
        for an engine's failure: that engine forfeits and is marked for a restart."""
        cfg = self.config
        players = {Color.BLACK: black, Color.WHITE: white}
        game = Game(cfg.size, cfg.rules, handicap=cfg.handicap, komi=cfg.komi)
        tally = _Tally({black.label: 0, white.label: 0}, {black.label: 0, white.label: 0})
        clock = Clock.new(cfg.time_control, time=self.time)
        names: dict[Color, str] = {}
        try:
            for color in (Color.BLACK, Color.WHITE):
                self._setup(players[color], color, game, tally)
            opening = cfg.opening(index)
            if opening is not None:
                self._play_opening(opening, game, players, tally)
            names = {c: players[c].name for c in Color}
            while game.phase is Phase.PLAY:
                if game.move_number >= cfg.move_cap:
                    tally.reason = Reason.MOVE_CAP
                    tally.detail = f"the move cap of {cfg.move_cap} moves was reached"
                    game.set_result(Result.void(), EndReason.GIVEN)
                    break
                clock = self._move(game, players, clock, tally)
            if game.phase is Phase.MARKING:
                self._count(game, players, tally)
        except _Forfeit as f:
            tally.reason = f.reason
            tally.detail = f"{f.color} forfeits: {f.detail}"
            game.set_result(Result.forfeit(f.color), EndReason.FORFEIT)
            tally.at_fault = players[f.color].label
        except _OutOfTime as t:
            game.lose_on_time(t.color)
            tally.reason = Reason.TIME
            tally.detail = t.detail
        result = game.result or Result.void()
        if tally.reason is Reason.SCORE:  # the rules of play ended it (a void if nothing did)
            tally.reason = Reason.VOID if game.end_reason is None else Reason.of(game.end_reason)
        record = GameResult(
            index=index,
            black=black.label,
            white=white.label,
            result=result,
            reason=tally.reason,
            detail=tally.detail or game.end_words or "",
            moves=game.move_number,
            black_name=names.get(Color.BLACK) or black.name,
            white_name=names.get(Color.WHITE) or white.name,
            time_ms=tally.time_ms,
            genmoves=tally.genmoves,
            dead=tally.dead,
            dead_by_engine=tally.dead_by_engine,
            disagreement=tally.disagreement,
            notes=tally.notes,
            at_fault=tally.at_fault,
            offturn_cpu_ms=tally.offturn_cpu_ms,
            winrates={label: pairs for label, pairs in tally.winrates.items() if pairs},
            opening=tally.opening,
        )
        return record, game

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
            what = _first_line(str(exc))
            if what.startswith("the engine wrote"):  # a line or a response too long, an id too long
                what = what.replace("the engine wrote", "").strip()
            elif what.startswith("the response carries"):
                what = "a response that " + what.replace("the response carries", "carries").strip()
            else:
                what = f"something that is not GTP: {_first_line(exc.text)!r}"
            return Reason.GARBAGE, f"{player.label} answered {command!r} with {what}"
        detail = f"{player.label} crashed"
        if isinstance(exc, GtpEngineDied):
            detail += f" on {command!r}"
            if exc.returncode is not None:
                detail += f" (exit code {exc.returncode})"
        else:
            detail += f": {_first_line(str(exc))}"
        if exc.stderr:
            detail += f"; its last words: {exc.stderr.strip().splitlines()[-1][:200]!r}"
        return Reason.CRASH, detail

    def _setup(self, player: EnginePlayer, color: Color, game: Game, tally: _Tally) -> None:
        cfg = self.config
        t = cfg.setup_timeout
        self._call(player, color, f"boardsize {cfg.size}", t)
        self._call(player, color, "clear_board", t)
        if player.knows("kata-set-rules"):
            try:
                player.ensure_running().send(f"kata-set-rules {to_katago_json(cfg.rules)}", timeout=t)
            except GtpCommandFailed as exc:
                tally.notes.append(f"{player.label} refused kata-set-rules ({exc.text}): it may play other rules")
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
                    f"{player.label} placed the handicap at {text.strip()[:80]!r}, "
                    f"not at {' '.join(point_to_gtp(p) for p in wanted)}",
                )
        tc = cfg.time_control
        if not tc.unlimited:
            if tc.system is not TimeSystem.ABSOLUTE and player.knows("kgs-time_settings"):
                self._call(player, color, tc.kgs_time_settings(), t)
            elif player.knows("time_settings"):
                self._call(player, color, tc.gtp_time_settings(), t)
            else:
                tally.notes.append(f"{player.label} does not know time_settings: it is not told the time control")

    def _play_opening(self, opening: Opening, game: Game, players: dict[Color, EnginePlayer], tally: _Tally) -> None:
        """Play the opening's moves into the game and tell both engines (an engine that
        refuses one forfeits). Untimed: the clocks start after them."""
        t = self.config.setup_timeout
        for move in opening.moves:
            game.play(move)  # checked by MatchConfig
            for color in (Color.BLACK, Color.WHITE):
                self._call(players[color], color, f"play {move.color.name.lower()} {move.gtp()}", t)
        tally.opening = opening.name

    def _move(self, game: Game, players: dict[Color, EnginePlayer], clock: Clock, tally: _Tally) -> Clock:
        """Ask the player to move for one move and play it; returns the clocks after it."""
        cfg = self.config
        color = game.to_move
        player, opponent = players[color], players[color.opponent]
        left = clock.time_left(color)
        if left is not None and player.knows("time_left"):
            self._call(player, color, f"time_left {color.name.lower()} {left.gtp_args()}", cfg.setup_timeout)
        idle_before = opponent.cpu_seconds()  # the opponent should be idle while this one thinks
        clock = clock.start(color)
        available = clock.remaining_ms(color)
        limit = cfg.move_timeout if available is None else (available + cfg.lag_ms) / 1000
        command = f"genmove {color.name.lower()}"
        start = self.time.monotonic_ms()
        player.stderr_lines.clear()
        try:
            c = player.ensure_running()
            answer = c.send(command, timeout=limit)
        except GtpCommandFailed as exc:
            raise _Forfeit(color, Reason.REFUSED, f"{player.label} refused {command!r}: {exc.text}") from None
        except GtpTimeout as exc:
            player.needs_restart = True
            if available is not None:
                raise _OutOfTime(color, f"{color} ran out of time: no move within {exc.timeout:g} s") from None
            raise _Forfeit(color, *self._engine_failure(player, command, exc)) from None
        except GtpEngineError as exc:
            player.needs_restart = True
            raise _Forfeit(color, *self._engine_failure(player, command, exc)) from None
        elapsed = max(0, self.time.monotonic_ms() - start)
        tally.time_ms[player.label] += elapsed
        tally.genmoves[player.label] += 1
        clock = clock.stop()
        idle_after = opponent.cpu_seconds()  # (read off the mover's clock, as the first)
        if idle_before is not None and idle_after is not None:
            used = max(0, round(1000 * (idle_after - idle_before)))
            tally.offturn_cpu_ms[opponent.label] = tally.offturn_cpu_ms.get(opponent.label, 0) + used
        if clock.flagged is color:
            raise _OutOfTime(color, f"{color} ran out of time: the move took {elapsed} ms of the {available} ms left")
        vertex = answer.strip()
        if vertex.lower() == "resign":
            game.resign(color)
            tally.detail = f"{color} ({player.label}) resigned"
            return clock
        if not _VERTEX.match(vertex):
            raise _Forfeit(
                color, Reason.GARBAGE, f"{player.label} answered {command!r} with {_first_line(vertex)[:80]!r}, not a move"
            )
        try:
            point = point_from_gtp(vertex, cfg.size)
            game.play(Move(color, point))
        except (InvalidMoveError, ValueError) as exc:  # IllegalMoveError is a ValueError
            raise _Forfeit(color, Reason.ILLEGAL, f"{player.label} played {vertex.upper()} as {color}: {exc}") from None
        c.settle_stderr()
        rate = last_winrate(player.stderr_lines)
        if rate is not None:
            tally.winrates.setdefault(player.label, []).append([game.move_number, rate])
        self._call(opponent, color.opponent, f"play {color.name.lower()} {vertex.upper()}", cfg.setup_timeout)
        return clock

    def _dead_list(self, player: EnginePlayer, game: Game) -> list[Point] | None:
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

    def _count(self, game: Game, players: dict[Color, EnginePlayer], tally: _Tally) -> None:
        cfg = self.config
        lists: dict[Color, list[Point] | None] = {c: self._dead_list(players[c], game) for c in Color}
        seki: list[Point] = []
        for c in Color:
            got = lists[c]
            tally.dead_by_engine[players[c].label] = None if got is None else [point_to_gtp(p) for p in got]
        known = [set(v) for v in lists.values() if v is not None]
        if len(known) == 2:
            tally.disagreement = vertices(known[0] ^ known[1]).split()
        dead: set[Point] = set()
        if cfg.dead_stones is DeadStones.NONE or not known:
            if not known and cfg.dead_stones is not DeadStones.NONE:
                tally.notes.append("neither engine lists dead stones: all stones count as they stand")
        elif cfg.dead_stones is DeadStones.UNION:
            dead = set().union(*known)
        elif cfg.dead_stones is DeadStones.ESTIMATOR:
            from miai.ai.status import estimate_status  # the search's playouts: loaded only when asked for

            estimate = estimate_status(game)
            dead, seki = set(estimate.dead), sorted(estimate.seki)
        else:
            dead = set.intersection(*known)
        if tally.disagreement:
            tally.notes.append(
                "the engines disagree on the dead stones at " + " ".join(tally.disagreement)
                + f" (counted with {cfg.dead_stones.value} dead stones)"
            )
        tally.dead = vertices(dead).split()
        score = game.finish(sorted(dead), seki=seki)
        tally.detail = f"both passed; counted {score.black.total:g} to {score.white.total:g}" + (
            f" with {len(dead)} dead stone{'s' if len(dead) != 1 else ''} removed" if dead else ""
        )
