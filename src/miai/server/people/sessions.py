"""Sessions: who a browser is — a guest with a made-up name, or a signed-in user.

Every browser gets a session cookie, signed with the server's secret (Starlette's
``SessionMiddleware``, which signs with itsdangerous; ``HttpOnly``, ``SameSite=Lax``, ``Secure``
when ``ServerConfig.https_only``). It holds only ``id`` (``g:RANDOM`` for a guest, ``u:N`` for
user N) and ``name`` (``Guest 4821``, or the username), and for a user ``sid``, the token of its
sign-in, checked on every request (signins.py: signing out revokes it): no sign-up is needed to play. A cookie
whose signature does not match (tampered with, or signed with another secret) or whose content
is not one of ours is ignored: the browser becomes a new guest, never an error.

A session is an identity for names and accounts. It never takes a seat: seats are taken by
their tokens alone (docs/SERVER.md §1.3); a signed-in player who has used a seat's token gets
its credential in any browser (§6, web/profiles.py).

The secret: ``ServerConfig.secret``, else ``MIAI_SECRET``, else a random one made the first
time and kept in a file (mode 0600) next to the SQLite database — ``miai.db.secret`` — or, for
another database, in the user data directory, so that cookies survive restarts. Several
processes on several machines must share one secret: set ``MIAI_SECRET``. An in-memory SQLite
database gets a secret for this process only (its games do not outlive it either).
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.errors import MiaiError
from miai.server.config import SECRET_ENV, ServerConfig
from miai.server.people.signins import SignInCheck, SignIns

__all__ = [
    "Who",
    "who",
    "new_guest",
    "sign_in",
    "sign_in_token",
    "resolve_secret",
    "middleware",
    "SecretError",
    "COOKIE",
]

COOKIE = "miai_session"
MIN_SECRET_CHARS = 16
_ID = re.compile(r"(g:[A-Za-z0-9_-]{8,40}|u:[0-9]{1,18})")
MAX_NAME_CHARS = 40


class SecretError(MiaiError, ValueError):
    """The signing secret cannot be used (too short, or its file cannot be read)."""


@dataclass(frozen=True, slots=True)
class Who:
    """A session's identity: ``id`` (``g:...`` or ``u:N``) and the display ``name``."""

    id: str
    name: str

    @property
    def is_user(self) -> bool:
        return self.id.startswith("u:")

    @property
    def user_id(self) -> int | None:
        return int(self.id[2:]) if self.is_user else None

    def to_json(self) -> dict[str, Any]:
        return {"kind": "user" if self.is_user else "guest", "name": self.name}


def _session(conn: HTTPConnection | Scope) -> dict[str, Any] | None:
    scope = conn.scope if isinstance(conn, HTTPConnection) else conn
    session = scope.get("session")
    return session if isinstance(session, dict) else None


def who(conn: HTTPConnection | Scope) -> Who | None:
    """The identity of the request's or WebSocket's session, or None (no valid cookie)."""
    session = _session(conn)
    if not session:
        return None
    ident, name = session.get("id"), session.get("name")
    if not isinstance(ident, str) or not _ID.fullmatch(ident):
        return None
    if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
        return None
    return Who(ident, name)


def new_guest(conn: HTTPConnection | Scope) -> Who:
    """Make the session a new guest (``Guest 4821``) and return it."""
    session = _session(conn)
    if session is None:
        raise RuntimeError("no session: the SessionMiddleware is not installed")
    guest = Who(f"g:{secrets.token_urlsafe(12)}", f"Guest {1000 + secrets.randbelow(9000)}")
    session.clear()
    session.update(id=guest.id, name=guest.name)
    return guest


def sign_in(conn: HTTPConnection, user_id: int, username: str, sid: str) -> Who:
    """Make the session user ``user_id``'s (after a login or a registration), with the token
    ``sid`` of its sign-in (signins.py: signing out revokes it)."""
    session = _session(conn)
    if session is None:
        raise RuntimeError("no session: the SessionMiddleware is not installed")
    user = Who(f"u:{user_id}", username)
    session.clear()
    session.update(id=user.id, name=user.name, sid=sid)
    return user


def sign_in_token(conn: HTTPConnection) -> str | None:
    """The token of the session's sign-in, if it is a signed-in user's."""
    session = _session(conn)
    token = session.get("sid") if session else None
    return token if isinstance(token, str) else None


class GuestMiddleware:
    """ASGI middleware (inside the session's): a browser's page or API read without a valid
    identity becomes a new guest, so every browser has a name before it creates or joins a game.
    Requests with ``Authorization`` (programs acting for a seat) are left as they are."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in ("GET", "HEAD")
            and "authorization" not in Headers(scope=scope)
            and who(scope) is None
        ):
            new_guest(scope)
        await self.app(scope, receive, send)


# ---------------------------------------------------------------------- the secret
def _secret_file(database_url: str) -> Path | None:
    """Where the secret is kept: next to a SQLite file, else in the user data directory;
    None for an in-memory database."""
    url = sa.make_url(database_url if "://" in database_url else f"sqlite:///{Path(database_url).expanduser()}")
    if url.get_backend_name() == "sqlite":
        if url.database in (None, "", ":memory:"):
            return None
        db = Path(url.database)
        return db.with_name(db.name + ".secret")
    from platformdirs import user_data_dir

    return Path(user_data_dir("miai", appauthor=False)) / "session.secret"


def _read_or_make(path: Path) -> str:
    """The secret in ``path``, made (atomically, mode 0600) if the file does not exist."""
    try:
        _make(path)
    except OSError as e:
        raise SecretError(f"cannot make the session secret in {path}: {e}") from None
    try:
        secret = path.read_text().strip()
    except OSError as e:
        raise SecretError(f"cannot read the session secret in {path}: {e}") from None
    if len(secret) < MIN_SECRET_CHARS:
        raise SecretError(f"the session secret in {path} is shorter than {MIN_SECRET_CHARS} characters")
    return secret


def _make(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(32) + "\n")
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(temp, path)  # fails if another process made it first: then theirs is used
            except FileExistsError:
                pass
        finally:
            temp.unlink(missing_ok=True)


def resolve_secret(config: ServerConfig) -> str:
    """The secret that signs the session cookies (see the module's docstring)."""
    secret = config.secret or os.environ.get(SECRET_ENV)
    if secret is not None:
        if len(secret) < MIN_SECRET_CHARS:
            raise SecretError(f"the session secret must have at least {MIN_SECRET_CHARS} characters")
        return secret
    path = _secret_file(config.resolved_database_url())
    if path is None:
        return secrets.token_urlsafe(32)
    return _read_or_make(path)


def middleware(config: ServerConfig, signins: SignIns) -> list[Middleware]:
    """The session cookie's middleware, the sign-ins' check and the guests' (in this order:
    outer first)."""
    return [
        Middleware(
            SessionMiddleware,
            secret_key=resolve_secret(config),
            session_cookie=COOKIE,
            max_age=config.session_max_age_s,
            same_site="lax",
            https_only=config.https_only,
        ),
        Middleware(SignInCheck, signins=signins),
        Middleware(GuestMiddleware),
    ]
