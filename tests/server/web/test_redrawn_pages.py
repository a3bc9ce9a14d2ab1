"""A page drawn again leaves nothing of the old one behind: a language switch on a game page
leaves one WebSocket to the game (counted in the page, and by the server among its spectators)
and one timer, and the seat still plays; a reload draws the game again from the server; on the
lobby and the review a switch leaves one timer and one key listener; and every module the
browser loads carries the release's ``?v=``."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from miai import __version__

expect = pytest.importorskip("playwright.sync_api").expect

# Counts, from before the page's own scripts run, the WebSockets made and not closed, the
# intervals set and not cleared, and the keydown listeners on the document.
COUNTERS = """
(() => {
  const sockets = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      sockets.push(this);
    }
  };
  const intervals = new Set();
  const setInterval = window.setInterval.bind(window);
  const clearInterval = window.clearInterval.bind(window);
  window.setInterval = (...args) => {
    const id = setInterval(...args);
    intervals.add(id);
    return id;
  };
  window.clearInterval = (id) => {
    intervals.delete(id);
    clearInterval(id);
  };
  const keys = new Set();
  const add = document.addEventListener.bind(document);
  const remove = document.removeEventListener.bind(document);
  document.addEventListener = (type, listener, options) => {
    if (type === "keydown") keys.add(listener);
    add(type, listener, options);
  };
  document.removeEventListener = (type, listener, options) => {
    if (type === "keydown") keys.delete(listener);
    remove(type, listener, options);
  };
  window.__counts = () => ({
    made: sockets.length,
    live: sockets.filter((s) => s.readyState === Native.CONNECTING || s.readyState === Native.OPEN).length,
    intervals: intervals.size,
    keys: keys.size,
  });
})();
"""

# A WebSocket of its own to the game, keeping the server's count of spectators as it changes.
PROBE = """
(gameId) => new Promise((resolve) => {
  const ws = new WebSocket(`ws://${location.host}/ws/game/${gameId}`);
  ws.onmessage = (m) => {
    const f = JSON.parse(m.data);
    const presence = f.t === "hello" ? f.d.presence : f.t === "presence" ? f.d : null;
    if (presence) window.__spectators = presence.spectators;
    if (f.t === "hello") resolve();
  };
})
"""


def _game(server_url: str) -> tuple[str, dict[str, str]]:
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    return game["id"], {"black": game["black_token"], "white": game["white_token"]}


def _spectators_settled(probe: Any, want: int, within_s: float = 10.0) -> int:
    """The server's count of spectators once it is `want`, or the last one seen after `within_s`."""
    deadline = time.monotonic() + within_s
    seen = probe.evaluate("window.__spectators")
    while seen != want and time.monotonic() < deadline:
        probe.wait_for_timeout(100)
        seen = probe.evaluate("window.__spectators")
    return int(seen)


def test_a_language_switch_on_a_game_page_leaves_one_socket_and_one_timer(server_url, new_context):
    game_id, _tokens = _game(server_url)
    context = new_context("en-US")
    context.add_init_script(COUNTERS)
    watcher = context.new_page()
    watcher.goto(f"{server_url}/g/{game_id}")
    expect(watcher.locator("#status")).to_have_text("Black to move.")  # connected: no "(reconnecting…)"
    for lang, status in (("es", "Juega Negro."), ("it", "Tocca al Nero.")):
        watcher.locator("#language").select_option(lang)
        expect(watcher.locator("#status")).to_have_text(status)
    counts = watcher.evaluate("window.__counts()")
    assert counts["made"] == 3  # one for each drawing of the page, none made again by an old one
    assert counts["live"] == 1
    assert counts["intervals"] == 1  # the shown page's clock; the old pages' are cleared

    probe = new_context("en-US").new_page()
    probe.goto(server_url + "/")
    probe.evaluate(PROBE, game_id)
    assert _spectators_settled(probe, 2) == 2  # the watcher's one socket, and the probe's
    watcher.wait_for_timeout(1000)
    assert watcher.evaluate("window.__counts()") == counts  # nothing of the old pages woke up


def test_after_a_language_switch_and_a_reload_the_seat_plays_on(server_url, new_context):
    game_id, tokens = _game(server_url)
    page = new_context("en-US").new_page()
    modules: list[str] = []
    page.on("request", lambda r: modules.append(r.url) if "/static/" in r.url and ".js" in r.url else None)
    page.goto(f"{server_url}/g/{game_id}?seat={tokens['black']}")
    expect(page.locator(".player.black .name")).to_contain_text("(you)")
    page.locator("#language").select_option("es")
    expect(page.locator(".player.black .name")).to_contain_text("(tú)")
    page.locator('[data-vertex="E5"]').click()
    expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#status")).to_have_text("Juega Blanco.")  # acknowledged, nothing left to send
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["moves"] == ["E5"]  # sent once

    page.reload()
    expect(page.locator(".player.black .name")).to_contain_text("(tú)")  # the seat and the language kept
    expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    answer = httpx.post(f"{server_url}/api/games/{game_id}/play", json={"move": "C3", "v": 1},
                        headers={"Authorization": f"Bearer {tokens['white']}"})
    assert answer.status_code == 200, answer.text
    expect(page.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "white")
    page.locator('[data-vertex="G7"]').click()
    expect(page.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "black")
    assert httpx.get(f"{server_url}/api/games/{game_id}").json()["moves"] == ["E5", "C3", "G7"]

    names = {url.split("/static/")[1].split("?")[0] for url in modules}
    assert {"app.js", "game.js", "gamesocket.js", "gamestate.js", "gameview.js", "gamecontrols.js", "board.js", "dom.js"} <= names
    unversioned = [url for url in modules if not url.endswith(f"?v={__version__}")]
    assert not unversioned


def test_on_the_lobby_and_the_review_a_language_switch_leaves_one_timer_and_one_key_listener(server_url, new_context):
    game_id, _tokens = _game(server_url)
    context = new_context("en-US")
    context.add_init_script(COUNTERS)
    page = context.new_page()
    page.goto(server_url + "/")
    expect(page.get_by_role("button", name="Play the computer")).to_be_visible()
    page.locator("#language").select_option("it")
    expect(page.get_by_role("button", name="Gioca contro il computer")).to_be_visible()
    assert page.evaluate("window.__counts()")["intervals"] == 1  # the shown lobby's lists

    page.goto(f"{server_url}/r/{game_id}")
    expect(page.locator("#move-counter")).to_contain_text("0")
    page.locator("#language").select_option("pt")
    expect(page.get_by_role("button", name="Analisar", exact=True)).to_be_visible()
    counts = page.evaluate("window.__counts()")
    assert counts["keys"] == 1 and counts["intervals"] == 0
