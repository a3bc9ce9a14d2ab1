"""The page's other paths in a real browser: a guest against the computer, a ko explained, an
open game joined from the lobby, the review with its slider, keys and diagram, and the
language switch."""

from __future__ import annotations

import re

import httpx
import pytest

expect = pytest.importorskip("playwright.sync_api").expect


def test_a_guest_plays_the_computer_and_gets_a_reply(server_url, new_context):
    page = new_context("en-US").new_page()
    page.goto(server_url + "/")
    page.get_by_label("Computer level").select_option("1")
    page.get_by_role("button", name="Play the computer").click()
    expect(page.locator(".player.black .name")).to_contain_text("(you)")
    page.locator('[data-vertex="E5"]').click()
    expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    expect(page.locator('[data-stone="white"]')).to_have_count(1, timeout=60_000)
    expect(page.locator("#status")).to_contain_text("Your move")
    expect(page.locator(".player.white .name")).to_contain_text("miai level 1")


def test_a_ko_retake_and_an_occupied_point_are_explained_with_the_rule(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    tokens = {"black": game["black_token"], "white": game["white_token"]}
    # Black C4 D5 D3 around D4, White E5 F4 E3 around E4; White plays D4, Black takes it at E4:
    # a ko, and White may not take back at D4 at once.
    seq = [("black", "C4"), ("white", "E5"), ("black", "D5"), ("white", "F4"), ("black", "D3"),
           ("white", "E3"), ("black", "pass"), ("white", "D4"), ("black", "E4")]
    v = 0
    for color, move in seq:
        answer = httpx.post(f"{server_url}/api/games/{game['id']}/play", json={"move": move, "v": v},
                            headers={"Authorization": f"Bearer {tokens[color]}"})
        assert answer.status_code == 200, (move, answer.text)
        v = answer.json()["v"]
    state = httpx.get(f"{server_url}/api/games/{game['id']}").json()
    assert state["ko"] == "D4" and "D4" not in state["stones"]["white"]
    page = new_context("pt-PT").new_page()
    page.goto(f"{server_url}/g/{game['id']}?seat={tokens['white']}")
    expect(page.locator(".player.white .name")).to_contain_text("(você)")  # the seat is taken
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator('[data-vertex="D4"]')).to_have_attribute("aria-label", re.compile("ko"))
    page.locator('[data-vertex="D4"]').click()
    expect(page.locator("#message")).to_contain_text("Ko: não pode retomar o ko")
    expect(page.locator('[data-vertex="D4"]')).not_to_have_attribute("data-stone", "white")
    page.locator('[data-vertex="E4"]').click()
    expect(page.locator("#message")).to_contain_text("E4 está ocupada")


def test_an_open_game_is_joined_from_the_lobby(server_url, new_context):
    host = new_context("es-ES").new_page()
    host.goto(server_url + "/")
    host.get_by_role("button", name="Abrir una partida a cualquiera").click()
    expect(host.locator('[data-vertex="E5"]')).to_be_visible()
    game_id = host.url.rsplit("/", 1)[1]
    expect(host.locator(".player.black .name")).to_contain_text("(tú)")
    guest = new_context("it-IT").new_page()
    guest.goto(server_url + "/")
    row = guest.locator("#open-games li", has=guest.get_by_role("button", name="Partecipa")).first
    expect(row).to_be_visible()
    row.get_by_role("button", name="Partecipa").click()
    expect(guest).to_have_url(re.compile(f"/g/{game_id}$"))
    expect(guest.locator(".player.white .name")).to_contain_text("(tu)")
    host.locator('[data-vertex="C3"]').click()
    expect(guest.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "black")
    guest.locator('[data-vertex="G7"]').click()
    expect(host.locator('[data-vertex="G7"]')).to_have_attribute("data-stone", "white")
    # the host's name is on Black, the joiner's on White, on both pages
    expect(host.locator(".player.white .name")).not_to_contain_text("esperando")


