"""The kernel's two compilers (``miai._kernel.jit``): a function compiled without numba's
runtime counts no references, so it must never hold an array that it did not receive: it
neither returns one nor gets a new one from a call (that array would never be freed, or be
freed twice). Numba refuses to compile an allocation there; these tests hold the calls and
the returns, and count the runtime's allocations and frees over real searches."""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import typing

import numpy as np
import pytest

import miai._kernel as kernel_package


def compiled_functions() -> list[tuple[str, typing.Any]]:
    """Every compiled function defined in the kernel's modules, by qualified name."""
    found = []
    for info in pkgutil.iter_modules(kernel_package.__path__):
        module = importlib.import_module(f"miai._kernel.{info.name}")
        for name, value in vars(module).items():
            if hasattr(value, "targetoptions") and value.__module__ == module.__name__:
                found.append((f"{info.name}.{name}", value))
    return found


def without_runtime(dispatcher: typing.Any) -> bool:
    return dispatcher.targetoptions.get("_nrt") is False


def holds_an_array(annotation: typing.Any) -> bool:
    """Whether a type hint is an array (``np.ndarray``, ``npt.NDArray[...]``) or a tuple
    holding one."""
    if annotation is np.ndarray or typing.get_origin(annotation) is np.ndarray:
        return True
    return any(holds_an_array(arg) for arg in typing.get_args(annotation))


def returns_an_array(dispatcher: typing.Any) -> bool:
    hints = typing.get_type_hints(dispatcher.py_func)
    assert "return" in hints, f"{dispatcher.py_func.__qualname__} has no return type hint"
    return holds_an_array(hints["return"])


def called_dispatchers(dispatcher: typing.Any) -> dict[str, typing.Any]:
    """The compiled functions that ``dispatcher`` calls, by name or through a module."""
    found = {}
    namespace = dispatcher.py_func.__globals__
    for node in ast.walk(ast.parse(inspect.getsource(dispatcher.py_func))):
        if not isinstance(node, ast.Call):
            continue
        callee = None
        if isinstance(node.func, ast.Name):
            callee = namespace.get(node.func.id)
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            callee = getattr(namespace.get(node.func.value.id), node.func.attr, None)
        if hasattr(callee, "targetoptions"):
            found[ast.unparse(node.func)] = callee
    return found


FUNCTIONS = compiled_functions()


def test_every_kernel_function_says_whether_it_uses_the_runtime():
    assert len(FUNCTIONS) > 100
    for name, dispatcher in FUNCTIONS:
        assert dispatcher.targetoptions.get("_nrt") in (True, False), name


def test_the_playouts_hot_functions_count_no_references():
    hot = {"board.play_stone", "board._merge", "heavy.heavy_move", "heavy.self_atari", "heavy.pattern_moves",
           "tactics.liberties_after", "twolib.two_liberty_moves", "tree.select_child", "tree.descend"}
    assert all(without_runtime(d) for name, d in FUNCTIONS if name in hot)
    assert hot <= {name for name, _ in FUNCTIONS}


@pytest.mark.parametrize("name,dispatcher", [f for f in FUNCTIONS if without_runtime(f[1])], ids=lambda v: v if isinstance(v, str) else "")
def test_a_function_without_the_runtime_gets_no_new_array(name, dispatcher):
    assert not returns_an_array(dispatcher), f"{name} returns an array"
    for callee_name, callee in called_dispatchers(dispatcher).items():
        assert not returns_an_array(callee), f"{name} gets an array from {callee_name}"


SEARCHES = """
import gc
from numba.core.runtime import rtsys
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.rules import Rules
from miai.testing.positions import random_position

def searches():
    for size, moves in ((9, 30), (19, 120)):
        game = random_position(size, Rules.preset("chinese"), 5, moves)
        MctsPlayer(MctsConfig(playouts=300, max_seconds=None, seed=1)).search(game)

searches()  # compiled or loaded, and whatever is kept for good made
gc.collect()
before = rtsys.get_allocation_stats()
searches()
gc.collect()
after = rtsys.get_allocation_stats()
print(after.alloc - before.alloc, after.free - before.free, after.mi_alloc - before.mi_alloc,
      after.mi_free - before.mi_free)
"""


def test_searches_free_every_array_the_runtime_made():
    """Searches on 9×9 and 19×19 (captures, ladders, races, the seki reading's refusals)
    make thousands of arrays in compiled code; every one is freed."""
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    out = subprocess.run([sys.executable, "-c", SEARCHES], env=env, capture_output=True, text=True, check=True)
    allocated, freed, infos_made, infos_freed = map(int, out.stdout.split())
    assert allocated > 1000
    assert (freed, infos_made, infos_freed) == (allocated, allocated, allocated)
