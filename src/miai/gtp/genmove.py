"""The computer player over GTP: ``genmove``, ``reg_genmove``, ``kgs-genmove_cleanup``,
``lz-analyze``, GNU Go's ``top_moves_black``/``top_moves_white`` and ``level``.

:func:`commands` gives the handlers, which the :class:`~miai.gtp.engine.GtpEngine`
registers; they find everything they need on the engine's :class:`~miai.gtp.state.GtpState`:
the player (:attr:`~miai.gtp.state.GtpState.player`, a :class:`miai.ai.mcts.MctsPlayer` built
on first use from :attr:`~miai.gtp.state.GtpState.ai_config`, the defaults if None, and
kept with its search tree while the configuration stays the same), the clocks
(``state.time_control`` and ``state.time_left``, which ``time_settings``/``kgs-time_settings``/``time_left`` set, through
:func:`miai.ai.mcts.move_budget`) and the slot for a streaming job. The search is imported
when a command needs it, so that the engine answers ``name`` before the kernel loads.

``lz-analyze [COLOR] [INTERVAL]`` (Leela Zero's format, which Sabaki and Lizzie read): the
response starts at once (``=``) and then, every INTERVAL centiseconds, one line of
``info move D4 visits 120 winrate 5230 prior 812 lcb 4970 order 0 pv D4 E5 ...`` entries,
one per candidate (win rate, prior and lcb in ten-thousandths, for the side to move), until
the controller sends its next command, which ends the response with an empty line. The
streaming needs the session loop: the handler leaves a job in ``state.stream`` and the
session runs it while it waits for input (see :mod:`miai.gtp.session`).

``top_moves_black`` / ``top_moves_white`` (GNU Go's, which GoGui and Kigo's hints use):
a search as for ``genmove`` that plays nothing, answered as GNU Go does, vertex and value
pairs on one line, best first (``E5 54.20 D4 51.37``); the value is miai's win rate for
that colour in percent (GNU Go gives its own move values there), at most 10 moves, no pass.

``level N``: the strength of the moves to come, 1 (a few playouts) to 10 (the full budget),
as ``miai gtp --level`` sets it; the other knobs stay as they were.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from miai.ai.config import MctsConfig, level_knobs
from miai.coords import Color, Move, point_to_gtp
from miai.game import Game, Phase
from miai.gtp import words
from miai.gtp.protocol import GtpError, Handler
from miai.gtp.state import GtpState

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.mcts import Candidate, MctsPlayer

TOP_MOVES = 10
"""How many moves ``top_moves_black``/``top_moves_white`` list at most (as GNU Go)."""

LEVELS = range(1, 11)


def commands(state: GtpState) -> list[tuple[str, Handler]]:
    """The handlers of this module, bound to ``state`` (the engine), for its dispatcher."""
    return [
        ("genmove", lambda args: genmove(state, args, commit=True)),
        ("reg_genmove", lambda args: genmove(state, args, commit=False)),
        ("kgs-genmove_cleanup", lambda args: genmove(state, args, commit=True, cleanup=True)),
        ("lz-analyze", lambda args: lz_analyze(state, args)),
        ("top_moves_black", lambda args: top_moves(state, args, Color.BLACK)),
        ("top_moves_white", lambda args: top_moves(state, args, Color.WHITE)),
        ("level", lambda args: level(state, args)),
    ]


def warm_up() -> None:
    """A tiny search on a small board, so that the first ``genmove`` does not wait for the
    compiler (:meth:`GtpEngine.warm_up <miai.gtp.engine.GtpEngine.warm_up>` calls it)."""
    from miai.ai.mcts import MctsPlayer

    MctsPlayer(MctsConfig(playouts=16, max_seconds=None, seed=1)).genmove(Game(5))


def player_of(state: GtpState) -> MctsPlayer:
    """The engine's player, built on first use (and again if the config changed, keeping
    what the dynamic komi remembers of the game)."""
    from miai.ai.mcts import MctsPlayer

    config = config_of(state)
    player = state.player
    if player is None or player.config != config:
        rebuilt = MctsPlayer(config)
        if player is not None:
            rebuilt.komi_memory = player.komi_memory
        player = state.player = rebuilt
    return player


def config_of(state: GtpState) -> MctsConfig:
    """The engine's player configuration (the defaults when it has none), resigning as the
    engine's policy and the announced clock say."""
    config = state.ai_config or MctsConfig()
    resign = state.resigning.resigns(state.time_control, configured=config.resign)
    return config if resign == config.resign else dataclasses.replace(config, resign=resign)


def _color_arg(state: GtpState, args: Sequence[str], usage: str) -> Color:
    words.expect(args, 1, usage)
    return words.color(args[0])


def _game_to_search(state: GtpState) -> Game:
    """The game, resumed if two passes ended play (a move after them resumes it); refused
    once it is over."""

    game = state.game
    if game.phase is Phase.MARKING:
        game.resume()
    if game.phase is Phase.FINISHED:
        raise GtpError(f"the game is over ({game.result})")
    return game


