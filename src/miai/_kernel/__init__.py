"""The compiled core (numba): one board implementation for the Game, GTP, the AI and the server.

See ``board.py`` for the data layout and ``playout.py`` for random playouts.
"""

from miai._kernel.board import (
    BLACK,
    EMPTY,
    KO,
    LEGAL,
    OCCUPIED,
    SUICIDE,
    WALL,
    WHITE,
    area_difference,
    hash_after,
    is_own_eye,
    legal_mask,
    legality,
    new_board,
    pass_turn,
    play_stone,
    rebuild_chains,
    region_owners,
    set_point,
)
from miai._kernel.consistency import check_consistency
from miai._kernel.playout import choose_random_move, playout, run_playouts

__all__ = [
    "BLACK", "EMPTY", "KO", "LEGAL", "OCCUPIED", "SUICIDE", "WALL", "WHITE",
    "area_difference", "check_consistency", "choose_random_move", "hash_after", "is_own_eye",
    "legal_mask", "legality", "new_board", "pass_turn", "play_stone", "playout",
    "rebuild_chains", "region_owners", "run_playouts", "set_point",
]