def test_the_review_steps_through_moves_and_draws_a_numbered_diagram(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    tokens = {"black": game["black_token"], "white": game["white_token"]}
    v = 0
    for n, move in enumerate(["E5", "C3", "G7", "C7", "pass", "G3"]):
        answer = httpx.post(f"{server_url}/api/games/{game['id']}/play", json={"move": move, "v": v},
                            headers={"Authorization": f"Bearer {tokens['black' if n % 2 == 0 else 'white']}"})
        v = answer.json()["v"]
    page = new_context("en-US").new_page()
    page.goto(f"{server_url}/r/{game['id']}")
    expect(page.locator("#move-counter")).to_contain_text("Move 6 of 6")
    expect(page.locator("[data-stone]")).to_have_count(5)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#move-counter")).to_contain_text("Move 5 of 6: Black passes")
    expect(page.locator('[data-vertex="G3"]')).not_to_have_attribute("data-stone", "white")
    page.keyboard.press("Home")
    expect(page.locator("[data-stone]")).to_have_count(0)
    page.locator("#move-slider").fill("2")
    expect(page.locator("[data-stone]")).to_have_count(2)
    page.locator("#diagram-from").fill("2")
    page.locator("#diagram-to").fill("6")
    page.get_by_role("button", name="Show the diagram").click()
    image = page.get_by_role("img", name="Moves 2 to 6, numbered")
    expect(image).to_be_visible()
    assert page.evaluate("document.querySelector('.diagram img').naturalWidth") > 0
    page.locator("#diagram-to").fill("9")
    page.get_by_role("button", name="Show the diagram").click()
    expect(page.locator(".diagram .error")).to_contain_text("Choose moves from 1 to 6.")
    expect(page.get_by_role("link", name="Download SGF")).to_have_attribute("href", f"/api/games/{game['id']}/sgf")


def test_the_language_follows_the_browser_and_the_choice_is_kept(server_url, new_context):
    page = new_context("pt-BR").new_page()
    page.goto(server_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "pt-PT")
    expect(page.get_by_role("button", name="Jogar contra o computador")).to_be_visible()
    page.get_by_label("Língua").select_option("it")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.get_by_role("button", name="Gioca contro il computer")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "it")


def test_an_uploaded_record_is_reviewed_and_a_bad_one_explained(server_url, new_context):
    page = new_context("it-IT").new_page()
    page.goto(server_url + "/review")
    page.get_by_label("Testo SGF").fill("(;GM[1]FF[4]SZ[9]PB[Honinbo]PW[Jowa];B[ee];W[cc];B[gg])")
    page.get_by_role("button", name="Rivedi", exact=True).click()
    expect(page.locator("#move-counter")).to_contain_text("Mossa 3 di 3: il Nero G3")
    expect(page.get_by_text("Honinbo")).to_be_visible()
    expect(page.locator("[data-stone]")).to_have_count(3)
    expect(page.get_by_role("link", name="Scarica il file SGF")).to_be_visible()
    page.goto(server_url + "/review")
    page.get_by_label("Testo SGF").fill("this is not a record")
    page.get_by_role("button", name="Rivedi", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("Il record della partita non si può leggere.")


CSP_WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""


def test_the_pages_run_under_their_content_security_policy_without_a_violation(server_url, new_context):
    game = httpx.post(f"{server_url}/api/games", json={"size": 9}).json()
    httpx.post(f"{server_url}/api/games/{game['id']}/play", json={"move": "E5", "v": 0},
               headers={"Authorization": f"Bearer {game['black_token']}"})  # fmt: skip
    context = new_context("en-US")
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page.goto(server_url + "/")
    expect(page.get_by_role("button", name="Play the computer")).to_be_visible()
    page.goto(f"{server_url}/g/{game['id']}?seat={game['white_token']}")
    expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    expect(page.locator(".player.white .name")).to_contain_text("(you)")
    page.locator('[data-vertex="C3"]').click()  # over the WebSocket: connect-src 'self'
    expect(page.locator('[data-vertex="C3"]')).to_have_attribute("data-stone", "white")
    assert page.evaluate("window.__csp") == []
    page.goto(f"{server_url}/r/{game['id']}")
    page.get_by_role("button", name="Show the diagram").click()
    expect(page.get_by_role("img", name="Moves 1 to 2, numbered")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('#diagram-from')).width") == "80px"  # 5rem
    assert page.evaluate("window.__csp") == []
    page.goto(server_url + "/review")
    expect(page.get_by_label("SGF text")).to_be_visible()
    assert page.evaluate("window.__csp") == []
    page.goto(server_url + "/learn")
    page.locator('#learn-board [data-vertex="E5"]').click()
    expect(page.locator("#learn-feedback.right")).to_be_visible()
    assert page.evaluate("window.__csp") == []
