"""What keeps a client from its game, in words for its user."""

from __future__ import annotations

__all__ = ["ClientError"]


class ClientError(Exception):
    """A link that is not a game's, a game that cannot be read, a seat the server refuses."""
