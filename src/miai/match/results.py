"""The result of one refereed game, and the ``results.jsonl`` file that holds one per line.

A :class:`GameResult` says who played which colour, the game's :class:`~miai.result.Result`
(who won and how the game ended: counted, resignation, time, forfeit, void) and the
referee's finer :class:`Reason` (which kind of forfeit: an illegal move, a crash...), with
the engines' thinking time and their dead-stone lists. In JSON the result keeps its SGF
text (``"B+3.5"``), read back with :meth:`Result.parse <miai.result.Result.parse>`.

Reading is strict and never raises on a bad file: :func:`read_results` returns the lines
that are game results and, apart, those that are not (a line cut short by a crash, a line
someone edited), which callers keep aside rather than lose.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from miai.coords import Color
from miai.errors import ResultError
from miai.match.errors import ResultLineError
from miai.result import EndReason, Result, Termination

__all__ = ["GameResult", "Reason", "load_results", "read_results"]


class Reason(str, Enum):
    """Why a game ended, as the referee saw it (the values are ``results.jsonl``'s words).

    Where the rules of play ended the game it is the core's :class:`~miai.result.EndReason`
    in the referee's terms (:meth:`of`: a count of any kind is ``SCORE``, a void by
    repetition ``VOID``). Its own rulings are finer: the five ways an engine can fail are
    each the core's ``FORFEIT``, and ``MOVE_CAP`` a void the referee gives (the core's
    ``GIVEN``). :attr:`termination` is what the game's result says of it."""

    SCORE = "score"
    RESIGNATION = "resignation"
    TIME = "time"
    ILLEGAL = "illegal move"
    CRASH = "crash"
    TIMEOUT = "timeout"
    """No answer within the move timeout (without a time control)."""
    GARBAGE = "garbage output"
    """An answer that is not GTP or not a move (a line too long included)."""
    REFUSED = "refused command"
    MOVE_CAP = "move cap"
    VOID = "void"

    @property
    def forfeit(self) -> bool:
        return self.termination is Termination.FORFEIT

    @property
    def termination(self) -> Termination:
        """How the game's :class:`~miai.result.Result` says it ended."""
        return _TERMINATION.get(self, Termination.FORFEIT)

    @classmethod
    def of(cls, end: EndReason) -> Reason:
        """The referee's reason for a game the rules of play ended; raises ``ValueError`` for
        an end only a ruling gives (a forfeit, a given result, a claim, a record's)."""
        try:
            return _OF_END[end]
        except KeyError:
            raise ValueError(f"the rules of play do not end a game by {end.value}: the referee rules on it") from None


_TERMINATION = {
    Reason.SCORE: Termination.SCORE,
    Reason.RESIGNATION: Termination.RESIGNATION,
    Reason.TIME: Termination.TIME,
    Reason.MOVE_CAP: Termination.VOID,
    Reason.VOID: Termination.VOID,
}
_OF_END = {
    EndReason.RESIGNATION: Reason.RESIGNATION,
    EndReason.TIME: Reason.TIME,
    EndReason.AGREEMENT: Reason.SCORE,
    EndReason.PASSES: Reason.SCORE,
    EndReason.ALL_ALIVE: Reason.SCORE,
    EndReason.REPETITION: Reason.VOID,
}


