"""The computer's analysis on the review page in a real browser: Analyse numbers the
candidates on the board and lists them with Black's win rate; the game's analysis fills the
win-rate graph with every position of a short game, and the graph goes to a move when clicked,
or pressed and dragged while the running analysis draws it again."""

from __future__ import annotations

import re

import httpx
import pytest

expect = pytest.importorskip("playwright.sync_api").expect


def _finished_game(server_url: str, moves: list[str], size: int = 9) -> str:
    game = httpx.post(f"{server_url}/api/games", json={"size": size}).json()
    tokens = {"black": game["black_token"], "white": game["white_token"]}
    url = f"{server_url}/api/games/{game['id']}"
    for v, move in enumerate(moves):
        seat = "black" if v % 2 == 0 else "white"
        answer = httpx.post(f"{url}/play", json={"move": move, "v": v}, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert answer.status_code == 200, answer.text
    answer = httpx.post(f"{url}/resign", json={}, headers={"Authorization": f"Bearer {tokens['white']}"})
    assert answer.status_code == 200, answer.text
    return str(game["id"])


def test_analyse_shows_candidates_and_the_graph_goes_to_a_move(server_url, new_context):
    moves = ["E5", "C3", "G3"]
    game_id = _finished_game(server_url, moves)
    page = new_context("en-US").new_page()
    page.goto(f"{server_url}/r/{game_id}")
    expect(page.locator("#move-counter")).to_contain_text("Move 3 of 3")
    page.get_by_role("button", name="Analyse", exact=True).click()
    expect(page.locator("#analysis-status")).to_contain_text(re.compile(r"White to play · Black's win rate: \d+\.\d%"),
                                                             timeout=60_000)
    items = page.locator("#candidates li")
    expect(items.first).to_contain_text(re.compile(r"^[A-J]\d: Black's win rate \d+\.\d% \(visits: [\d,]+\)$"))
    first = items.first.get_attribute("data-move")
    assert first not in moves
    point = page.locator(f'[data-vertex="{first}"]')
    expect(point).to_have_attribute("data-number", "1")
    expect(point).to_have_attribute("aria-label", re.compile("candidate 1"))
    # another move: the candidates belonged to the old position
    page.get_by_role("button", name="Previous move").click()
    expect(page.locator("[data-number]")).to_have_count(0)
    expect(items).to_have_count(0)

    page.get_by_role("button", name="Analyse the game").click()
    dots = page.locator("#winrate-graph circle.graph-dot")
    expect(dots).to_have_count(len(moves) + 1, timeout=90_000)
    expect(page.locator("#graph-button")).to_be_hidden()  # done: kept with the game
    expect(page.locator("#winrate-graph line.graph-half")).to_have_count(1)
    page.locator('#winrate-graph circle[data-move="0"]').click()
    expect(page.locator("#move-counter")).to_contain_text("Start: 3 moves")
    page.locator('#winrate-graph circle[data-move="3"]').click()
    expect(page.locator("#move-counter")).to_contain_text("Move 3 of 3")


def _graph_x(box: dict[str, float], n: int, total: int) -> float:
    """Where move ``n`` of ``total`` lies across the graph's box (graph.js: 40 units of labels on
    the left, 280 of plot, 8 on the right)."""
    return box["x"] + box["width"] * (40 + 280 * n / total) / 328


def test_a_press_on_the_graph_holds_while_the_analysis_draws_it_again(server_url, new_context):
    columns = "ABCDEFGHJKLMNOPQRST"
    moves = [f"{columns[i % 19]}{row}" for i in range(30) for row in ((4, 16) if i < 19 else (6, 14))]
    game_id = _finished_game(server_url, moves, size=19)
    page = new_context("en-US").new_page()
    page.goto(f"{server_url}/r/{game_id}")
    expect(page.locator("#move-counter")).to_contain_text("Move 60 of 60")
    page.get_by_role("button", name="Analyse the game").click()
    dots = page.locator("#winrate-graph circle.graph-dot")
    expect(dots).not_to_have_count(0, timeout=60_000)
    expect(page.locator("#graph-progress")).to_contain_text("Analysing the game")  # still running
    drawn = dots.count()
    box = page.locator("#winrate-graph svg.graph").bounding_box()
    middle = box["y"] + box["height"] / 2
    page.mouse.move(_graph_x(box, 10, 60), middle)
    page.mouse.down()
    expect(page.locator("#move-counter")).to_contain_text("Move 10 of 60")
    expect(dots).not_to_have_count(drawn)  # the graph drawn again under the held button
    page.mouse.move(_graph_x(box, 25, 60), middle, steps=5)  # dragged along the moves
    expect(page.locator("#move-counter")).to_contain_text("Move 25 of 60")
    page.mouse.up()
    page.mouse.move(_graph_x(box, 40, 60), middle)  # released: moving no longer goes anywhere
    page.wait_for_timeout(300)
    expect(page.locator("#move-counter")).to_contain_text("Move 25 of 60")
    # the analysis run to its end: left running, it would hold the shared server's workers and
    # delay the next tests' estimates and replies
    expect(dots).to_have_count(61, timeout=180_000)
    expect(page.locator("#graph-progress")).to_have_text("", timeout=180_000)


def test_the_analysis_speaks_the_pages_language(server_url, new_context):
    game_id = _finished_game(server_url, ["E5"])
    page = new_context("pt-PT").new_page()
    page.goto(f"{server_url}/r/{game_id}")
    page.get_by_role("button", name="Analisar", exact=True).click()
    expect(page.locator("#analysis-status")).to_contain_text("Jogam as Brancas", timeout=60_000)
    expect(page.get_by_role("button", name="Analisar a partida")).to_be_visible()
