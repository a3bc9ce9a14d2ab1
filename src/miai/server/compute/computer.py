"""What a computer seat does, decided in a worker process (see :mod:`miai.server.compute.workers`).

In play, the MCTS player of the seat's level chooses a move or a pass. A worker keeps the
players of its last few games (:data:`KEPT_PLAYERS`, the least recently used let go first),
and with each its search tree: the next move of the same game starts from the subtree its
last search grew under the moves played since, as ``miai gtp`` does, so a level is as strong
here as the levels table measured it over GTP. In the marking phase
the computer answers by its estimate of the dead stones with the rule ``miai play`` and
``miai bot`` follow (:func:`miai.ai.marking.marking_reply`): it accepts a proposal equal to
its estimate, proposes (or counter-proposes) its estimate otherwise, and refuses a
counter-proposal it does not share (play resumes).

The answer is a request body, as a client would send it, so the room applies it through the
same path as a person's action (version check included: an answer for a position that has
changed meanwhile, after a resignation say, is dropped).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from miai.coords import point_to_gtp
from miai.game import GameSpec, Phase
from miai.server.play.events import EventKind, rebuild
from miai.server.wire.forms import vertices

if TYPE_CHECKING:
    from miai.ai.mcts import MctsPlayer

__all__ = ["KEPT_PLAYERS", "computer_action", "kept_player"]

KEPT_PLAYERS = 4
"""Computer players (each with its tree) a worker keeps between moves. A 19×19 tree after a
search of 5 s, the server's longest by default, holds some 180,000 to 270,000 nodes (about
17 MB, and as much again for the copy its next move compacts into)."""

_kept: OrderedDict[tuple[str, int], MctsPlayer] = OrderedDict()


def kept_player(game_id: str, level: int) -> MctsPlayer:
    """The worker's player for the computer seats of level ``level`` in game ``game_id``: the
    one its last move used, or a new one (the least recently used beyond
    :data:`KEPT_PLAYERS` is let go)."""
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import MctsPlayer

    key = (game_id, level)
    player = _kept.pop(key, None) or MctsPlayer(MctsConfig.for_level(level))
    _kept[key] = player
    while len(_kept) > KEPT_PLAYERS:
        _kept.popitem(last=False)
    return player


def computer_action(
    game_id: str, spec: tuple[int, str, int], events: list[tuple[str, dict[str, Any]]], level: int,
    max_seconds: float,
) -> tuple[str, dict[str, Any]]:
    """In a worker: the action (name and body without ``v``) of the seat of game ``game_id``
    whose turn it is, thinking at most ``max_seconds`` about a move."""
    game = rebuild(GameSpec.from_text(*spec), [(EventKind(k), p) for k, p in events])
    marking = game.marking
    if game.phase is Phase.PLAY:
        decision = kept_player(game_id, level).genmove(game, seconds=max_seconds)
        if decision.resign:
            return "resign", {}
        return "play", {"move": point_to_gtp(decision.point)}
    if marking is None:
        raise ValueError("the game is over: a computer has nothing to do")
    from miai.ai.marking import MarkingReply, marking_reply
    from miai.ai.status import estimate_status

    estimate = estimate_status(game)
    reply = marking_reply(marking, estimate.dead)
    if reply is MarkingReply.ACCEPT:
        return "accept", {}
    if reply is MarkingReply.REFUSE:
        return "refuse", {}
    return "dead", {"dead": vertices(estimate.dead), "seki": vertices(estimate.seki)}
