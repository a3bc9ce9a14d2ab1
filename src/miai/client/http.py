"""A game's HTTP API on a miai server, as one seat, blocking (the standard library's urllib).

Every answer is its status and its JSON body; a request the server answers 503 (it is busy,
or the game is between owners) or that cannot reach it is sent again, the same request, for
up to a minute: an action carries its action id, so the server never applies it twice.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from miai.client.errors import ClientError
from miai.client.links import GameLink, authorization

__all__ = ["GameApi"]

RETRY_S = 0.5
"""The pause before a request is sent again."""
PATIENCE_S = 60.0
"""How long a request is sent again while the server says 503 or cannot be reached."""


class GameApi:
    """The HTTP API of the game of ``link``, as the seat of ``link.token``."""

    def __init__(self, link: GameLink):
        self.link = link

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """One request to the game's API (``path`` ``""`` for its state, ``/play``... for an
        action): the status and the decoded answer."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.link.api(path), data=data, method=method)
        for name, value in (authorization(self.link.token) if self.link.token else {}).items():
            req.add_header(name, value)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, {"message": str(e)}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """A request, sent again while the server says 503 or cannot be reached (for
        :data:`PATIENCE_S`); status 0 when it never could be."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                status, answer = self.request(method, path, body)
            except (urllib.error.URLError, OSError) as e:
                status, answer = 0, {"message": str(e)}
            if status not in (0, 503) or time.monotonic() > deadline:
                return status, answer
            time.sleep(RETRY_S)

    def state(self) -> dict[str, Any]:
        """The game's state, as its seat sees it; :class:`ClientError` if it cannot be read."""
        status, answer = self.call("GET", "")
        if status != 200:
            raise ClientError(f"the game cannot be read ({status}): {answer.get('message') if answer else ''}")
        return dict(answer)
