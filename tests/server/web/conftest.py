"""Browser tests of the page: ``miai serve`` as a subprocess on a free port with a temporary
SQLite file, driven by Debian's Chromium through Playwright (pinned in the test extras; the
browser is the system's ``/usr/bin/chromium``, never a downloaded one). Skipped where either
is missing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
SRC = Path(__file__).resolve().parents[3] / "src"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]

try:
    from playwright import sync_api
except ImportError:  # pragma: no cover - the test extras pin it
    sync_api = None


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory, compiled_engine: None) -> Iterator[str]:
    """A ``miai serve`` of its own for the browser tests, on a free port, started once the
    engine is compiled: on a cold numba cache the computer's first reply would otherwise wait
    minutes behind the compilation and outlast the tests' timeouts."""
    folder = tmp_path_factory.mktemp("web")
    env = {
        **os.environ,
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "MIAI_SECRET": "browser-tests-secret-0123456789abcdef",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "miai", "serve", "--port", "0", "--database", f"sqlite:///{folder / 'web.db'}",
         "--no-rate-limits"],  # every browser of every test comes from 127.0.0.1 (the limits have their own tests)
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=folder,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("miai serve: http://"), line
    try:
        yield line.split()[2].rstrip("/")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module: Playwright's sync API keeps an event loop running in
    this thread while it is started, so it is stopped after each module, and tests after the
    browser tests can run ``asyncio.run`` (a launch costs about a second)."""
    if sync_api is None or not os.path.exists(CHROMIUM):  # pragma: no cover - CI installs both (.ci/run)
        pytest.skip("the browser tests need Playwright (test extras) and Chromium at /usr/bin/chromium")
    sync_api.expect.set_options(timeout=15_000)  # as the contexts' actions: a busy machine is slower
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Any]:
    """Make browser contexts (each its own cookies and storage), closed after the test."""
    made: list[Any] = []

    def make(locale: str = "en-US", **kw: Any) -> Any:
        kw.setdefault("viewport", {"width": 1280, "height": 800})
        context = browser.new_context(locale=locale, **kw)
        context.set_default_timeout(15_000)
        made.append(context)
        return context

    yield make
    for c in made:
        c.close()
