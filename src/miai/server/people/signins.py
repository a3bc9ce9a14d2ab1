"""Sign-ins that signing out revokes: a signed-in session's cookie holds a random token (``sid``)
whose SHA-256 is a row of ``sign_ins`` while the sign-in is valid.

A signed cookie alone stayed valid for 30 days after signing out: anyone holding a copy was
still the user. Now every request of a signed-in session is checked against the table
(:class:`SignInCheck`, a primary-key read); signing out deletes the row, and a session whose
row is gone (or older than ``session_max_age_s``, or a cookie from before sign-ins were
kept) is a guest's again. This module owns the ``sign_ins`` table.
"""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.server.storage.schema import sign_ins
from miai.timesource import SYSTEM_TIME, TimeSource

__all__ = ["SignIns", "SignInCheck", "SID"]

SID = "sid"
"""The session cookie's key for the sign-in's token."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SignIns:
    """The sign-ins in the database, once :meth:`bind` gave it (at start-up)."""

    def __init__(self, max_age_s: int):
        self.max_age_ms = max_age_s * 1000
        self.engine: AsyncEngine | None = None
        self.time: TimeSource = SYSTEM_TIME

    def bind(self, engine: AsyncEngine, time: TimeSource) -> None:
        self.engine, self.time = engine, time

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("the sign-ins have no database yet: bind() them at start-up")
        return self.engine

    async def open(self, user_id: int) -> str:
        """A new sign-in of ``user_id``: the token for its cookie (only its hash is kept). The
        user's expired sign-ins are deleted on the way."""
        token = secrets.token_urlsafe(32)
        now = self.time.wall_ms()
        async with self._engine().begin() as conn:
            await conn.execute(
                sign_ins.delete().where(sign_ins.c.user_id == user_id, sign_ins.c.created_ms < now - self.max_age_ms)
            )
            await conn.execute(sign_ins.insert().values(id=_digest(token), user_id=user_id, created_ms=now))
        return token

    async def valid(self, user_id: int, token: str) -> bool:
        """Whether ``token`` is a sign-in of ``user_id`` not revoked and not expired."""
        query = sa.select(sign_ins.c.created_ms).where(sign_ins.c.id == _digest(token), sign_ins.c.user_id == user_id)
        async with self._engine().connect() as conn:
            created = await conn.scalar(query)
        return created is not None and created >= self.time.wall_ms() - self.max_age_ms

    async def revoke(self, token: str) -> None:
        """Sign out: the sign-in of ``token`` is valid no more, wherever its cookie is."""
        async with self._engine().begin() as conn:
            await conn.execute(sign_ins.delete().where(sign_ins.c.id == _digest(token)))


class SignInCheck:
    """ASGI middleware (inside the session's): a session that names a user without a valid
    sign-in (revoked, expired, or none) is emptied, so the request is a guest's."""

    def __init__(self, app: ASGIApp, signins: SignIns):
        self.app = app
        self.signins = signins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session") if scope["type"] in ("http", "websocket") else None
        if isinstance(session, dict) and str(session.get("id", "")).startswith("u:") and self.signins.engine is not None:
            token, ident = session.get(SID), str(session["id"])[2:]
            ok = isinstance(token, str) and ident.isdigit() and len(ident) <= 18
            if not ok or not await self.signins.valid(int(ident), str(token)):
                session.clear()
        await self.app(scope, receive, send)
