"""Last good reply with forgetting (LGRF-2, Baier and Drake 2010): the playouts answer a
move with the reply that won the last playout it was played in, and forget the reply when it
loses.

The table is ``replies[c, before, last]``: ``c``'s reply to the opponent's ``last`` when the
move before it was ``before`` (a point), or ``replies[c, 0, last]`` whatever came before
(LGRF-1); 0 where none is known. A search keeps one table for a game. After each playout,
:func:`learn_replies` reads the iteration's whole sequence (the two moves before the root, the
tree's moves, the playout's): each move of the winner becomes its player's reply to the two
moves before it, and each move of the loser that is the stored reply is forgotten.
:func:`stored_reply` is what the playout policy asks (``P_LGR``), the two-move reply first.
A search with the knob off gets a one-cell table (:func:`new_replies`) that is never read.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.jit import allocating, kernel


@allocating
def new_replies(length: int, enabled: bool) -> np.ndarray:
    """An empty reply table for a board of ``length`` points (padding included), or a
    one-cell stand-in when the replies are not used."""
    if not enabled:
        return np.zeros((3, 1, 1), np.int16)
    return np.zeros((3, length, length), np.int16)


@kernel(inline="always")
def stored_reply(replies: np.ndarray, c: int, last: int, before: int) -> int:
    """``c``'s stored reply to ``last`` after ``before`` (LGRF-2), else to ``last`` alone
    (LGRF-1); 0 if none (or ``last`` was a pass)."""
    if last <= 0:
        return 0
    if before > 0:
        r = replies[c, before, last]
        if r > 0:
            return int(r)
    return int(replies[c, 0, last])


@kernel
def learn_replies(replies: np.ndarray, seq: np.ndarray, n: int, first: int, black_win: float) -> None:
    """Learn from one iteration: ``seq[0]`` and ``seq[1]`` are the two moves before the
    first (0 for a pass or none), ``seq[2:n]`` the moves played, the first by ``first``.
    The winner's moves become its replies; the loser's stored replies that it played and
    lost with are forgotten. A tie teaches nothing."""
    if black_win == 0.5:
        return
    winner = 1 if black_win > 0.5 else 2
    c = first
    for i in range(2, n):
        mv = seq[i]
        last = seq[i - 1]
        before = seq[i - 2]
        if mv > 0 and last > 0:
            if c == winner:
                replies[c, 0, last] = mv
                if before > 0:
                    replies[c, before, last] = mv
            else:
                if replies[c, 0, last] == mv:
                    replies[c, 0, last] = 0
                if before > 0 and replies[c, before, last] == mv:
                    replies[c, before, last] = 0
        c = 3 - c
