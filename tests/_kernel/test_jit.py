"""The kernel's two compilers (``miai._kernel.jit``): a function compiled without numba's
runtime counts no references, so it must never hold an array that it did not receive: it
neither returns one nor gets a new one from a call (that array would never be freed, or be
freed twice)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
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
    """Whether a type hint is an array or a tuple holding one."""
    if annotation is np.ndarray:
        return True
    return any(holds_an_array(arg) for arg in typing.get_args(annotation))


def returns_an_array(dispatcher: typing.Any) -> bool:
    return holds_an_array(typing.get_type_hints(dispatcher.py_func).get("return"))


def called_dispatchers(dispatcher: typing.Any) -> set[str]:
    """The compiled functions that ``dispatcher`` calls by name."""
    names = set()
    for node in ast.walk(ast.parse(inspect.getsource(dispatcher.py_func))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = dispatcher.py_func.__globals__.get(node.func.id)
            if hasattr(callee, "targetoptions"):
                names.add(node.func.id)
    return names


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
    for callee_name in called_dispatchers(dispatcher):
        callee = dispatcher.py_func.__globals__[callee_name]
        assert not returns_an_array(callee), f"{name} gets an array from {callee_name}"
