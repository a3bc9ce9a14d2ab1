"""A whole friend game on the page through clicks only, in each language (issue 40's "done
when"): the lobby's invitation (9×9, Japanese, komi shown), the friend's seat taken from the
link, a scripted game with a capture, a refused suicide in words, a pass announced to the
other, the marking from the computer's estimate (an edit turns Accept into Propose), the count
on the final board said once, then the review from the game's link with the players named, its
win-rate graph and mistakes; a phone on the Spanish game through the seat link. On the es, it
and pt pages no English is visible in any of these states (wt-i18n's check). Screenshots:
lobby-invite-*, play-*, marking-*, final-count-*, review-*, play-phone-es."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.web.shots import shot
from tests.server.web.test_table_in_browser import _coordinates_clear
from tests.server.web.visibletext import english_left

expect = pytest.importorskip("playwright.sync_api").expect

# Black walls column D, White column F; Black's H8 is dead in White's area. White's A1 is
# captured by A2 after White's pass, A1 again is suicide, and White's B2 is dead in Black's area.
WALLS = "D5 F5 D4 F4 D6 F6 D3 F3 D7 F7 D2 F2 D8 F8 D1 F1 D9 F9".split()

WORDS = {  # the page's words in each language
    "en": {
        "locale": "en-US", "invite": "Invite a friend", "terms": "Japanese rules · komi 6.5", "you": "(you)",
        "pass": "Pass", "passed": "White has passed: if you pass too, the game ends.",
        "suicide": "Suicide is not allowed: a stone on A1 would have no liberty",
        "propose": "Propose these dead stones", "accept": "Accept", "changed": "You changed the marking",
        "margin": "7.5", "review": "Review", "analyse": "Analyse the game",
        "guest": "Guest",
    },
    "es": {
        "locale": "es-ES", "invite": "Invitar a un amigo", "terms": "Reglas japonesas · komi 6,5", "you": "(tú)",
        "pass": "Pasar", "passed": "Blanco ha pasado: si tú también pasas, la partida termina.",
        "suicide": "suicidio",
        "propose": "Proponer estas piedras muertas", "accept": "Aceptar", "changed": "Has cambiado las marcas",
        "margin": "7,5", "review": "Revisar", "analyse": "Analizar la partida",
        "guest": "Invitado",
    },
    "it": {
        "locale": "it-IT", "invite": "Invita un amico", "terms": "Regole giapponesi · komi 6,5", "you": "(tu)",
        "pass": "Passa", "passed": "Il Bianco ha passato",
        "suicide": "suicidio",
        "propose": "Proponi queste pietre morte", "accept": "Accetta", "changed": "Hai cambiato",
        "margin": "7,5", "review": "Rivedi", "analyse": "Analizza la partita",
        "guest": "Ospite",
    },
    "pt": {
        "locale": "pt-PT", "invite": "Convidar um amigo", "terms": "Regras japonesas · komi 6,5", "you": "(você)",
        "pass": "Passar", "passed": "As Brancas passaram",
        "suicide": "suicídio",
        "propose": "Propor estas pedras mortas", "accept": "Aceitar", "changed": "Alterou",
        "margin": "7,5", "review": "Rever", "analyse": "Analisar a partida",
        "guest": "Convidado",
    },
}


def no_english(lang: str, *pages: Any) -> None:
    """No English visible on any of ``pages`` (the English page is not checked for it), and in
    no language a script's empty value written out ("null", "undefined", "NaN")."""
    for page in pages:
        assert not re.search(r"\b(null|undefined|NaN)\b", page.locator("body").inner_text()), page.url
        if lang != "en":
            assert english_left(page, lang) == [], page.url


def click(mover: Any, watcher: Any, vertex: str, color: str) -> None:
    """``mover`` clicks ``vertex``; both pages then show its stone."""
    mover.locator(f'[data-vertex="{vertex}"]').click()
    expect(watcher.locator(f'[data-vertex="{vertex}"]')).to_have_attribute("data-stone", color)


def pass_by_click(page: Any, words: dict[str, Any]) -> None:
    page.get_by_role("button", name=words["pass"], exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name=words["pass"], exact=True).click()


DEAD = re.compile(", (dead|muerta|morta)(,|$)")  # a point's name says its stone is marked dead


def dead(page: Any, vertex: str) -> bool:
    return bool(DEAD.search(page.locator(f'[data-vertex="{vertex}"]').get_attribute("aria-label")))


def invite_from_the_lobby(server_url: str, host: Any, friend: Any, lang: str, words: dict[str, Any]) -> None:
    """The host invites by clicks in the lobby (9×9, Japanese, the komi shown) and goes to the
    game; the friend opens the invitation and holds White."""
    host.goto(server_url + "/")
    host.locator("#f-size").select_option("9")
    host.locator("#f-rules").select_option("japanese")
    expect(host.locator("#f-komi")).to_have_value("6.5" if lang == "en" else "6,5")
    host.get_by_role("button", name=words["invite"]).click()
    link = host.locator("#invite-link")
    expect(link).to_have_value(re.compile(r"/g/[\w-]+\?seat="))
    no_english(lang, host)
    shot(host, f"lobby-invite-{lang}", full_page=True)
    friend.goto(link.input_value())
    host.locator("#go-to-game").click()
    expect(host.locator(".player.black .name")).to_contain_text(words["you"])
    expect(friend.locator(".player.white .name")).to_contain_text(words["you"])
    for page in (host, friend):
        expect(page.locator("#terms")).to_contain_text(words["terms"])


