"""A game's link and the addresses of its HTTP API and its WebSocket on a miai server.

A link is what the server hands a player, ``http://HOST:PORT/g/ID?seat=TOKEN``: the server's
base URL, the game's id, and the token of a seat (docs/SERVER.md).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

from miai.client.errors import ClientError

__all__ = ["GameLink", "api_url", "authorization", "games_url", "socket_url"]


@dataclass(frozen=True, slots=True)
class GameLink:
    """A game on a miai server: its base URL (``http://HOST:PORT``), the game's id, and the
    token of the seat the link gives, if it gives one."""

    base: str
    game_id: str
    token: str | None = None

    @classmethod
    def parse(cls, url: str) -> GameLink:
        """The server, game and seat token (if any) of a game's link.

        >>> GameLink.parse("http://127.0.0.1:8000/g/abc?seat=T0K")
        GameLink(base='http://127.0.0.1:8000', game_id='abc', token='T0K')
        """
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ClientError(f"not a game link: {url!r} (expected http://HOST:PORT/g/ID?seat=TOKEN)")
        path = parts.path.rstrip("/").split("/")
        if len(path) < 2 or path[-2] not in ("g", "games") or not path[-1]:
            raise ClientError(f"not a game link: {url!r} (its path should be /g/ID)")
        seat = urllib.parse.parse_qs(parts.query).get("seat", [None])[0]
        return cls(f"{parts.scheme}://{parts.netloc}", path[-1], seat or None)

    def api(self, path: str = "") -> str:
        """The URL of the game's HTTP API, or of one of its actions (``path`` ``/play``...)."""
        return api_url(self.base, self.game_id, path)

    def socket(self, v: int | None = None) -> str:
        """The URL of the game's WebSocket as this link's seat (see :func:`socket_url`)."""
        return socket_url(self.base, self.game_id, token=self.token, v=v)


def games_url(base: str) -> str:
    """The URL of the games of the server at ``base`` (``POST``: create one)."""
    return f"{base}/api/games"


def api_url(base: str, game_id: str, path: str = "") -> str:
    """The URL of game ``game_id``'s HTTP API on the server at ``base``, or of one of its
    actions.

    >>> api_url("http://h:8000", "abc", "/play")
    'http://h:8000/api/games/abc/play'
    """
    return f"{games_url(base)}/{game_id}{path}"


def socket_url(base: str, game_id: str, *, token: str | None = None, v: int | None = None) -> str:
    """The URL of game ``game_id``'s WebSocket on the server at ``base``: as a seat with its
    ``token`` (else as a spectator), and from version ``v`` on (the events after it; else the
    full state).

    >>> socket_url("http://h:8000", "abc", token="T0K", v=3)
    'ws://h:8000/ws/game/abc?v=3&token=T0K'
    >>> socket_url("https://h", "abc")
    'wss://h/ws/game/abc'
    """
    scheme, host = base.split("://", 1)
    query = urllib.parse.urlencode({k: value for k, value in (("v", v), ("token", token)) if value is not None})
    return f"{'wss' if scheme == 'https' else 'ws'}://{host}/ws/game/{game_id}" + (f"?{query}" if query else "")


def authorization(token: str) -> dict[str, str]:
    """The HTTP header that makes a request a seat's (its token, as a bearer)."""
    return {"Authorization": f"Bearer {token}"}
