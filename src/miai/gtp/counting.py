"""The end of the game over GTP: ``final_score``, ``final_status_list``, ``final_status``
and ``estimate_score``.

A finished game answers from its result and its agreed dead stones. Otherwise the answers
come from miai's estimate of the dead and seki stones (:func:`miai.ai.status.
estimate_status`), seeded so that the same position gives the same answer; GNU Go's
optional seed argument (``final_score 3``, ``final_status_list dead 3``, ``final_status
D4 3``, which some controllers send) chooses another seed. Under rules that count the
stones as they stand (Tromp-Taylor, simple) ``final_score`` and the territory lists count
the position as it is.

Formats are GNU Go's: ``final_status_list alive|dead|seki`` one chain per line,
``final_status_list black_territory|white_territory|dame`` one line top row first,
``final_status VERTEX`` one of ``alive dead seki black_territory white_territory dame``,
``estimate_score`` ``W+2.5 (upper bound: 2.5, lower: 2.5)`` where the bounds are White's
lead (negative when Black leads; a tie is ``W+0.0``, as GNU Go writes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from miai.coords import Color, Point
from miai.errors import MiaiError
from miai.game import Phase
from miai.gtp import words
from miai.gtp.protocol import GtpError, Handler, bound
from miai.gtp.state import GtpState
from miai.result import Termination

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.status import StatusEstimate
    from miai.scoring import Score

AREAS: dict[str, Color | None] = {"black_territory": Color.BLACK, "white_territory": Color.WHITE, "dame": None}
STATUSES = ("alive", "dead", "seki")


def commands(state: GtpState) -> list[tuple[str, Handler]]:
    """The handlers of this module, bound to ``state`` (the engine), for its dispatcher."""
    return bound(state, final_score, final_status_list, final_status, estimate_score)


def final_score(state: GtpState, args: Sequence[str]) -> str:
    """``final_score [SEED]``: ``B+3.5``, ``W+1``, ``0``.

    A finished game answers its result (a void game ``0``: GTP has no other word for no
    result); otherwise the count of the position as the module docstring says.
    """
    seed = words.optional_seed(args, "final_score [<random seed>]")

    game = state.game
    if game.phase is Phase.FINISHED and game.result is not None:
        result = game.result
        return "0" if result.by is Termination.VOID else str(result)
    try:
        if not game.rules.remove_dead_stones:
            return str(game.score().result)
        return str(estimate(state, seed).score.result)
    except MiaiError as exc:
        raise GtpError(f"cannot score: {exc}") from None


def estimate(state: GtpState, seed: int = words.DEFAULT_SEED) -> StatusEstimate:
    """miai's estimate of the status of every chain of the current position."""
    from miai.ai.status import estimate_status

    return estimate_status(state.game, seed=seed)


def final_status_list(state: GtpState, args: Sequence[str]) -> str:
    """``final_status_list alive|dead|seki [SEED]``: the stones with that status, one chain
    per line (as GNU Go, in the order of the chains' first stones; every list top row
    first); after a game ended by agreement, ``dead`` lists the agreed dead stones.

    ``final_status_list black_territory|white_territory|dame [SEED]``: the points that count
    as Black's or White's territory, or for nobody: empty points and the points of dead
    stones, counted under the game's rules as ``final_score`` counts them (seki points are
    dame under territory scoring; under area scoring an eye of a seki group is its owner's).
    """
    usage = "final_status_list alive|dead|seki|black_territory|white_territory|dame [<random seed>]"
    if not args:
        raise GtpError(f"syntax error: expected {usage}")
    wanted = args[0].lower()
    seed = words.optional_seed(args[1:], usage)
    if wanted in AREAS:
        score = _score(state, seed)
        return words.gtp_vertices(p for p, owner in _owners(state, score).items() if owner is AREAS[wanted])
    if wanted not in STATUSES:
        raise GtpError(f"syntax error: expected {usage}")
    return "\n".join(words.gtp_vertices(stones) for stones, status in _statuses(state, seed) if status == wanted)


def final_status(state: GtpState, args: Sequence[str]) -> str:
    """``final_status VERTEX [SEED]``: ``alive``, ``dead`` or ``seki`` for a stone (as
    ``final_status_list`` lists it); ``black_territory``, ``white_territory`` or ``dame``
    for an empty point."""
    usage = "final_status <vertex> [<random seed>]"
    if not args:
        raise GtpError(f"syntax error: expected {usage}")
    point = words.board_vertex(args[0], state.size)
    seed = words.optional_seed(args[1:], usage)
    game = state.game
    if game.board[point] is not None:
        for stones, status in _statuses(state, seed):
            if point in stones:
                return status
    owner = _owners(state, _score(state, seed)).get(point)
    return next(name for name, color in AREAS.items() if color is owner)


def estimate_score(state: GtpState, args: Sequence[str]) -> str:
    """``estimate_score [SEED]``: the count of the position with the dead stones miai
    estimates removed, in GNU Go's words."""
    seed = words.optional_seed(args, "estimate_score [<random seed>]")
    try:
        margin = estimate(state, seed).score.margin
    except MiaiError as exc:
        raise GtpError(f"cannot score: {exc}") from None
    white_lead = -margin + 0.0  # + 0.0: no "-0.0"
    leader = "W" if white_lead >= 0 else "B"
    return f"{leader}+{abs(white_lead):.1f} (upper bound: {white_lead:.1f}, lower: {white_lead:.1f})"


# ---------------------------------------------------------------------- helpers
def _statuses(state: GtpState, seed: int) -> list[tuple[frozenset[Point], str]]:
    """Every chain with its status, in GNU Go's order (top row first, left to right, by the
    chain's first stone); after a game ended by agreement, the agreed dead stones are dead
    and the others not."""
    est = estimate(state, seed)
    final = state.game.final_score
    agreed = final.dead_stones if final is not None and final.dead_stones else None
    chains = []
    for chain in sorted(est.chains, key=lambda ch: min((-r, c) for r, c in ch.stones)):
        status: str = chain.status
        if agreed is not None:
            status = "dead" if chain.stones <= agreed else ("alive" if status == "dead" else status)
        chains.append((chain.stones, status))
    return chains


def _score(state: GtpState, seed: int) -> Score:
    """The count the territory answers come from: the agreed one of a finished game, the
    position as it stands under rules that keep dead stones, else the estimate's."""
    game = state.game
    final = game.final_score
    try:
        if final is not None and final.owners:
            return final
        if not game.rules.remove_dead_stones:
            return game.score()
        return estimate(state, seed).score
    except MiaiError as exc:
        raise GtpError(f"cannot score: {exc}") from None


def _owners(state: GtpState, score: Score) -> dict[Point, Color | None]:
    """Whom each empty point and each point of a dead stone counts for."""
    board = state.game.board
    owners: dict[Point, Color | None] = {}
    for r in range(board.size):
        for c in range(board.size):
            if board[(r, c)] is not None and (r, c) not in score.dead_stones:
                continue
            v = score.owners[r][c]
            owners[(r, c)] = Color(v) if v else None
    return owners
