"""A small client of a miai server's public API (docs/SERVER.md), for programs that play or
watch its games from outside: ``miai bot`` and the load benchmark's simulated clients.

- :mod:`miai.client.links`: a game's link (server, game, seat token), the URLs of its HTTP API
  and of its WebSocket, the ``Authorization`` header of a seat;
- :mod:`miai.client.http`: the game's HTTP API, blocking, retried while the server says 503;
- :mod:`miai.client.websocket`: the game's WebSocket, its frames, and a connection to it,
  blocking or with asyncio; :func:`~miai.client.websocket.open_seat` connects as a seat.

It speaks only the server's wire protocol and imports nothing of the server: any miai server
will do. Above the core alone.
"""

from miai.client.errors import ClientError
from miai.client.links import GameLink

__all__ = ["ClientError", "GameLink"]
