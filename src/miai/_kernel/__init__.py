"""The compiled core (numba): one board implementation for the Game, GTP, the AI and the server.

See ``board.py`` for the data layout. Three playout policies, by weight: ``playout.py``
(uniform random moves: the benchmark), ``light.py`` (a few answers to the last move: the
status estimate's ownership) and ``heavy.py`` (atari heuristics and 3×3 patterns: the
search's playouts, run from the tree of ``tree.py``).

Compiled functions are cached on disk (``cache=True``). Numba checks a cached function
against its own file only, so code inlined from another kernel file could go stale after an
edit; :func:`_drop_stale_cache` clears the kernel's cache whenever any kernel file changes.
"""

import hashlib
from pathlib import Path


def _drop_stale_cache() -> None:
    here = Path(__file__).parent
    digest = hashlib.sha1()
    for source in sorted(here.glob("*.py")):
        digest.update(source.read_bytes())
    cache = here / "__pycache__"
    stamp = cache / "kernel-sources.sha1"
    try:
        if stamp.read_text() == digest.hexdigest():
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass  # a read-only install: numba then caches elsewhere or not at all


_drop_stale_cache()

from miai._kernel.board import (  # noqa: E402
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
from miai._kernel.consistency import check_consistency  # noqa: E402
from miai._kernel.playout import choose_random_move, playout, run_playouts  # noqa: E402

__all__ = [
    "BLACK", "EMPTY", "KO", "LEGAL", "OCCUPIED", "SUICIDE", "WALL", "WHITE",
    "area_difference", "check_consistency", "choose_random_move", "hash_after", "is_own_eye",
    "legal_mask", "legality", "new_board", "pass_turn", "play_stone", "playout",
    "rebuild_chains", "region_owners", "run_playouts", "set_point",
]
