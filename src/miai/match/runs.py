"""Match runs: the games of a match played into a directory, resumed, read back and pooled.

A run's directory holds ``match.json`` (the settings), ``results.jsonl`` (one
:class:`~miai.match.results.GameResult` per line, appended and synced to disk as each game
ends, so a crash loses nothing) and ``game-NNN.sgf`` (one record per game). :class:`Match`
plays the games still missing; ``resume`` continues an interrupted run in the same
directory. :func:`load_run` reads a directory back (a run still in progress included) and
:func:`pool_runs` puts several runs of one match together for one results table.

Files are never rewritten in place: a file that must be rewritten (``match.json``;
``results.jsonl`` when it holds a line cut short by a crash) is written beside the old one,
synced, and renamed over it, so a kill at any moment leaves either the old file or the new.
Lines of ``results.jsonl`` that are not game results are moved, not lost, to
``results-unreadable.txt``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miai.game import Game
from miai.gtp.controller import GtpEngineError
from miai.match.errors import MatchError
from miai.match.referee import EnginePlayer, MatchConfig, Referee
from miai.match.results import GameResult, read_results
from miai.sgf import game_to_sgf
from miai.timesource import SYSTEM_TIME, TimeSource

__all__ = ["POOLED_SETTINGS", "Match", "MatchRun", "load_run", "pool_runs", "replace_file"]

RESULTS = "results.jsonl"
UNREADABLE = "results-unreadable.txt"
SETTINGS = "match.json"


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: into a new file beside it, synced to disk, then
    renamed over it (and the directory synced), so that a kill at any moment leaves either
    the old content or the new one, never a truncated file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    _sync_dir(path.parent)


def _sync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # not every system opens directories
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


class Match:
    """Plays ``config.games`` games into ``out_dir``. With ``resume`` the games already in
    ``results.jsonl`` are kept and skipped. ``on_game_start(index)`` and
    ``on_game_end(result)`` report progress; ``time`` is the referee's time source."""

    def __init__(
        self,
        config: MatchConfig,
        out_dir: str | os.PathLike[str],
        *,
        resume: bool = False,
        time: TimeSource = SYSTEM_TIME,
        on_game_start: Callable[[int], None] | None = None,
        on_game_end: Callable[[GameResult], None] | None = None,
    ):
        self.config = config
        self.out_dir = Path(out_dir)
        self.resume = resume
        self.referee = Referee(config, time=time)
        self.on_game_start = on_game_start
        self.on_game_end = on_game_end
        self.results_path = self.out_dir / RESULTS
        self.results: list[GameResult] = []

    def _prepare(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        settings = self.out_dir / SETTINGS
        mine = self.config.to_json()
        if not self.resume and self.results_path.exists() and self.results_path.stat().st_size:
            raise MatchError(f"{self.out_dir} already holds a match: use --resume to continue it, or another directory")
        if self.resume and settings.exists():
            try:
                theirs = json.loads(settings.read_text(encoding="utf-8"))
            except (ValueError, RecursionError):
                theirs = None
            if isinstance(theirs, dict):
                keys = list(mine) + [k for k in theirs if k not in mine]  # a setting only one of them names differs too
                differ = [k for k in keys if k != "games" and mine.get(k) != theirs.get(k)]
                if differ:
                    raise MatchError(
                        f"{self.out_dir} holds a match with other settings ({', '.join(differ)}): "
                        "resume it with the same settings, or use another directory"
                    )
        replace_file(settings, json.dumps(mine, indent=2) + "\n")
        results, unreadable = read_results(self.results_path) if self.resume else ([], [])
        self.results = results
        if unreadable:
            # keep them, then rewrite the file without them: a line cut short by a crash must
            # not swallow the next result appended after it
            _append(self.out_dir / UNREADABLE, "".join(line + "\n" for line in unreadable))
        if unreadable or not _ends_with_newline(self.results_path):
            replace_file(self.results_path, "".join(r.json_line() for r in results))

    def pending(self) -> list[int]:
        done = {r.index for r in self.results}
        return [i for i in range(self.config.games) if i not in done]

    def run(self) -> list[GameResult]:
        """Play the games still to play; returns every result (resumed ones included), in
        game order. The engines are closed however this ends (an exception, a signal)."""
        try:
            self._prepare()
        except OSError as exc:
            raise MatchError(f"cannot write the match into {self.out_dir}: {exc}") from None
        cfg = self.config
        a, b = (EnginePlayer(spec, timeout=cfg.setup_timeout) for spec in cfg.engines)
        try:
            for player in (a, b):
                self._check(player)
            for index in self.pending():
                if self.on_game_start is not None:
                    self.on_game_start(index)
                black, white = (a, b) if cfg.first_is_black(index) else (b, a)
                for player in (black, white):
                    if player.needs_restart or player.controller is None or not player.controller.alive:
                        self._check(player)
                result, game = self.referee.play_game(index, black, white)
                self._save(result, game)
                if self.on_game_end is not None:
                    self.on_game_end(result)
        finally:
            for player in (a, b):
                player.close()
        return sorted(self.results, key=lambda r: r.index)

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

    def _save(self, result: GameResult, game: Game) -> None:
        """Write the game's SGF, then append its result line. A record that cannot be
        written (a full disk, a bug in the writer) is noted in the result, which is
        appended all the same: the game's result is never lost."""
        result.sgf = f"game-{result.index + 1:03d}.sgf"
        root = [f"miai match, game {result.index + 1}: {result.black} (Black) vs {result.white} (White)"]
        root.append(f"Result {result.result}: {result.reason.value} - {result.detail}")
        if result.opening:
            root.append(f"From the opening {result.opening}")
        root += result.notes
        comments = {0: "\n".join(root)}
        for label, pairs in result.winrates.items():
            for number, rate in pairs:
                comments[int(number)] = f"{label}: win rate {rate:.3f}"
        if result.dead_by_engine:
            lines = [f"{label} lists dead: {' '.join(v) if v else '(none)' if v is not None else '(cannot say)'}"
                     for label, v in result.dead_by_engine.items()]
            last = [comments[game.move_number]] if game.move_number in comments else []
            comments[game.move_number] = "\n".join(last + lines + [f"counted with dead: {' '.join(result.dead) or '(none)'}"])
        try:
            text = game_to_sgf(
                game,
                black=_player_name(result.black, result.black_name),
                white=_player_name(result.white, result.white_name),
                date=_dt.date.today().isoformat(),
                comments=comments,
            )
            (self.out_dir / result.sgf).write_text(text, encoding="utf-8")
        except Exception as exc:  # noqa: BLE001 - the result line below must still be written
            result.notes.append(f"SGF not written: {type(exc).__name__}: {exc}")
            result.sgf = ""
        _append(self.results_path, result.json_line())
        self.results.append(result)


def _ends_with_newline(path: Path) -> bool:
    """Whether the file is empty, missing or ends with a newline (so a line can be appended)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return True
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"
    except FileNotFoundError:
        return True


def _player_name(label: str, name: str) -> str:
    return label if not name or name == label else f"{label} ({name})"


# ---------------------------------------------------------------------- reading and pooling runs
POOLED_SETTINGS = ("size", "rules", "komi", "handicap", "time_control", "dead_stones")
"""The settings that runs must share to be pooled: what their games were played under. They
must also all start from openings, or all from the empty board (the openings themselves may
differ: a set of positions split between runs played side by side)."""


def _start_text(settings: dict[str, Any]) -> str:
    return "from openings" if settings.get("openings") else "from the empty board"


@dataclass(frozen=True, slots=True)
class MatchRun:
    """A directory as :class:`Match` leaves it: its settings (``match.json``) and the games
    it finished (``results.jsonl``), a run still in progress included."""

    out_dir: Path
    settings: dict[str, Any]
    results: list[GameResult]

    @property
    def labels(self) -> tuple[str, str]:
        """Engine A's and engine B's labels."""
        a, b = self.settings["engines"]
        return a["label"], b["label"]


def load_run(out_dir: str | os.PathLike[str]) -> MatchRun:
    """Read a match directory; :class:`MatchError` says why one cannot be read."""
    path = Path(out_dir) / SETTINGS
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MatchError(f"{out_dir} is not a match directory: it has no {SETTINGS}") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise MatchError(f"{path} cannot be read: {exc}") from None
    engines = settings.get("engines") if isinstance(settings, dict) else None
    if not (
        isinstance(engines, list)
        and len(engines) == 2
        and all(isinstance(e, dict) and isinstance(e.get("label"), str) for e in engines)
        and engines[0]["label"] != engines[1]["label"]
    ):
        raise MatchError(f"{path} does not name two engines with different labels")
    return MatchRun(Path(out_dir), settings, read_results(path.with_name(RESULTS))[0])


def pool_runs(runs: Sequence[MatchRun], labels: tuple[str, str] | None = None) -> tuple[tuple[str, str], list[GameResult]]:
    """The games of several runs of one match as one list for
    :func:`~miai.match.stats.summarize`: engine A of every run under ``labels[0]`` and
    engine B under ``labels[1]`` (default: the first run's labels), numbered in run order,
    each result's ``sgf`` pointing into its own directory. A run whose two labels are the
    pooled ones, in either order, is pooled by name: a run played with the engines swapped
    (``--name-a pachi --name-b miai``, so that each engine starts one run as Black) counts
    each engine's games as its own.

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
        if _start_text(run.settings) != _start_text(first.settings):
            raise MatchError(
                f"{run.out_dir} was played {_start_text(run.settings)}, {first.out_dir} {_start_text(first.settings)}"
            )
    a, b = labels if labels is not None else first.labels
    if a == b:
        raise MatchError(f"the two engines need different labels, not both {a!r}")
    pooled: list[GameResult] = []
    for run in runs:
        by_name = set(run.labels) == {a, b}  # no renaming: each engine keeps its own games
        rename = {} if by_name else dict(zip(run.labels, (a, b), strict=True))
        for r in sorted(run.results, key=lambda r: r.index):
            pooled.append(_relabelled(r, rename, len(pooled), run.out_dir))
    return (a, b), pooled


def _relabelled(r: GameResult, rename: dict[str, str], index: int, out_dir: Path) -> GameResult:
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