@dataclass(slots=True)
class GameResult:
    """One refereed game: who played, the result and why the game ended (a line of
    ``results.jsonl``)."""

    index: int
    black: str
    """The label of the engine that had Black."""
    white: str
    result: Result
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
    """The game's record, a file name in the run's directory ("" if none was written)."""
    at_fault: str | None = None
    """The label of the engine that forfeited, for forfeits."""
    offturn_cpu_ms: dict[str, int] = field(default_factory=dict)
    """The CPU time each engine's processes used while the other engine was thinking (by
    label; absent where the system cannot tell: :mod:`miai.match.cputime`). Well above zero
    for an engine that ponders."""
    winrates: dict[str, list[list[float]]] = field(default_factory=dict)
    """Each engine's own win rate for the moves it played, as ``[move number, win rate]``
    pairs (by label; only the moves for which it wrote one on stderr:
    :mod:`miai.match.winrates`)."""
    opening: str = ""
    """The name of the opening the game started from ("" for the empty board:
    :mod:`miai.match.openings`)."""

    @property
    def winner_color(self) -> Color | None:
        return self.result.winner

    @property
    def winner(self) -> str | None:
        """The label of the winning engine (None: a draw or no result)."""
        c = self.result.winner
        return None if c is None else (self.black if c is Color.BLACK else self.white)

    def label_of(self, color: Color) -> str:
        return self.black if color is Color.BLACK else self.white

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["result"] = str(self.result)
        d["reason"] = self.reason.value
        return json.loads(json.dumps(d))  # deep copies of the lists and dicts

    @classmethod
    def from_json(cls, d: object) -> GameResult:
        """Read :meth:`to_json`'s form, checking every field; raises
        :class:`~miai.match.errors.ResultLineError` saying what is wrong."""
        if not isinstance(d, dict):
            raise ResultLineError(f"a game result is a JSON object, not {type(d).__name__}")
        try:
            result = Result.parse(_get(d, "result", str))
        except ResultError as exc:
            raise ResultLineError(str(exc)) from None
        try:
            reason = Reason(_get(d, "reason", str))
        except ValueError:
            raise ResultLineError(f"not a reason: {d.get('reason')!r}") from None
        if reason.termination is not result.by:
            raise ResultLineError(f"the result {result} does not end a game by {reason.value}")
        index = _get(d, "index", int)
        if index < 0:
            raise ResultLineError(f"a game index is not negative, not {index}")
        at_fault = d.get("at_fault")
        if at_fault is not None and not isinstance(at_fault, str):
            raise ResultLineError(f"at_fault must be a label or null, not {at_fault!r}")
        dead_by_engine = _get(d, "dead_by_engine", dict, {})
        for v in dead_by_engine.values():
            if v is not None:
                _str_list(v, "dead_by_engine")
        return cls(
            index=index,
            black=_get(d, "black", str),
            white=_get(d, "white", str),
            result=result,
            reason=reason,
            detail=_get(d, "detail", str, ""),
            moves=_get(d, "moves", int, 0),
            black_name=_get(d, "black_name", str, ""),
            white_name=_get(d, "white_name", str, ""),
            time_ms=_int_map(_get(d, "time_ms", dict, {}), "time_ms"),
            genmoves=_int_map(_get(d, "genmoves", dict, {}), "genmoves"),
            dead=_str_list(_get(d, "dead", list, []), "dead"),
            dead_by_engine=dead_by_engine,
            disagreement=_str_list(_get(d, "disagreement", list, []), "disagreement"),
            notes=_str_list(_get(d, "notes", list, []), "notes"),
            sgf=_get(d, "sgf", str, ""),
            at_fault=at_fault,
            offturn_cpu_ms=_int_map(_get(d, "offturn_cpu_ms", dict, {}), "offturn_cpu_ms"),
            winrates=_winrates(_get(d, "winrates", dict, {})),
            opening=_get(d, "opening", str, ""),
        )

    def json_line(self) -> str:
        """The result as one line of ``results.jsonl`` (with its newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False) + "\n"


_MISSING = object()


def _get(d: dict[str, Any], key: str, kind: type, default: Any = _MISSING) -> Any:
    value = d.get(key, default)
    if value is _MISSING:
        raise ResultLineError(f"the field {key!r} is missing")
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ResultLineError(f"the field {key!r} must be a {kind.__name__}, not {value!r:.40}")
    return value


def _int_map(d: dict[str, Any], key: str) -> dict[str, int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in d.values()):
        raise ResultLineError(f"the field {key!r} must map labels to integers")
    return d


def _winrates(d: dict[str, Any]) -> dict[str, list[list[float]]]:
    for pairs in d.values():
        if not isinstance(pairs, list) or not all(_is_winrate_pair(p) for p in pairs):
            raise ResultLineError("the field 'winrates' must map labels to [move number, win rate] pairs")
    return d


def _is_winrate_pair(p: Any) -> bool:
    return (
        isinstance(p, list)
        and len(p) == 2
        and isinstance(p[0], int)
        and not isinstance(p[0], bool)
        and p[0] >= 1
        and isinstance(p[1], (int, float))
        and not isinstance(p[1], bool)
        and 0.0 <= p[1] <= 1.0
    )


def _str_list(v: list[Any], key: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ResultLineError(f"the field {key!r} must be a list of strings")
    return v


# ---------------------------------------------------------------------- the file
def read_results(path: str | os.PathLike[str]) -> tuple[list[GameResult], list[str]]:
    """The game results of a ``results.jsonl`` file (none if it does not exist) and, apart,
    its non-empty lines that are not game results. Never raises for the file's content."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return [], []
    results: list[GameResult] = []
    bad: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            results.append(GameResult.from_json(json.loads(line)))
        except (ValueError, RecursionError):  # JSONDecodeError and ResultLineError are ValueErrors
            bad.append(line)
    return results, bad


def load_results(path: str | os.PathLike[str]) -> list[GameResult]:
    """The game results of a ``results.jsonl`` file; lines that are not are skipped."""
    return read_results(path)[0]
