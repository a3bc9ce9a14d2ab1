"""The page reconnects by itself: its server is killed (SIGKILL) and started again on the same
port while a player's page is open; the other player moves in between, over HTTP. The page says
it is reconnecting, comes back with the last version it saw (``?v=``), catches up, and a move
clicked while the server was down is sent again until it is acknowledged, exactly once."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest

from miai.testing.serve import ServeProcess

expect = pytest.importorskip("playwright.sync_api").expect

SRC = Path(__file__).resolve().parents[3] / "src"


def _server(db: Path) -> ServeProcess:
    """``miai serve`` on ``db`` without rate limits; started again after a kill, it keeps its port."""
    env = {
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "MIAI_SECRET": "browser-tests-secret-0123456789abcdef",
    }
    return ServeProcess(f"sqlite:///{db}", extra=["--no-rate-limits"], env=env, cwd=db.parent)


def test_the_page_reconnects_after_the_server_dies_and_catches_up(tmp_path, new_context):
    server = _server(tmp_path / "reconnect.db")
    url = server.start()
    try:
        game = httpx.post(f"{url}/api/games", json={"size": 9}).json()
        white = {"Authorization": f"Bearer {game['white_token']}"}
        page = new_context("en-US").new_page()
        page.goto(f"{url}/g/{game['id']}?seat={game['black_token']}")
        expect(page.locator(".player.black .name")).to_contain_text("(you)")
        page.locator('[data-vertex="E5"]').click()
        expect(page.locator("#status")).to_contain_text("White to move")

        server.kill()
        expect(page.locator("#status")).to_contain_text("reconnecting")
        server.start()
        assert httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": "C3", "v": 1}, headers=white).status_code == 200
        expect(page.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "white", timeout=20_000)
        expect(page.locator("#status")).to_contain_text("Your move")

        # a click while the server is down is kept and sent again once it is back
        server.kill()
        expect(page.locator("#status")).to_contain_text("reconnecting")
        page.locator('[data-vertex="G7"]').click()
        expect(page.locator("#status")).to_contain_text("sending")
        time.sleep(1)
        server.start()
        expect(page.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "black", timeout=20_000)
        expect(page.locator("#status")).not_to_contain_text("sending", timeout=20_000)
        state = httpx.get(f"{url}/api/games/{game['id']}").json()
        assert state["moves"] == ["E5", "C3", "G7"] and state["v"] == 3
    finally:
        server.stop()


def test_a_move_clicked_while_the_server_is_down_is_played_after_a_restart_of_a_timed_game(tmp_path, new_context):
    """A restart writes a note on the clocks (an event, v + 1) in a timed game: the move clicked
    while the server was down was made against the version before it, and is sent again with the
    new one, since nothing was played in between (issue 40, defect 7); in Spanish, every word the
    page says in its language."""
    server = _server(tmp_path / "timed.db")
    url = server.start()
    try:
        game = httpx.post(f"{url}/api/games", json={"size": 9, "time": "byoyomi:600:30:3"}).json()
        white = {"Authorization": f"Bearer {game['white_token']}"}
        page = new_context("es-ES").new_page()
        page.goto(f"{url}/g/{game['id']}?seat={game['black_token']}")
        expect(page.locator(".player.black .name")).to_contain_text("(tú)")
        page.locator('[data-vertex="E5"]').click()
        expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
        assert httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": "C3", "v": 1}, headers=white).status_code == 200
        expect(page.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "white")

        server.kill()
        expect(page.locator("#status")).to_contain_text("reconectando")
        page.locator('[data-vertex="G7"]').click()
        expect(page.locator("#status")).to_contain_text("enviando")
        server.start()
        expect(page.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "black", timeout=20_000)
        expect(page.locator("#status")).not_to_contain_text("enviando", timeout=20_000)
        expect(page.locator("#message")).to_be_empty()
        events = httpx.get(f"{url}/api/games/{game['id']}/events?after=2").json()["events"]
        assert [e["kind"] for e in events] == ["clock", "move"]  # the restart's note, then the move
        assert httpx.get(f"{url}/api/games/{game['id']}").json()["moves"] == ["E5", "C3", "G7"]

        # a move the game really moved on from is dropped, and the page says so in Spanish: the
        # page is kept offline while White asks to take its move back
        assert httpx.post(f"{url}/api/games/{game['id']}/play", json={"move": "H8", "v": 4}, headers=white).status_code == 200
        expect(page.locator('[data-vertex="H8"]')).to_have_attribute("data-stone", "white")
        server.kill()
        expect(page.locator("#status")).to_contain_text("reconectando")
        page.context.set_offline(True)
        page.locator('[data-vertex="D4"]').click()
        server.start()
        v = httpx.get(f"{url}/api/games/{game['id']}").json()["v"]
        assert httpx.post(f"{url}/api/games/{game['id']}/undo", json={"v": v}, headers=white).status_code == 200
        page.context.set_offline(False)
        expect(page.get_by_text("Blanco pide deshacer una jugada.")).to_be_visible(timeout=20_000)
        expect(page.locator("#message")).to_contain_text("D4", timeout=20_000)
        expect(page.locator("#message")).to_contain_text("no se ha jugado")
        expect(page.locator('[data-vertex="D4"]')).not_to_have_attribute("data-stone", "black")
        assert httpx.get(f"{url}/api/games/{game['id']}").json()["moves"] == ["E5", "C3", "G7", "H8"]
    finally:
        server.stop()