def play_the_game(black: Any, white: Any, words: dict[str, Any], lang: str) -> None:
    """The scripted game by clicks, to the second pass: a pass announced, a capture, a suicide
    refused in words (the refusal gone after the next move)."""
    for n, vertex in enumerate(WALLS + ["H8", "A1", "B1"]):
        mover, watcher, color = (black, white, "black") if n % 2 == 0 else (white, black, "white")
        click(mover, watcher, vertex, color)
    pass_by_click(white, words)  # announced to Black, whose pass would end the game
    expect(black.locator("#status")).to_contain_text(words["passed"])
    no_english(lang, black, white)
    click(black, white, "A2", "black")  # captures A1
    expect(white.locator('[data-vertex="A1"]')).not_to_have_attribute("data-stone", "white")
    white.locator('[data-vertex="A1"]').click()  # suicide: refused, said in words
    expect(white.locator("#message")).to_contain_text(words["suicide"])
    expect(white.locator('[data-vertex="A1"]')).not_to_have_attribute("data-stone", "white")
    no_english(lang, black, white)
    shot(white, f"play-{lang}")
    click(white, black, "B2", "white")
    expect(white.locator("#message")).to_be_empty()  # the old refusal goes with the next move
    assert _coordinates_clear(black)


def mark_and_count(black: Any, white: Any, words: dict[str, Any], lang: str) -> None:
    """Black (first to pass) is shown the computer's estimate, keeps its own H8 alive and
    proposes; White marks H8 dead again, so Accept becomes Propose; Black accepts that."""
    pass_by_click(black, words)
    pass_by_click(white, words)
    # (the server loads the computer's kernel when it starts: on a busy machine the first estimate
    # of the session waits for it)
    expect(black.locator('[data-vertex="H8"]')).to_have_attribute("aria-label", DEAD, timeout=180_000)
    assert dead(black, "B2")
    black.locator('[data-vertex="H8"]').click()  # Black's own stone claimed alive
    expect(black.locator('[data-vertex="H8"]')).not_to_have_attribute("aria-label", DEAD)
    black.get_by_role("button", name=words["propose"]).click()
    accept = white.get_by_role("button", name=words["accept"], exact=True)
    expect(accept).to_be_visible()
    assert not dead(white, "H8") and dead(white, "B2")
    white.locator('[data-vertex="H8"]').click()  # defect 1: after an edit, propose, never accept
    expect(accept).to_have_count(0)
    expect(white.locator("#marking")).to_contain_text(words["changed"])
    expect(white.locator('[data-vertex="H8"] .territory.white')).to_be_attached()
    expect(white.locator('[data-vertex="C5"] .territory.black')).to_be_attached()
    no_english(lang, black, white)
    shot(white, f"marking-{lang}")
    white.get_by_role("button", name=words["propose"]).click()
    black.get_by_role("button", name=words["accept"], exact=True).click()
    for page in (black, white):
        expect(page.locator("#status")).to_contain_text(words["margin"])  # White: 27 + 1 + 6.5; Black: 25 + 2
        expect(page.locator("#breakdown")).to_be_visible()
        result = page.locator("#status").inner_text().split(": ", 1)[1]
        assert page.locator("body").inner_text().count(result) == 1  # said once
        expect(page.locator('[data-vertex="H8"] .territory.white')).to_be_attached()
        expect(page.locator('[data-vertex="B2"] .territory.black')).to_be_attached()
    no_english(lang, black, white)
    shot(black, f"final-count-{lang}")


def review_with_mistakes(page: Any, words: dict[str, Any], lang: str) -> None:
    """The review from the game's link: the players named, the analysis's graph and mistakes."""
    page.locator(".links").get_by_role("link", name=words["review"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/r/[\w-]+"))
    guest = words["guest"]
    expect(page.locator("#review-players")).to_have_text(re.compile(rf"^\S+: {guest} \d+ · \S+: {guest} \d+$"))
    page.get_by_role("button", name=words["analyse"]).click()
    expect(page.locator("#winrate-graph circle.graph-dot")).to_have_count(27, timeout=120_000)  # 26 moves and the start
    expect(page.locator("#graph-progress")).to_be_empty(timeout=120_000)  # the mistakes checked again too
    expect(page.locator("#mistakes li").first).to_be_visible()
    no_english(lang, page)
    shot(page, f"review-{lang}", full_page=True)


def phone_through_the_seat_link(new_context: Any, black: Any, words: dict[str, Any], lang: str) -> None:
    """Black's seat moved to a phone with the seat link: the phone plays Black, no wider than itself."""
    black.locator(".seat-link-box summary").click()
    link = black.locator("#seat-link").input_value()
    phone = new_context(words["locale"], viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(link)
    expect(phone.locator(".player.black .name")).to_contain_text(words["you"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    no_english(lang, phone)
    shot(phone, f"play-phone-{lang}", full_page=True)
    phone.close()


@pytest.mark.parametrize("lang", ["es", "it", "pt", "en"])
def test_a_friend_game_from_the_lobby_to_the_review_by_clicks(server_url, new_context, lang):
    words = WORDS[lang]
    black = new_context(words["locale"]).new_page()
    white = new_context(words["locale"]).new_page()
    invite_from_the_lobby(server_url, black, white, lang, words)
    play_the_game(black, white, words, lang)
    if lang == "es":
        phone_through_the_seat_link(new_context, black, words, lang)
    mark_and_count(black, white, words, lang)
    review_with_mistakes(white, words, lang)
