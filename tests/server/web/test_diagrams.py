"""``GET /api/games/{id}/diagram.svg?moves=A-B``: a numbered figure of a range of moves; a bad
range is a 400 that says what is wrong."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from miai import Game
from miai.render.numbered import move_diagram
from tests.server.conftest import Table


def test_the_figure_is_the_renderers_for_that_range(client):
    game = Table(client, size=9)
    game.moves("E5 C3 D4 pass G7")
    answer = client.get(f"/api/games/{game.id}/diagram.svg", params={"moves": "2-5"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    local = Game(9)
    for v in "E5 C3 D4 pass G7".split():
        local.play(v)
    assert answer.text == move_diagram(local, 2, 5).svg()
    ET.fromstring(answer.text)  # well-formed
    whole = client.get(f"/api/games/{game.id}/diagram.svg")
    assert whole.status_code == 200 and whole.text == move_diagram(local, 1, 5).svg()
    renumbered = client.get(f"/api/games/{game.id}/diagram.svg", params={"moves": "3-", "number": "1"})
    assert renumbered.text == move_diagram(local, 3, 5, first_number=1).svg()


def test_bad_ranges_are_400s_that_say_why(client):
    game = Table(client, size=9)
    empty = client.get(f"/api/games/{game.id}/diagram.svg")
    assert empty.status_code == 400 and "no moves" in empty.json()["message"]
    game.moves("E5 C3")
    for moves, word in (("3-9", "only 2 moves"), ("2-1", "first move"), ("a-b", "not a range"), ("0-1", "first move")):
        answer = client.get(f"/api/games/{game.id}/diagram.svg", params={"moves": moves})
        assert answer.status_code == 400, moves
        assert word in answer.json()["message"], (moves, answer.json())
    assert client.get(f"/api/games/{game.id}/diagram.svg", params={"moves": "1-" + "9" * 40}).status_code == 400
    assert client.get(f"/api/games/{game.id}/diagram.svg", params={"number": "x"}).status_code == 400
    assert client.get(f"/api/games/{game.id}/diagram.svg", params={"size": "3"}).status_code == 400
    assert client.get("/api/games/nope/diagram.svg").status_code == 404
