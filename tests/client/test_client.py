"""The server's client (:mod:`miai.client`) without a server: links, URLs and frames. Its
connections to a live server are tested by ``miai bot``'s tests (tests/cli/test_bot.py)."""

from __future__ import annotations

import pytest

from miai.client import ClientError, GameLink
from miai.client.links import api_url, authorization, games_url, socket_url
from miai.client.websocket import Frame


def test_a_link_gives_the_server_the_game_and_the_seat_if_it_holds_one():
    assert GameLink.parse("https://go.example/games/abc/") == GameLink("https://go.example", "abc", None)
    link = GameLink.parse("http://h:8000/g/abc?seat=T0K&lang=fr")
    assert link == GameLink("http://h:8000", "abc", "T0K")
    assert link.api("/play") == "http://h:8000/api/games/abc/play"
    assert link.socket(v=7) == "ws://h:8000/ws/game/abc?v=7&token=T0K"


@pytest.mark.parametrize(("url", "word"), [("ftp://h/g/x", "expected http"), ("http://h/x", "/g/ID"), ("http://h/g/", "/g/ID")])
def test_what_is_not_a_game_link_is_refused(url, word):
    with pytest.raises(ClientError, match=word):
        GameLink.parse(url)


def test_the_urls_of_the_api_and_of_a_spectators_socket():
    assert games_url("http://h") == "http://h/api/games"
    assert api_url("http://h", "abc") == "http://h/api/games/abc"
    assert socket_url("http://h", "abc") == "ws://h/ws/game/abc"
    assert socket_url("http://h", "abc", v=0) == "ws://h/ws/game/abc?v=0"
    assert authorization("T0K") == {"Authorization": "Bearer T0K"}


def test_a_frame_reads_back_from_its_text_and_a_message_that_is_none_is_refused():
    assert Frame.read('{"t":"ack","d":{"v":4,"a":"a1"}}') == Frame("ack", {"v": 4, "a": "a1"})
    assert Frame.read(Frame("ping").text()) == Frame("ping", {})
    for text in ("not json", "[1, 2]", '{"d": {}}', '{"t": 3}', '{"t": "event", "d": [1]}'):
        with pytest.raises(ClientError, match="not a frame"):
            Frame.read(text)
