"""Seat tokens and game ids: secret random strings; only a token's hash is stored.

A seat token has 192 random bits (docs/SERVER.md asks for at least 128) and is shown once, when the
game is created; the database keeps its SHA-256, and a presented token is checked in
constant time. A game id is public (it names the game's page); it is random too, so ids do
not reveal how many games there are.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

__all__ = ["new_token", "hash_token", "token_matches", "new_game_id", "GAME_ID", "FREE_SEAT", "free_seat_marker", "seat_credential"]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id may look like (anything else is not a game)."""
MAX_TOKEN_CHARS = 128
FREE_SEAT = "free:"
"""How the stored hash of an open game's free seat begins (:func:`free_seat_marker`)."""


def new_token() -> str:
    """A new seat token: 32 URL-safe characters that never begin with ``-``, so that it can be
    given as a command's option (``miai bot LINK ENGINE --token TOKEN``) without the command
    line taking it for an option of its own."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored (constant time in the hash)."""
    if not token or stored_hash is None or len(token) > MAX_TOKEN_CHARS:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def free_seat_marker() -> str:
    """What an open game stores in place of its free seat's token hash: ``free:`` and random hex.
    It is not a SHA-256 hex digest, so no token matches it: nobody can act for the seat until
    someone joins and a real token's hash replaces it (docs/SERVER.md §4.1)."""
    return FREE_SEAT + secrets.token_hex(16)


SEAT_CREDENTIAL = "p."
"""How a seat's player's own credential begins (never a token: those are base64 without dots)."""


def seat_credential(key: str, game_id: str, color: str, user_id: int) -> str:
    """The credential of the signed-in player ``user_id`` who holds seat ``color`` of a game: an
    HMAC-SHA256 of the three under the server's secret ``key``. It acts for the seat like its
    token, from any browser where the player is signed in (``GET /api/games/{id}/seat``); nothing
    is stored, every process that shares the secret recognises it, and it names one player of
    one seat of one game."""
    mac = hmac.new(key.encode(), f"miai-seat:{game_id}:{color}:{user_id}".encode(), hashlib.sha256).digest()
    return SEAT_CREDENTIAL + base64.urlsafe_b64encode(mac).decode().rstrip("=")
