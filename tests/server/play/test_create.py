"""A new game's request (miai.server.play.create): the komi is checked in one place, the rules
core's (:data:`miai.rules.MAX_KOMI`), whether it comes as the ``komi`` field or in the rules'
text; before, ``"rules": "chinese komi=20000"`` was accepted and every count then failed (500)."""

from __future__ import annotations

import pytest

from miai.server.errors import BadRequest
from miai.server.play.create import parse_new_game
from tests.server.conftest import Table


@pytest.mark.parametrize(
    "body",
    [
        {"rules": "chinese komi=20000"},
        {"rules": "komi=-1000.5"},
        {"komi": 20000},
        {"rules": "japanese", "komi": -1001},
    ],
)
def test_a_komi_beyond_1000_is_refused_whatever_it_comes_in(body):
    with pytest.raises(BadRequest, match="komi.*from -1000 to 1000"):
        parse_new_game(body)


def test_the_largest_komi_is_accepted_and_its_game_is_counted(client):
    assert parse_new_game({"rules": "chinese komi=1000"}).spec.rules.komi == 1000
    table = Table(client, size=9, komi=-1000)
    table.moves("pass pass")
    assert table.send("black", "dead", dead=[]).status_code == 200
    answer = table.send("white", "accept")
    assert answer.status_code == 200, answer.text
    assert table.state()["result"] == "B+1000"


@pytest.mark.parametrize("body", [{"komi": 0.5}, {"rules": "chinese komi=5.5"}, {"rules": "japanese", "komi": 7.5}])
def test_a_rated_game_keeps_its_rules_komi_whatever_field_would_change_it(body):
    with pytest.raises(BadRequest, match=r"rated game made here is even, with its rules' komi \((7\.5 under chinese|6\.5 under japanese)\)"):
        parse_new_game({**body, "rated": True})
    assert not parse_new_game(body).rated  # unrated, the same komi is a game like any other
    assert parse_new_game({"rules": body.get("rules", "chinese").split()[0], "rated": True}).rated
