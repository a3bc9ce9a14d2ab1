"""Two people play a 9×9 game in two browsers, one in Spanish and one in Italian: the invitation
link, moves by clicking the board, an illegal click explained, a reload and a lost connection in
mid-game, a spectator, both passes, the marking (proposal, counter-proposal, acceptance) and
the same count on both pages, each in its language."""

from __future__ import annotations

import re
from typing import Any

import pytest

expect = pytest.importorskip("playwright.sync_api").expect


# Black walls column D, White walls column F; White's B2 and Black's H8 are dead.
MOVES = "D5 F5 D4 F4 D6 F6 D3 F3 D7 F7 D2 F2 D8 F8 D1 F1 D9 F9 H8 B2".split()


def stone(page: Any, vertex: str, color: str) -> None:
    expect(page.locator(f'[data-vertex="{vertex}"]')).to_have_attribute("data-stone", color)


def test_two_browsers_play_mark_and_count_each_in_its_language(server_url, new_context):
    es = new_context("es-ES")
    it = new_context("it-IT")
    black = es.new_page()
    black.goto(server_url + "/")
    expect(black.locator("html")).to_have_attribute("lang", "es")
    black.get_by_role("button", name="Invitar a un amigo").click()
    link = black.locator("#invite-link").input_value()
    assert re.search(r"/g/[\w-]+\?seat=", link), link
    black.get_by_role("link", name="Ir a la partida").click()
    expect(black.locator('[data-vertex="E5"]')).to_be_visible()
    game_url = black.url
    assert "seat=" not in game_url

    white = it.new_page()
    white.goto(link)
    expect(white.locator("html")).to_have_attribute("lang", "it")
    expect(white.locator('[data-vertex="E5"]')).to_be_visible()
    expect(white).to_have_url(re.compile(r"/g/[\w-]+$"))  # the token left the address bar
    expect(white.locator("#status")).to_contain_text("Tocca al Nero")
    expect(white.locator(".player.white .name")).to_contain_text("(tu)")  # connected, in its seat
    expect(black.locator(".player.black .name")).to_contain_text("(tú)")

    watcher = new_context("en-US").new_page()
    watcher.goto(game_url)
    expect(watcher.get_by_text("You are watching this game.")).to_be_visible()

    pages = {"black": black, "white": white}
    for n, vertex in enumerate(MOVES):
        color = "black" if n % 2 == 0 else "white"
        if n == 6:  # a reload in mid-game loses nothing, and the seat stays
            white.reload()
            for earlier, v in enumerate(MOVES[:6]):
                stone(white, v, "black" if earlier % 2 == 0 else "white")
        if n in (7, 8):  # Black goes offline while White moves, then while Black moves (Chromium holds
            # the socket's frames; test_reconnect.py drops the connection itself)
            es.set_offline(True)
        pages[color].locator(f'[data-vertex="{vertex}"]').click()
        if n == 7:
            stone(white, vertex, "white")
            black.wait_for_timeout(1500)
        if n in (7, 8):
            es.set_offline(False)  # the board catches up; Black's move is sent again until acknowledged
        for page in (black, white, watcher):
            stone(page, vertex, color)
    # the spectator's click does nothing but explain
    watcher.locator('[data-vertex="A1"]').click()
    expect(watcher.locator("#message")).to_contain_text("only its players")
    # an illegal click is explained, in the player's language, with the rule
    black.locator('[data-vertex="F5"]').click()
    expect(black.locator("#message")).to_contain_text("F5 está ocupado")
    expect(black.locator('[data-vertex="F5"]')).to_have_attribute("data-stone", "white")

    black.get_by_role("button", name="Pasar").click()
    black.get_by_role("dialog").get_by_role("button", name="Pasar").click()
    expect(white.locator("#status")).to_contain_text("Tocca a te")
    white.get_by_role("button", name="Passa").click()
    white.get_by_role("dialog").get_by_role("button", name="Passa").click()

    # the marking: Black (the first passer) proposes B2 dead only
    expect(black.locator("#status")).to_contain_text("Negro propone qué piedras están muertas")
    expect(white.locator("#status")).to_contain_text("Pietre morte")

    def dead(page: Any, vertex: str) -> bool:
        label = page.locator(f'[data-vertex="{vertex}"]').get_attribute("aria-label")
        return re.search(r", (muerta|morta)(,|$)", label) is not None  # then the territory it stands in

    def mark(page: Any, vertex: str, want: bool) -> None:
        # the computer's estimate may arrive between a look and a click (it replaces the
        # starting marks until the player's first click): look again after each click
        for _ in range(3):
            if dead(page, vertex) == want:
                break
            page.locator(f'[data-vertex="{vertex}"]').click()
        assert dead(page, vertex) == want

    mark(black, "B2", True)
    mark(black, "H8", False)
    black.get_by_role("button", name="Proponer estas piedras muertas").click()
    expect(white.locator("#status")).to_contain_text("Bianco accetta la proposta")
    assert dead(white, "B2") and not dead(white, "H8")
    # White counter-proposes: Black's H8 is dead too
    mark(white, "H8", True)
    white.get_by_role("button", name="Proponi queste pietre morte").click()  # an edit is proposed, never accepted
    expect(black.locator("#status")).to_contain_text("Negro acepta la contrapropuesta")
    assert dead(black, "H8") and dead(black, "B2")
    black.get_by_role("button", name="Aceptar").click()

    for page, result, words in ((black, "Blanco gana por", ("Territorio", "Komi", "Total", "Piedras muertas")),
                                (white, "Bianco vince di", ("Territorio", "Komi", "Totale", "Pietre morte"))):
        expect(page.locator("#breakdown")).to_be_visible()
        expect(page.locator("#status")).to_contain_text(result)  # the result, said once
        for word in words:
            expect(page.locator("#score")).to_contain_text(word)
    rows_black = black.locator("#breakdown tbody tr td").all_inner_texts()
    rows_white = white.locator("#breakdown tbody tr td").all_inner_texts()
    assert rows_black == rows_white and rows_black
    expect(black.locator("#status")).to_contain_text("Partida terminada")
    expect(white.locator("#status")).to_contain_text("Partita finita")
    expect(watcher.locator("#breakdown")).to_be_visible()
