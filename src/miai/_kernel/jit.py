"""The kernel's two compilers: ``kernel`` for the functions that only read and write the
arrays they are given, ``allocating`` for the few that make or return arrays.

Numba counts references to every array a compiled function receives, with an atomic
increment and decrement per array and per call. In the playouts, where small functions are
called tens of times a turn, those atomic operations took most of the time (BENCHMARKS.md,
"Numba's reference counts"), so ``kernel`` compiles without numba's runtime
(``_nrt=False``): no counting, and no allocation either, which such a function does not
need. ``allocating`` keeps the runtime. The flag is set on every function because numba
otherwise inherits it from the caller. Both cache the machine code on disk (``cache=True``).
"""

from __future__ import annotations

from typing import Any

from numba import njit


def _compiler(runtime: bool, fn: Any, options: dict[str, Any]) -> Any:
    jit: Any = njit  # ``_nrt`` is numba's own option, not in its type stubs
    compile_ = jit(cache=True, _nrt=runtime, **options)
    return compile_ if fn is None else compile_(fn)


def kernel(fn: Any = None, **options: Any) -> Any:
    """Compile ``fn`` without numba's runtime: it reads and writes arrays it is given, and
    neither makes an array nor keeps one (``@kernel`` or ``@kernel(inline="always")``)."""
    return _compiler(False, fn, options)


def allocating(fn: Any = None, **options: Any) -> Any:
    """Compile ``fn`` with numba's runtime, for a function that makes, slices into place or
    returns arrays (``@allocating`` or ``@allocating(nogil=True)``)."""
    return _compiler(True, fn, options)
