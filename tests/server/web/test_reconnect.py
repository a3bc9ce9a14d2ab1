"""The page reconnects by itself: its server is killed (SIGKILL) and started again on the same
port while a player's page is open; the other player moves in between, over HTTP. The page says
it is reconnecting, comes back with the last version it saw (``?v=``), catches up, and a move
clicked while the server was down is sent again until it is acknowledged, exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from ..test_kill9 import free_port

expect = pytest.importorskip("playwright.sync_api").expect

SRC = Path(__file__).resolve().parents[3] / "src"


def _start(db: Path, port: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "MIAI_SECRET": "browser-tests-secret-0123456789abcdef",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "miai", "serve", "--port", str(port), "--database", f"sqlite:///{db}", "--no-rate-limits"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=db.parent,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("miai serve: http://"), line
    return proc


def test_the_page_reconnects_after_the_server_dies_and_catches_up(tmp_path, new_context):
    port = free_port()
    db = tmp_path / "reconnect.db"
    proc = _start(db, port)
    url = f"http://127.0.0.1:{port}"
    try:
        game = httpx.post(f"{url}/api/games", json={"size": 9}).json()
        white = {"Authorization": f"Bearer {game['white_token']}"}
        page = new_context("en-US").new_page()
        page.goto(f"{url}/g/{game['id']}?seat={game['black_token']}")
        expect(page.locator(".player.black .name")).to_contain_text("(you)")
        page.locator('[data-vertex="E5"]').click()
        expect(page.locator("#status")).to_contain_text("White to move")

        proc.send_signal(signal.SIGKILL)
        proc.wait()
        expect(page.locator("#status")).to_contain_text("reconnecting")
        proc = _start(db, port)
        assert httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": "C3", "v": 1}, headers=white).status_code == 200
        expect(page.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "white", timeout=20_000)
        expect(page.locator("#status")).to_contain_text("Your move")

        # a click while the server is down is kept and sent again once it is back
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        expect(page.locator("#status")).to_contain_text("reconnecting")
        page.locator('[data-vertex="G7"]').click()
        expect(page.locator("#status")).to_contain_text("sending")
        time.sleep(1)
        proc = _start(db, port)
        expect(page.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "black", timeout=20_000)
        expect(page.locator("#status")).not_to_contain_text("sending", timeout=20_000)
        state = httpx.get(f"{url}/api/games/{game['id']}").json()
        assert state["moves"] == ["E5", "C3", "G7"] and state["v"] == 3
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
