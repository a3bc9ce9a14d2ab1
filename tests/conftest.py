"""Collection settings and the compiled engine.

The test command also runs the package's doctests (``--doctest-modules``), which must not
import the data files and engine scripts kept here.

Hypothesis runs without its per-example deadline: the tests check what happens, not how fast
(speed is measured in benchmarks/), and on a busy machine a first example that compiles or
warms a cache can take over the default 200 ms and fail a property that holds.

A ``miai gtp`` started on a cold numba cache compiles the search for over three minutes
before its first move, so the tests that time engines they start ask for
:func:`compiled_engine`, and the session starts compiling it in the background at once."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("miai", deadline=None)
settings.load_profile("miai")

collect_ignore_glob = ["data/*"]

SRC = Path(__file__).resolve().parents[1] / "src"
WARM_UP = """
import fcntl, subprocess, sys
with open(sys.argv[1], "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    subprocess.run([sys.executable, "-m", "miai", "gtp", "--level", "1", "--size", "5", "--no-warm-up"],
                   input="genmove b\\nfinal_status_list dead\\nquit\\n", capture_output=True, text=True,
                   timeout=float(sys.argv[2]), check=True)
"""
"""Compile (or load from the cache) what an engine's game needs, holding the lock: a genmove
and the dead stones, on the smallest board (numba's machine code does not depend on the size)."""
WARM_UP_S = 900.0
_BACKGROUND = pytest.StashKey[subprocess.Popen[bytes]]()


def _lock_path() -> Path:
    """One lock per checkout, shared by the session's processes (xdist's workers included)."""
    tag = hashlib.sha256(str(SRC).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"miai-compiled-engine-{tag}.lock"


def _warm_up() -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-c", WARM_UP, str(_lock_path()), str(WARM_UP_S)]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """The main process (not an xdist worker) starts compiling the engine while tests run."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_BACKGROUND] = _warm_up()


def pytest_sessionfinish(session: pytest.Session) -> None:
    background = session.config.stash.get(_BACKGROUND, None)
    if background is not None and background.poll() is None:  # the engine too: its whole group
        os.killpg(background.pid, signal.SIGKILL)
        background.wait()


@pytest.fixture(scope="session")
def compiled_engine() -> None:
    """``miai gtp``'s search compiled into numba's disk cache: waits for the background
    compilation (or does it, if this process gets the lock first). Tests that use it time
    only their own function (``pytest.mark.timeout(..., func_only=True)``)."""
    done = _warm_up()
    _, err = done.communicate(timeout=WARM_UP_S + 60)
    assert done.returncode == 0, f"the engine did not compile: {err.decode(errors='replace')[-2000:]}"
