"""Seat tokens: random, never taken for a command-line option, checked by their hash only."""

from __future__ import annotations

import secrets

from miai.server.play import tokens


def test_a_new_token_never_begins_with_a_dash(monkeypatch):
    drawn = iter(["-looks-like-an-option", "also-random"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.new_token() == "also-random"  # the first draw is thrown away


def test_a_token_matches_its_own_hash_only():
    token = tokens.new_token()
    assert len(token) == 32 and not token.startswith("-")
    stored = tokens.hash_token(token)
    assert tokens.token_matches(token, stored)
    assert not tokens.token_matches(tokens.new_token(), stored)
    assert not tokens.token_matches(None, stored) and not tokens.token_matches(token, None)
    assert not tokens.token_matches("x" * (tokens.MAX_TOKEN_CHARS + 1), stored)
