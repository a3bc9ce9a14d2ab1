"""GTP move generation and analysis: ``genmove``, ``reg_genmove``, ``kgs-genmove_cleanup`` and
``lz-analyze``, answered by the MCTS player (:class:`miai.ai.mcts.MctsPlayer`).

:func:`install` registers them on a :class:`~miai.gtp.engine.GtpEngine`; the player is built
on first use from ``engine.ai_config`` (an :class:`~miai.ai.mcts.MctsConfig`, the defaults if
None) and kept, with its search tree, as ``engine.player``. The thinking time comes from the
engine's clocks (``engine.time_control`` and ``engine.time_left``, which ``time_settings``,
``kgs-time_settings`` and ``time_left`` set) through :func:`miai.ai.mcts.move_budget`.

``lz-analyze [COLOR] [INTERVAL]`` (Leela Zero's format, which Sabaki and Lizzie read): the
response starts at once (``=``) and then, every INTERVAL centiseconds, one line of
``info move D4 visits 120 winrate 5230 prior 812 lcb 4970 order 0 pv D4 E5 ...`` entries,
one per candidate (win rate, prior and lcb in ten-thousandths, for the side to move), until
the controller sends its next command, which ends the response with an empty line. The
streaming needs the session loop: the handler leaves a job in ``engine.stream`` and the
session runs it while it waits for input (see :mod:`miai.gtp.session`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from miai.coords import Color, Move, point_to_gtp
from miai.gtp.protocol import GtpError

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.mcts import Candidate, MctsPlayer
    from miai.gtp.engine import GtpEngine

Stream = Callable[[Callable[[str], None], Callable[[], bool]], None]
"""A streaming job: called with ``write(line)`` and ``stopped()``; returns when stopped."""


def install(engine: GtpEngine) -> None:
    """Register the move-generation commands on ``engine``."""
    if not hasattr(engine, "ai_config"):
        engine.ai_config = None
    engine.player = None
    engine.stream = None
    engine.dispatcher.register("genmove", lambda args: genmove(engine, args, commit=True))
    engine.dispatcher.register("reg_genmove", lambda args: genmove(engine, args, commit=False))
    engine.dispatcher.register("kgs-genmove_cleanup", lambda args: genmove(engine, args, commit=True, cleanup=True))
    engine.dispatcher.register("lz-analyze", lambda args: lz_analyze(engine, args))
    board_warm_up = engine.warm_up

    def warm_up() -> None:
        """The board's warm-up, then a tiny search: the session runs this in the background
        after its first reply, so the first genmove does not wait for the compiler."""
        board_warm_up()
        from miai.ai.config import MctsConfig
        from miai.ai.mcts import MctsPlayer
        from miai.game import Game

        MctsPlayer(MctsConfig(playouts=16, max_seconds=None, seed=1)).genmove(Game(5))

    engine.warm_up = warm_up  # type: ignore[method-assign]


def player_of(engine: GtpEngine) -> MctsPlayer:
    """The engine's player, built on first use (and again if the config changed)."""
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import MctsPlayer

    config = engine.ai_config or MctsConfig()
    player = engine.player
    if player is None or player.config != config:
        player = MctsPlayer(config)
        engine.player = player
    return player


def _color_arg(engine: GtpEngine, args: Sequence[str], usage: str) -> Color:
    if len(args) != 1:
        raise GtpError(f"syntax error: expected {usage}")
    try:
        return Color.parse(args[0])
    except ValueError:
        raise GtpError(f"syntax error: invalid color {args[0]!r} (expected black or white)") from None


def genmove(engine: GtpEngine, args: Sequence[str], *, commit: bool, cleanup: bool = False) -> str:
    """``genmove COLOR`` (plays the move), ``reg_genmove COLOR`` (does not),
    ``kgs-genmove_cleanup COLOR`` (plays, and captures dead stones before it passes)."""
    from miai.ai.mcts import move_budget
    from miai.game import Phase

    color = _color_arg(engine, args, "genmove <color>")
    game = engine.game
    if game.phase is Phase.MARKING:
        game.resume()
    if game.phase is Phase.FINISHED:
        raise GtpError(f"the game is over ({game.result})")
    player = player_of(engine)
    seconds = move_budget(engine.time_control, engine.time_left.get(color), game, player.config)
    if cleanup:
        search_game = game.with_rules(game.rules.replace(remove_dead_stones=False))
    else:
        search_game = game
    decision = player.genmove(search_game, color, seconds=seconds)
    engine.log(
        f"miai: {color} {decision.reason}: {'resign' if decision.resign else point_to_gtp(decision.point)} "
        f"winrate {decision.winrate:.3f}, {decision.playouts} playouts in {decision.seconds:.2f} s"
    )
    if decision.resign:
        return "resign"
    if commit:
        game.play(Move(color, decision.point))
    return point_to_gtp(decision.point)


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


def lz_analyze(engine: GtpEngine, args: Sequence[str]) -> str:
    """``lz-analyze [COLOR] [INTERVAL] [other Leela Zero options, ignored]``."""
    game = engine.game
    color = game.to_move
    interval = 1.0
    words = list(args)
    if words:
        try:
            color = Color.parse(words[0])
            words.pop(0)
        except ValueError:
            pass
    if words:
        try:
            interval = max(int(words[0]), 1) / 100.0
        except ValueError:
            if words[0].lower() not in ("interval", "minmoves", "maxmoves", "avoid", "allow"):
                raise GtpError(f"syntax error: bad interval {words[0]!r}") from None
    if len(words) >= 2 and words[0].lower() == "interval":
        try:
            interval = max(int(words[1]), 1) / 100.0
        except ValueError:
            raise GtpError(f"syntax error: bad interval {words[1]!r}") from None
    player = player_of(engine)

    def job(write: Callable[[str], None], stopped: Callable[[], bool]) -> None:
        analyze(player, game, color, write, stopped, interval)

    engine.stream = job
    return ""


def analyze(
    player: Any, game: Any, color: Color, write: Callable[[str], None], stopped: Callable[[], bool], interval: float
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
