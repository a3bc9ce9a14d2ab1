"""Matches between two GTP engines, judged by miai's rules (``miai match``).

Reading guide, one module per concern:

* :mod:`miai.match.referee`: :class:`EngineSpec` and :class:`EnginePlayer` (an engine and
  its running process), :class:`MatchConfig` (what to play, every setting checked) and
  :class:`Referee`, which plays one game: every ``genmove`` answer is played into a
  :class:`~miai.game.Game`, the clocks are a :class:`~miai.clock.Clock`, and an engine that
  fails forfeits with the reason recorded.
* :mod:`miai.match.openings`: :class:`Opening`, the moves a game starts from (read from
  an SGF record), each played twice with the colours swapped.
* :mod:`miai.match.results`: :class:`GameResult`, the result of one game (a
  :class:`~miai.result.Result` and the referee's finer :class:`Reason`), and
  ``results.jsonl``, read without ever failing on a bad line.
* :mod:`miai.match.runs`: :class:`Match` plays a run into a directory (one SGF per game, a
  result line synced as each game ends, resumable; files replaced atomically);
  :func:`load_run` and :func:`pool_runs` read runs back and pool them.
* :mod:`miai.match.stats`: :func:`summarize` and :func:`format_summary`, the results table
  (wins by colour, the win rate with its Wilson interval, the Elo difference).
* :mod:`miai.match.winrates`: an engine's own win rate for its move, read from its stderr
  (kept per move in the results and the records).

The engines themselves are driven by :class:`miai.gtp.controller.GtpController`, the client
side of GTP, which stays in :mod:`miai.gtp` beside the serving side: other programs (the GNU
Go differential tests, the benchmarks) drive engines with it too.
"""

from __future__ import annotations

from miai.match.errors import MatchConfigError, MatchError, ResultLineError
from miai.match.openings import Opening, load_openings, opening_files
from miai.match.referee import DeadStones, EnginePlayer, EngineSpec, MatchConfig, Referee
from miai.match.results import GameResult, Reason, load_results, read_results
from miai.match.runs import POOLED_SETTINGS, Match, MatchRun, load_run, pool_runs
from miai.match.stats import MatchSummary, elo_difference, format_summary, summarize, wilson_interval

__all__ = [
    "POOLED_SETTINGS",
    "DeadStones",
    "EnginePlayer",
    "EngineSpec",
    "GameResult",
    "Match",
    "MatchConfig",
    "MatchConfigError",
    "MatchError",
    "MatchRun",
    "MatchSummary",
    "Opening",
    "Reason",
    "Referee",
    "ResultLineError",
    "elo_difference",
    "format_summary",
    "load_results",
    "load_openings",
    "load_run",
    "opening_files",
    "pool_runs",
    "read_results",
    "summarize",
    "wilson_interval",
]
