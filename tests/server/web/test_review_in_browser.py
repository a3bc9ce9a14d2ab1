"""The review of an uploaded record in a real browser, as a player uses it, in English and in
Spanish: upload, the permanent link (the move shown kept in it across a reload), the players,
the rules in words, the diagram and SGF links, the game's analysis filling the win-rate graph,
its mistakes (the computer's better move on the board), kept for the next reload, and a
variation tried on the board: the computer's reply, a refused move in words, back to the game;
and a broken record's repairs said in Spanish, Italian and Portuguese."""

from __future__ import annotations

import re

import pytest

from tests.samples import SAMPLES
from tests.server.web.shots import shot
from tests.server.web.visibletext import english_left

expect = pytest.importorskip("playwright.sync_api").expect

RECORD = SAMPLES / "kgs-cgoban3-9x9-utf8-chinese-comments-escapes.sgf"  # 36 moves, MoGoTiTan against teytaud

TEXTS = {
    "en-US": {
        "rules": "9×9 · Chinese rules · komi 6.5", "counter": "Move 34 of 36", "back": "Back to the game",
        "variation": "Variation from move 34: 35. ", "taken": "is taken", "drop": re.compile(r"^-\d+\.\d%$"),
        "half": "50%", "analyse": "Analyse the game",
    },
    "es-ES": {
        "rules": "9×9 · Reglas chinas · komi 6,5", "counter": "Jugada 34 de 36", "back": "Volver a la partida",
        "variation": "Variante desde la jugada 34: 35. ", "taken": "está ocupado", "drop": re.compile(r"^-\d+,\d\s%$"),
        "half": "50\u00a0%", "analyse": "Analizar la partida",
    },
}


@pytest.mark.parametrize("locale", sorted(TEXTS))
def test_upload_link_reload_graph_mistakes_and_a_variation(server_url, new_context, locale):
    texts = TEXTS[locale]
    page = new_context(locale).new_page()
    page.goto(f"{server_url}/review")
    page.locator("#sgf-text").fill(RECORD.read_text("utf-8"))
    page.locator("#review-button").click()
    # the permanent link, at the last move
    expect(page).to_have_url(re.compile(r"/review/[A-Za-z0-9_-]+\?move=36$"))
    review_url = page.url.split("?")[0]
    review_id = review_url.rsplit("/", 1)[1]
    expect(page.locator("#review-players")).to_contain_text("MoGoTiTan")
    expect(page.locator("#review-players")).to_contain_text("teytaud")
    expect(page.locator("#review-rules")).to_have_text(texts["rules"])
    assert page.locator("#download-sgf").get_attribute("href") == f"/api/reviews/{review_id}/sgf"
    page.locator("#diagram-button").click()
    expect(page.locator("#diagram-box img")).to_be_visible()
    assert page.locator("#download-diagram").get_attribute("href").startswith(f"/api/reviews/{review_id}/diagram.svg?moves=1-36")
    # the move shown is in the address: a reload shows it again
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(f"{review_url}?move=34")
    page.reload()
    expect(page.locator("#move-counter")).to_contain_text(texts["counter"])
    # the game's analysis: the graph fills, with its axes and a marker on the move shown
    page.get_by_role("button", name=texts["analyse"]).click()
    dots = page.locator("#winrate-graph circle.graph-dot")
    expect(dots).not_to_have_count(0, timeout=30_000)
    expect(dots).to_have_count(37, timeout=240_000)
    expect(page.locator("#winrate-graph .graph-label").filter(has_text=texts["half"])).to_have_count(1)
    expect(page.locator('#winrate-graph line.graph-marker[data-move="34"]')).to_have_count(1)
    # the mistakes, once checked (the positions around them searched again, which can change
    # the list; the progress line empties when the analysis is done): a fall in the page's
    # numbers; one clicked shows the computer's move
    expect(page.locator("#graph-progress")).to_be_empty(timeout=240_000)
    mistakes = page.locator("#mistakes li")
    expect(mistakes.first).to_be_visible()
    expect(mistakes.first.locator(".drop")).to_have_text(texts["drop"])
    n = int(mistakes.first.locator("button").get_attribute("data-move"))
    page.locator(f'#mistakes button[data-move="{n}"]').click()
    expect(page).to_have_url(f"{review_url}?move={n - 1}")
    expect(page.locator('[data-number="1"]')).to_have_count(1)
    # kept: a reload shows the graph and the mistakes without analysing again
    page.reload()
    expect(dots).to_have_count(37)
    expect(mistakes.first).to_be_visible()
    expect(page.locator("#graph-button")).to_be_hidden()
    # a variation from move 34: a move tried, the computer's reply, then back to the game
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#move-counter")).to_contain_text(texts["counter"])
    empty = page.locator("[data-vertex]:not([data-stone])").first
    vertex = empty.get_attribute("data-vertex")
    stones = page.locator("[data-vertex][data-stone]").count()
    empty.click()
    expect(page.locator("#variation-status")).to_contain_text(texts["variation"] + vertex, timeout=60_000)
    expect(page.locator(f'[data-vertex="{vertex}"]')).to_have_attribute("data-stone", re.compile("black|white"))
    assert page.locator("[data-vertex][data-stone]").count() >= stones + 1
    page.locator(f'[data-vertex="{vertex}"]').click()  # taken: refused, with the rule in words
    expect(page.locator("#variation-status")).to_contain_text(texts["taken"])
    page.get_by_role("button", name=texts["back"]).click()
    expect(page.locator(f'[data-vertex="{vertex}"]')).not_to_have_attribute("data-stone", re.compile("."))
    expect(page.locator("[data-vertex][data-stone]")).to_have_count(stones)
    expect(page).to_have_url(f"{review_url}?move=34")


