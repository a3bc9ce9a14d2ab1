"""No English on the Spanish, Italian and Portuguese pages: the lobby with its lists, a game in
play against the computer with a clock, the marking of the dead stones, the count and the review
with a numbered diagram, each page's visible text
(``innerText``, the names of the controls, the tab title) checked against the English texts of
the page's catalogue; numbers as the language writes them, guests and the computer named in it.

The check: a visible text (a line, or a piece of one between `` · `` or ``, ``) that is one
of the catalogue's English texts (its ``{placeholders}`` standing for anything) whose translation
differs is English left on the page. Texts added to the pages are checked as soon as they are
in web.pot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from miai.server.web.texts import LOCALE_DIR, messages

expect = pytest.importorskip("playwright.sync_api").expect

SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
LOCALES = {"es": "es-ES", "it": "it-IT", "pt": "pt-PT"}
WORDS = {  # what each language calls a guest and the computer, how it writes 6.5, a pass in a diagram
    "es": ("Invitado", "miai nivel 1", "komi 6,5", "pase"),
    "it": ("Ospite", "miai livello 1", "komi 6,5", "passaggio"),
    "pt": ("Convidado", "miai nível 1", "komi 6,5", "passe"),
}

VISIBLE_TEXT = """() => {
  const texts = document.body.innerText.split("\\n");
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) texts.push(node.getAttribute(name) || "");
  }
  for (const node of document.querySelectorAll("svg title, option")) texts.push(node.textContent);
  texts.push(document.title);
  return texts.map((t) => t.trim()).filter(Boolean);
}"""


def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English text of the page's catalogue that ``lang`` translates differently, as a
    pattern of a whole visible text (a placeholder matches any text)."""
    with (LOCALE_DIR / "web.pot").open("rb") as f:
        template = read_po(f)
    translated = messages(lang)
    patterns = []
    for message in template:
        if not message.id:
            continue
        ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        key = "\x00".join(ids) if len(ids) > 1 else ids[0]
        theirs = translated.get(key)
        for english in ids:
            if theirs == english or (isinstance(theirs, list) and english in theirs):
                continue  # the same word in that language (Komi, Chat, Total...)
            body = "".join(".+?" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{\w+\})", english))
            patterns.append((english, re.compile(body)))
    return patterns


def english_left(page: Any, lang: str) -> list[str]:
    """The visible texts of ``page`` that are English, and any number written with a point."""
    found = []
    patterns = english_patterns(lang)
    for text in page.evaluate(VISIBLE_TEXT):
        pieces = {text, *re.split(r" · | – |, |: ", text)}
        for piece in pieces:
            piece = piece.strip(" .")
            for english, pattern in patterns:
                if pattern.fullmatch(piece):
                    found.append(f"{text!r} is {english!r}")
        if re.search(r"(?<![\w.])\d+\.\d+(?![\w.])", text):
            found.append(f"{text!r} writes a number the English way")
        if text in ("null", "undefined", "NaN") or re.search(r"\bGuest \d|\bcomputer:\d|\bmiai level\b", text):
            found.append(f"{text!r} names a player in English")
    return found


def act(server_url: str, game: dict[str, Any], seat: str, action: str, **body: object) -> None:
    v = httpx.get(f"{server_url}/api/games/{game['id']}").json()["v"]
    answer = httpx.post(f"{server_url}/api/games/{game['id']}/{action}", json={**body, "v": v},
                        headers={"Authorization": f"Bearer {game[seat + '_token']}"})
    assert answer.status_code == 200, answer.text


def marked_game(server_url: str) -> dict[str, Any]:
    """A 9×9 Japanese game with komi 6.5 played to the count through the API: two walls, Black's
    on column E and White's on F, then two passes, and Black's proposal (no stone dead) that
    White is to answer; counted, Black wins by 36 - 27 - 6.5 = 2.5 points."""
    game = httpx.post(f"{server_url}/api/games", json={"size": 9, "rules": "japanese komi=6.5"}).json()
    moves = [vertex for row in range(1, 10) for vertex in (f"E{row}", f"F{row}")] + ["pass", "pass"]
    for n, move in enumerate(moves):
        act(server_url, game, "black" if n % 2 == 0 else "white", "play", move=move)
    act(server_url, game, "black", "dead", dead=[])  # Black passed first: Black proposes
    return game


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_no_english_is_left_on_the_pages(server_url, new_context, lang):
    guest, computer, komi, a_pass = WORDS[lang]
    open_game = {"size": 13, "rules": "chinese komi=6.5", "handicap": 2, "time": "byoyomi:300:30:3", "open": True}
    opened = httpx.post(f"{server_url}/api/games", json=open_game)
    assert opened.status_code == 201
    page = new_context(LOCALES[lang]).new_page()

    # the lobby: the lists name the computer in the language and write the komi as it does
    page.goto(server_url + "/")
    page.get_by_label(re.compile(".")).first.wait_for()
    expect(page.locator(".me")).to_contain_text(re.compile(rf"^{guest} \d+$"))
    page.locator("#f-time").select_option("byoyomi:300:30:3")
    page.locator("#f-level").select_option("1")
    page.locator("#f-color").select_option("black")
    page.locator(".row button.primary").click()  # play the computer
    expect(page.locator(".player.white .name")).to_contain_text(computer)
    page.locator('[data-vertex="E5"]').click()
    expect(page.locator('[data-stone="white"]')).to_have_count(1, timeout=90_000)
    assert english_left(page, lang) == []
    expect(page).to_have_title(re.compile(r"^miai · \S+ 9×9|^miai · 9×9 \S+"))
    page.screenshot(path=str(SCREENSHOTS / f"game-numbers-{lang}.png"))

    page.goto(server_url + "/")
    expect(page.locator("#live-games")).to_contain_text(computer)
    expect(page.locator("#open-games")).to_contain_text(komi)
    assert english_left(page, lang) == []
    page.screenshot(path=str(SCREENSHOTS / f"lobby-numbers-{lang}.png"), full_page=True)
    joined = httpx.post(f"{server_url}/api/games/{opened.json()['id']}/join", json={})
    assert joined.status_code == 200  # no longer open: the other tests' lobbies never meet it

    # the marking of the dead stones, then the count on the game's page, then its review
    game = marked_game(server_url)
    page.goto(f"{server_url}/g/{game['id']}?seat={game['white_token']}")
    expect(page.locator("#marking button.primary")).to_be_visible()  # White accepts or proposes
    assert english_left(page, lang) == []
    page.locator("#marking button.primary").click()
    expect(page.locator("#breakdown")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("2,5")  # the margin, as the language writes it
    assert english_left(page, lang) == []
    page.screenshot(path=str(SCREENSHOTS / f"count-numbers-{lang}.png"), full_page=True)
    page.goto(f"{server_url}/r/{game['id']}")
    expect(page.locator("#move-counter")).to_be_visible()
    page.locator("#move-slider").fill("8")
    page.locator("#diagram-from").fill("15")
    page.locator("#diagram-to").fill("20")
    page.locator("#diagram-button").click()  # the figure's notes: 19 and 20 are passes
    expect(page.locator(".diagram img")).to_be_visible()
    figure = page.evaluate("decodeURIComponent(document.querySelector('.diagram img').src)")
    assert f">{a_pass}</text>" in figure and ">pass</text>" not in figure
    assert english_left(page, lang) == []
