"""What a computer seat does, decided in a worker process (see :mod:`miai.server.compute.workers`).

In play, the MCTS player of the seat's level chooses a move or a pass. In the marking phase
the computer answers by its estimate of the dead stones with the rule ``miai play`` and
``miai bot`` follow (:func:`miai.ai.marking.marking_reply`): it accepts a proposal equal to
its estimate, proposes (or counter-proposes) its estimate otherwise, and refuses a
counter-proposal it does not share (play resumes).

The answer is a request body, as a client would send it, so the room applies it through the
same path as a person's action (version check included: an answer for a position that has
changed meanwhile, after a resignation say, is dropped).
"""

from __future__ import annotations

from typing import Any

from miai.game import GameSpec
from miai.server.play.events import EventKind, rebuild
from miai.server.wire.forms import vertices

__all__ = ["computer_action"]

def computer_action(
    spec: tuple[int, str, int], events: list[tuple[str, dict[str, Any]]], level: int, max_seconds: float
) -> tuple[str, dict[str, Any]]:
    """In a worker: the action (name and body without ``v``) of the seat whose turn it is."""
    from miai.game import Phase

    game = rebuild(GameSpec.from_text(*spec), [(EventKind(k), p) for k, p in events])
    marking = game.marking
    if game.phase is Phase.PLAY:
        from miai.ai.config import MctsConfig
        from miai.ai.mcts import MctsPlayer
        from miai.coords import point_to_gtp

        player = MctsPlayer(MctsConfig.for_level(level, max_seconds=max_seconds))
        decision = player.genmove(game)
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