def test_a_finished_games_review_names_its_players_and_its_handicap(server_url, new_context):
    import httpx

    with httpx.Client(base_url=server_url) as guest:  # a session: the creator's seat takes its name
        me = guest.get("/api/me").json()["name"]
        game = guest.post("/api/games", json={"size": 9, "handicap": 2, "white": "computer:1"}).json()
        answer = guest.post(f"/api/games/{game['id']}/resign", json={},
                            headers={"Authorization": f"Bearer {game['black_token']}"})
        assert answer.status_code == 200, answer.text
    page = new_context("en-US").new_page()
    page.goto(f"{server_url}/r/{game['id']}")
    expect(page.locator("#review-players")).to_have_text(f"Black: {me} · White: miai level 1")
    expect(page.locator("#review-rules")).to_have_text(re.compile(r"^9×9 · Chinese rules · komi \d+(\.5)? · handicap 2$"))
    expect(page).to_have_url(f"{server_url}/r/{game['id']}?move=0")


# A record that needs repairs of several kinds: a stray "]", a long property id, an empty KM, a
# "[tt]" pass, two moves in one node, a move off the board and a ruleset read as the closest preset.
BROKEN = "(;GM[1]FF[4]SZ[9]KM[]RU[Japanese-ish]PlayerBlack[Ana]PW[Bea];B[ee]];W[tt];B[cc]W[dd];B[zz])"
RULES_SAID = {"es": "reglas japonesas", "it": "regole giapponesi", "pt": "regras japonesas"}
REPAIRS_SUMMARY = {"es-ES": "Correcciones", "it-IT": "Correzioni", "pt-PT": "Correções"}


def test_an_uploaded_records_repairs_are_said_in_the_pages_language(server_url, new_context):
    for locale, summary in REPAIRS_SUMMARY.items():
        lang = locale[:2]
        page = new_context(locale).new_page()
        page.goto(f"{server_url}/review")
        page.locator("#sgf-text").fill(BROKEN)
        page.locator("#review-button").click()
        expect(page).to_have_url(re.compile(r"/review/[A-Za-z0-9_-]+"))
        page.get_by_text(summary, exact=True).click()
        repairs = page.locator("details li")
        expect(repairs).to_have_count(7)
        expect(page.locator("details li[lang]")).to_have_count(0)  # none left in English
        assert english_left(page, lang) == []
        texts = repairs.all_inner_texts()
        assert any(t.endswith(RULES_SAID[lang]) for t in texts), texts
        assert not any("skipped" in t or "dropped" in t or "read as" in t for t in texts), texts
        shot(page, f"review-repairs-{lang}", full_page=True)
        page.context.close()
