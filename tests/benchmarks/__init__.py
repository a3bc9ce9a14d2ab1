"""Tests of the scripts in ``benchmarks/`` (not a package: each is loaded by its path)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def bench_script(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` as a module (registered as ``NAME``, so that
    processes it forks and pickling find it)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