def genmove(state: GtpState, args: Sequence[str], *, commit: bool, cleanup: bool = False) -> str:
    """``genmove COLOR`` (plays the move), ``reg_genmove COLOR`` (does not),
    ``kgs-genmove_cleanup COLOR`` (plays, and captures dead stones before it passes)."""
    from miai.ai.mcts import budget_is_lost, move_budget

    color = _color_arg(state, args, "genmove <color>")
    game = _game_to_search(state)
    player = player_of(state)
    left = state.time_left.get(color)
    seconds = move_budget(state.time_control, left, game, player.config)
    if cleanup:
        search_game = game.with_rules(game.rules.replace(remove_dead_stones=False))
    else:
        search_game = game
    decision = player.genmove(search_game, color, seconds=seconds,
                              spend_rest=budget_is_lost(state.time_control, left))
    state.log(
        f"miai: {color} {decision.reason}: {'resign' if decision.resign else point_to_gtp(decision.point)} "
        f"winrate {decision.winrate:.3f}, {decision.playouts} playouts in {decision.seconds:.2f} s"
        + (f", extra komi {decision.extra_komi}" if decision.extra_komi else "")
    )
    if decision.resign:
        return "resign"
    if commit:
        game.play(Move(color, decision.point))
    return point_to_gtp(decision.point)


def top_moves(state: GtpState, args: Sequence[str], color: Color) -> str:
    """``top_moves_black`` / ``top_moves_white``: the best moves for that colour with
    their win rates (see the module docstring); nothing once the game is over."""
    from miai.ai.mcts import move_budget

    words.expect(args, 0, "no arguments")
    game = state.game
    if game.phase is Phase.FINISHED:
        return ""
    if game.phase is Phase.MARKING:
        game = game.copy()
        game.resume()
    player = player_of(state)
    seconds = move_budget(state.time_control, state.time_left.get(color), game, player.config)
    searched = player.search(game, color, seconds=seconds)
    best = [c for c in searched.candidates if c.point is not None and c.visits > 0][:TOP_MOVES]
    return " ".join(f"{point_to_gtp(c.point)} {100 * c.winrate:.2f}" for c in best)


def level(state: GtpState, args: Sequence[str]) -> str:
    """``level N``: the strength of the moves to come, 1 to 10."""

    words.expect(args, 1, "level <1 to 10>")
    n = words.integer(args[0], "the level", low=LEVELS.start, high=LEVELS.stop - 1)
    state.ai_config = dataclasses.replace(state.ai_config or MctsConfig(), **level_knobs(n))
    return ""


def info_line(candidates: Sequence[Candidate], limit: int = 10) -> str:
    """One ``lz-analyze`` output line for these candidates (most visited first)."""
    parts = []
    for order, cand in enumerate(candidates[:limit]):
        pv = " ".join(point_to_gtp(p) for p in cand.pv) or point_to_gtp(cand.point)
        parts.append(
            f"info move {point_to_gtp(cand.point)} visits {cand.visits} winrate {round(cand.winrate * 10000)} "
            f"prior {round(cand.prior * 10000)} lcb {round(cand.lcb * 10000)} order {order} pv {pv}"
        )
    return " ".join(parts)


_LZ_KEYWORDS = ("interval", "minmoves", "maxmoves", "avoid", "allow")


def lz_analyze(state: GtpState, args: Sequence[str]) -> str:
    """``lz-analyze [COLOR] [INTERVAL] [other Leela Zero options, ignored]``."""
    game = state.game
    color = game.to_move
    interval = 1.0
    rest = list(args)
    if rest and rest[0].lower() in ("b", "black", "w", "white"):
        color = words.color(rest.pop(0))
    if rest and rest[0].lower() == "interval":
        rest.pop(0)
        if not rest:
            raise GtpError("syntax error: expected an interval after 'interval'")
    if rest and rest[0].lower() not in _LZ_KEYWORDS:
        interval = words.integer(rest[0], "the interval (centiseconds)", low=0, high=360_000) / 100.0
        interval = max(interval, 0.01)
    player = player_of(state)

    def job(write: Callable[[str], None], stopped: Callable[[], bool]) -> None:
        analyze(player, game, color, write, stopped, interval)

    state.stream = job
    return ""


def analyze(
    player: MctsPlayer,
    game: Game,
    color: Color,
    write: Callable[[str], None],
    stopped: Callable[[], bool],
    interval: float,
) -> None:
    """Search until ``stopped()``, writing an info line every ``interval`` seconds."""
    next_report = time.monotonic() + interval
    copy = game.copy()  # the controller's next command may change the game
    while not stopped():
        player.search(copy, color, seconds=interval, playouts=10**9, stop=stopped)
        now = time.monotonic()
        if now >= next_report and not stopped():
            line = info_line(player.candidates(copy))
            if line:
                write(line)
            next_report = now + interval
