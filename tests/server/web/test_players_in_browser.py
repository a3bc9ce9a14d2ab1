"""Players who come back, in real browsers: two players sign up (es, pt), "play someone now"
pairs them, a rated game is played to its end and both ratings change on their pages; a
correspondence game paired the same way shows "your turn" in a third browser (it) signed in as
the player to move, which continues it from "my games"."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

expect = pytest.importorskip("playwright.sync_api").expect

PASSWORD = "correct horse battery"
SIGN_UP = {  # the sign-up page's words: username, password, language, the button
    "es-ES": ("Nombre de usuario", "Contraseña", "Idioma de la página", "Crear la cuenta"),
    "pt-PT": ("Nome de utilizador", "Palavra-passe", "Língua da página", "Criar conta"),
}
AUTOMATCH = {"es-ES": "Jugar ya contra alguien", "pt-PT": "Jogar já com alguém"}
RESIGN = {"es-ES": "Abandonar", "pt-PT": "Desistir"}
YOU = {"es-ES": "(tú)", "pt-PT": "(você)"}
NAMES = {"es-ES": "Ana", "pt-PT": "Bruno"}
MY_GAMES = {  # "my games" in the account's language: your turn, time left, the link to play
    "es-ES": ("Te toca", "quedan", "Jugar", "(tú)"),
    "pt-PT": ("É a sua vez", "restam", "Jogar", "(você)"),
}
NOTIFY = {  # switching the browser's notifications on, and what the page says then
    "es-ES": ("Avísame cuando me toque", "Se te avisa"),
    "pt-PT": ("Avise-me quando for a minha vez", "É avisado"),
}


# In the page: a new account, then `count` games in which it plays Black's first move.
MANY_GAMES = """
async ([name, password, count]) => {
  const post = async (url, body, token) => {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const answer = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${url}: ${answer.status} ${await answer.text()}`);
    return answer.json();
  };
  await post("/api/users", { username: name, password });
  const ids = [];
  for (let i = 0; i < count; i++) {
    const game = await post("/api/games", { size: 9 });
    await post(`/api/games/${game.id}/play`, { move: "E5", v: 0 }, game.black_token);
    ids.push(game.id);
  }
  return ids;
}
"""


def sign_up(context: Any, server_url: str, locale: str, name: str) -> Any:
    page = context.new_page()
    page.goto(server_url + "/signup")
    username, password, language, button = SIGN_UP[locale]
    page.get_by_label(username).fill(name)
    page.get_by_label(password).fill(PASSWORD)
    page.get_by_label(language).select_option(locale[:2])
    page.get_by_role("button", name=button).click()
    expect(page.locator("#me-name")).to_have_text(name)
    return page


def ask_for_a_game(page: Any, locale: str, time: str) -> None:
    """'Play someone now' on a 9×9 board, rated, with clock ``time``."""
    panel = page.locator("#automatch")
    panel.locator("#am-size").select_option("9")
    panel.locator("#am-time").select_option(time)
    panel.locator("#am-ranks").select_option("30")
    panel.get_by_role("button", name=AUTOMATCH[locale]).click()


def paired(server_url: str, first: Any, second: Any, locales: tuple[str, str], time: str) -> tuple[str, dict[str, Any]]:
    """Both ask from the lobby; the first waits, then both pages go to the game. Returns its id
    and each colour's (page, locale)."""
    first.goto(server_url + "/")
    second.goto(server_url + "/")
    ask_for_a_game(first, locales[0], time)
    expect(first.locator("#automatch-status")).to_contain_text("…")  # waiting, with its cancel button
    first.locator("#automatch-cancel").click()  # cancelled: the request is gone, and asked again
    expect(first.locator("#automatch-start")).to_be_visible()
    expect(first.locator("#automatch-status")).to_be_empty()
    ask_for_a_game(first, locales[0], time)
    expect(first.locator("#automatch-cancel")).to_be_visible()
    ask_for_a_game(second, locales[1], time)
    for page in (first, second):
        expect(page).to_have_url(re.compile(r"/g/[\w-]+$"), timeout=20_000)
    game_id = first.url.rsplit("/", 1)[1]
    assert second.url.endswith(game_id)
    for page, locale in zip((first, second), locales, strict=True):
        expect(page.locator(".player .name").filter(has_text=YOU[locale])).to_have_count(1)
        expect(page.locator(".player .name a.player-link")).to_have_count(2)  # to each player's page
        expect(page.locator(".player .name").first).to_contain_text(re.compile(r"\[\d+[kd]\]"))  # with the rank
    players = httpx.get(f"{server_url}/api/games/{game_id}").json()["players"]
    by_name = {NAMES[locale]: (page, locale) for page, locale in zip((first, second), locales, strict=True)}
    pages = {color: by_name[players[color]] for color in ("black", "white")}
    return game_id, pages


def rating_of(page: Any, server_url: str, name: str) -> str:
    page.goto(f"{server_url}/p/{name}")
    expect(page.locator("#player-rating")).not_to_have_text("–")
    return page.locator("#player-rating").inner_text()


def wait_for_rated_games(server_url: str, names: tuple[str, ...], count: int) -> None:
    """Until every player's record counts ``count`` rated games: the end of a game is
    committed with its ratings, and a page's status can show before the resignation is in."""
    deadline = time.monotonic() + 20
    while any(httpx.get(f"{server_url}/api/players/{name}").json()["rated_games"] < count for name in names):
        assert time.monotonic() < deadline, f"the rated game was not settled in 20 s for {names}"
        time.sleep(0.1)


def test_a_rated_game_changes_both_ratings_and_a_correspondence_game_goes_on_elsewhere(server_url, new_context):
    ana = sign_up(new_context("es-ES"), server_url, "es-ES", "Ana")
    bruno = sign_up(new_context("pt-PT"), server_url, "pt-PT", "Bruno")
    before = {"Ana": rating_of(ana, server_url, "Ana"), "Bruno": rating_of(bruno, server_url, "Bruno")}

    # a rated game to its end: Black plays, White resigns
    game_id, pages = paired(server_url, ana, bruno, ("es-ES", "pt-PT"), "byoyomi:300:30:3")
    (black, _b), (white, white_locale) = pages["black"], pages["white"]
    black.locator('[data-vertex="E5"]').click()
    expect(white.locator('[data-vertex="E5"]')).to_have_attribute("data-stone", "black")
    white.get_by_role("button", name=RESIGN[white_locale]).click()
    white.locator(".dialog").get_by_role("button", name=RESIGN[white_locale]).click()
    expect(black.locator("#status")).not_to_be_empty()
    wait_for_rated_games(server_url, ("Ana", "Bruno"), 1)
    after = {"Ana": rating_of(ana, server_url, "Ana"), "Bruno": rating_of(bruno, server_url, "Bruno")}
    assert after["Ana"] != before["Ana"] and after["Bruno"] != before["Bruno"], (before, after)
    expect(ana.locator("#player-games")).to_have_text("1")
    expect(ana.locator("#player-games-list li")).to_have_count(1)
    expect(ana.locator("svg.rating-graph")).to_be_visible()

    # a correspondence game: whoever must move sees it waiting in a third browser, and plays there
    game_id, pages = paired(server_url, ana, bruno, ("es-ES", "pt-PT"), "simple:1d")
    # (after one game the loser is a rank or more below: Black takes handicap stones and White moves first)
    mover = httpx.get(f"{server_url}/api/games/{game_id}").json()["to_move"]
    other = "white" if mover == "black" else "black"
    locale = pages[mover][1]
    third = new_context("it-IT", permissions=["notifications"]).new_page()  # signs in in Italian, then sees the account's language
    third.goto(server_url + "/signin")
    third.get_by_label("Nome utente").fill(NAMES[locale])
    third.get_by_label("Password").fill(PASSWORD)
    third.get_by_role("button", name="Accedi").click()
    expect(third.locator("#turn-badge")).to_have_text("1", timeout=20_000)
    your_turn, left, play, you = MY_GAMES[locale]
    third.goto(server_url + "/me")
    row = third.locator(f'#my-turn-games li[data-game="{game_id}"]')
    expect(row).to_contain_text(your_turn)
    switch_on, switched_on = NOTIFY[locale]
    third.get_by_role("button", name=switch_on).click()  # the browser allows it: notifications on
    expect(third.locator("#notify")).to_contain_text(switched_on)
    row.get_by_role("link", name=play).click()
    expect(third.locator(f".player.{mover} .name")).to_contain_text(you)  # the seat follows the player
    third.locator('[data-vertex="B8"]').click()
    expect(pages[other][0].locator('[data-vertex="B8"]')).to_have_attribute("data-stone", mover)
    opponent = pages[other][0]
    opponent.locator('[data-vertex="H2"]').click()  # both have moved: the clock of days runs
    expect(third.locator('[data-vertex="H2"]')).to_have_attribute("data-stone", other)
    third.goto(server_url + "/me")
    row = third.locator(f'#my-turn-games li[data-game="{game_id}"]')
    expect(row).to_contain_text(your_turn)
    expect(row).to_contain_text(left)  # "23 h 59 min" of the day a move



def test_my_games_pages_through_older_and_newer_games(server_url, new_context):
    page = new_context("en-US").new_page()
    page.goto(server_url + "/")
    ids = page.evaluate(MANY_GAMES, ["Pager", PASSWORD, 21])
    page.goto(server_url + "/me")
    rows = page.locator("#ongoing-games li[data-game]")
    expect(rows).to_have_count(20)  # a page: the newest twenty
    expect(page.locator(f'#ongoing-games li[data-game="{ids[0]}"]')).to_have_count(0)
    newer, older = page.get_by_role("button", name="Newer games"), page.get_by_role("button", name="Older games")
    expect(newer).to_be_hidden()
    older.click()
    expect(rows).to_have_count(1)
    expect(page.locator(f'#ongoing-games li[data-game="{ids[0]}"]')).to_have_count(1)  # the oldest
    expect(older).to_be_hidden()
    newer.click()
    expect(rows).to_have_count(20)
    expect(page.locator(f'#ongoing-games li[data-game="{ids[-1]}"]')).to_have_count(1)


def test_a_rated_invitation_keeps_to_even_terms_in_the_page_s_words(server_url, new_context):
    page = sign_up(new_context("es-ES"), server_url, "es-ES", "Dora")  # a name of its own: the server is the module's
    page.goto(server_url + "/")
    page.locator("#f-rated").check()  # the new game's box ("Puntuable"; automatch has its own)
    page.get_by_label("Hándicap").select_option("2")
    invite = page.get_by_role("button", name="Invitar a un amigo")
    invite.click()
    refusal = "Una partida puntuable se juega en igualdad: sin hándicap y con el komi habitual de sus reglas ({komi})."
    expect(page.locator("#rated-terms")).to_have_text(refusal.format(komi="6,5"))  # Japanese, the form's rules
    page.get_by_label("Hándicap").select_option("0")
    page.get_by_label("Komi").fill("5,5")
    invite.click()
    expect(page.locator("#rated-terms")).to_have_text(refusal.format(komi="6,5"))
    assert httpx.get(f"{server_url}/api/players/Dora/games").json()["games"] == []  # nothing was asked of the server
    page.get_by_label("Komi").fill("6,5")
    invite.click()
    expect(page.locator("#invite-link")).to_be_visible()
    expect(page.locator("#rated-terms")).to_have_count(0)
