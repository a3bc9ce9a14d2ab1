"""Accounts: a username and a password, kept as an argon2id hash (never the password).

Rules (each refusal a 400 that says which rule, and never repeats the password):

- a username has 3 to 24 characters: ASCII letters, digits, ``_``, ``.`` and ``-``, starting
  with a letter or a digit; it is unique whatever its case (``Alice`` and ``alice`` are one
  account), and names that would pass for a guest or the server (``guest12``, ``miai``) are
  kept back;
- a password has 8 to 128 characters, not all of them spaces, is not the username, and is not
  one of the 10,000 most common passwords, whatever its case (``password`` was accepted; the
  list is SecLists', MIT: ``data/README.md``).

Hashing and checking run in a thread (``asyncio.to_thread``): argon2 is slow on purpose and
must not hold up the event loop. A login for an unknown username checks the password against
a dummy hash all the same, so the answer takes as long as for a wrong password, and says the
same thing. A hash made with older parameters is replaced at the next successful login.

This module owns the ``users`` table: the only SQL it speaks is about users.
"""

from __future__ import annotations

import asyncio
import functools
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.config import ServerConfig
from miai.server.errors import BadRequest, Conflict, Unauthorized
from miai.server.storage.schema import users
from miai.timesource import TimeSource

__all__ = [
    "Accounts", "AccountReason", "User", "check_username", "check_password", "check_language", "common_passwords",
    "username_key", "LANGUAGES", "WRONG_LOGIN",
]

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
RESERVED = re.compile(r"(guest|anonymous|spectator|computer|admin|miai)[-_.]?[0-9]*", re.IGNORECASE)
MIN_PASSWORD, MAX_PASSWORD = 8, 128
WRONG_LOGIN = "wrong username or password"
"""The one answer to a failed login: it does not tell whether the username exists."""
LANGUAGES = ("en", "es", "it", "pt")
"""The languages an account may choose for the page (those the page has catalogues for)."""


class AccountReason(StrEnum):
    """Why an account request is refused: the ``reason`` of its 400, 401 or 409 answer, which
    the page turns into a sentence in its language (the ``message`` stays English)."""

    USERNAME_TYPE = "username-type"
    USERNAME_LENGTH = "username-length"
    USERNAME_CHARACTERS = "username-characters"
    USERNAME_RESERVED = "username-reserved"
    USERNAME_TAKEN = "username-taken"
    PASSWORD_TYPE = "password-type"
    PASSWORD_LENGTH = "password-length"
    PASSWORD_BLANK = "password-blank"
    PASSWORD_IS_USERNAME = "password-is-username"
    PASSWORD_COMMON = "password-common"
    LANGUAGE = "language"
    WRONG_LOGIN = "wrong-login"


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    language: str | None = None


def username_key(username: str) -> str:
    """The form that makes usernames unique whatever their case."""
    return username.lower()


def check_username(value: Any) -> str:
    """The username, or :class:`BadRequest` saying which rule it breaks."""
    if not isinstance(value, str):
        raise BadRequest("'username' must be a string", reason=AccountReason.USERNAME_TYPE)
    if not 3 <= len(value) <= 24:
        raise BadRequest(f"a username has 3 to 24 characters, not {len(value)}", reason=AccountReason.USERNAME_LENGTH)
    if not USERNAME.fullmatch(value):
        raise BadRequest(
            "a username has only ASCII letters, digits, '_', '.' and '-', and starts with a letter or a digit",
            reason=AccountReason.USERNAME_CHARACTERS,
        )
    if RESERVED.fullmatch(value):
        raise BadRequest(f"the username {value!r} is reserved: choose another", reason=AccountReason.USERNAME_RESERVED)
    return value


def check_password(value: Any, username: str) -> str:
    """The password, or :class:`BadRequest` saying which rule it breaks (never the password)."""
    if not isinstance(value, str):
        raise BadRequest("'password' must be a string", reason=AccountReason.PASSWORD_TYPE)
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise BadRequest(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters", reason=AccountReason.PASSWORD_LENGTH
        )
    if not value.strip():
        raise BadRequest("a password cannot be only spaces", reason=AccountReason.PASSWORD_BLANK)
    if value.lower() == username.lower():
        raise BadRequest("the password cannot be the username", reason=AccountReason.PASSWORD_IS_USERNAME)
    if value.lower() in common_passwords():
        raise BadRequest(
            "this password is one of the 10,000 most common ones, the first an attacker tries: choose another",
            reason=AccountReason.PASSWORD_COMMON,
        )
    return value


def check_language(value: Any) -> str | None:
    """The page language an account chose (one of :data:`LANGUAGES`), None for no choice."""
    if value is None or value in LANGUAGES:
        return value
    raise BadRequest(f"'language' must be one of {', '.join(LANGUAGES)}", reason=AccountReason.LANGUAGE)


@functools.cache
def common_passwords() -> frozenset[str]:
    """The 10,000 most common passwords (package data, read once; ``data/README.md`` says whence)."""
    text = resources.files("miai.server.people").joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line.strip())


_DUMMY: dict[tuple[int, int], str] = {}
"""A hash of a random password per (time, memory) cost: what an unknown username is checked against."""


class Accounts:
    """Registering and checking users in the database behind ``engine``."""

    def __init__(self, engine: AsyncEngine, config: ServerConfig, time: TimeSource):
        self.engine = engine
        self.time = time
        self.hasher = PasswordHasher(
            time_cost=config.password_time_cost, memory_cost=config.password_memory_kib, parallelism=1
        )
        self._cost = (config.password_time_cost, config.password_memory_kib)

    async def register(self, username: Any, password: Any, language: Any = None) -> User:
        """A new account (with the page language it chose, if any); :class:`BadRequest` for a
        rule broken, :class:`Conflict` if the username is taken."""
        name = check_username(username)
        secret = check_password(password, name)
        chosen = check_language(language)
        if await self._find(name) is not None:
            raise Conflict(f"the username {name!r} is taken", reason=AccountReason.USERNAME_TAKEN)
        digest = await asyncio.to_thread(self.hasher.hash, secret)
        row = {
            "username": name,
            "username_key": username_key(name),
            "password_hash": digest,
            "created_ms": self.time.wall_ms(),
            "language": chosen,
        }
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(users.insert().values(row))
                key = result.inserted_primary_key
        except sa.exc.IntegrityError:
            raise Conflict(f"the username {name!r} is taken", reason=AccountReason.USERNAME_TAKEN) from None
        assert key is not None
        return User(int(key[0]), name, chosen)

    async def login(self, username: Any, password: Any) -> User:
        """The user whose password this is; :class:`Unauthorized` otherwise (the same answer
        for an unknown username)."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise BadRequest("'username' and 'password' must be strings")
        if len(username) > 64 or len(password) > MAX_PASSWORD:
            raise Unauthorized(WRONG_LOGIN, reason=AccountReason.WRONG_LOGIN)
        row = await self._find(username)
        stored = row.password_hash if row is not None else await self._dummy()
        try:
            await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise Unauthorized(WRONG_LOGIN, reason=AccountReason.WRONG_LOGIN) from None
        if row is None:  # pragma: no cover - the dummy's password is random and never sent
            raise Unauthorized(WRONG_LOGIN, reason=AccountReason.WRONG_LOGIN)
        if self.hasher.check_needs_rehash(stored):
            digest = await asyncio.to_thread(self.hasher.hash, password)
            async with self.engine.begin() as conn:
                await conn.execute(users.update().where(users.c.id == row.id).values(password_hash=digest))
        return User(int(row.id), str(row.username), row.language)

    async def user(self, user_id: int) -> User | None:
        async with self.engine.connect() as conn:
            query = sa.select(users.c.id, users.c.username, users.c.language).where(users.c.id == user_id)
            row = (await conn.execute(query)).first()
        return User(int(row.id), str(row.username), row.language) if row is not None else None

    async def set_language(self, user_id: int, language: Any) -> None:
        """Change the page language of account ``user_id`` (None: the browser's again)."""
        chosen = check_language(language)
        async with self.engine.begin() as conn:
            await conn.execute(users.update().where(users.c.id == user_id).values(language=chosen))

    async def _find(self, username: str) -> Any:
        async with self.engine.connect() as conn:
            query = sa.select(users).where(users.c.username_key == username_key(username))
            return (await conn.execute(query)).first()

    async def _dummy(self) -> str:
        if self._cost not in _DUMMY:
            _DUMMY[self._cost] = await asyncio.to_thread(self.hasher.hash, secrets.token_urlsafe(16))
        return _DUMMY[self._cost]
