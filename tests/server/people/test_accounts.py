"""Accounts: registering, logging in and out, who a session is; the rules' clear 400s; argon2
hashes stored, never the password, which never reaches a log or an answer."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from hypothesis import given
from hypothesis import strategies as st

from miai.server.errors import BadRequest
from miai.server.people.accounts import (
    WRONG_LOGIN,
    check_password,
    check_username,
    common_passwords,
)
from miai.server.storage.db import open_engine
from tests.server.browsers import Browser

PASSWORD = "correct horse battery"


def register(browser: Browser, username: str, password: str = PASSWORD):
    return browser.post("/api/users", json={"username": username, "password": password})


def login(browser: Browser, username: str, password: str = PASSWORD):
    return browser.post("/api/session", json={"username": username, "password": password})


def stored_users(db: str) -> list:
    async def read():
        engine = open_engine(db)
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT username, username_key, password_hash FROM users"))).all()
        await engine.dispose()
        return rows

    return asyncio.run(read())


def test_register_login_logout_and_me(client):
    browser = Browser(client)
    assert browser.me()["kind"] == "guest"
    answer = register(browser, "Alice")
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"kind": "user", "name": "Alice", "language": None}
    assert browser.me() == {"kind": "user", "name": "Alice", "language": None}

    out = browser.delete("/api/session")
    assert out.status_code == 200 and out.json()["kind"] == "guest"
    assert browser.me()["kind"] == "guest"

    other = Browser(client)
    answer = login(other, "alice")  # any case
    assert answer.status_code == 200 and answer.json() == {"kind": "user", "name": "Alice", "language": None}
    assert other.me() == {"kind": "user", "name": "Alice", "language": None}
    assert browser.me()["kind"] == "guest"  # logging in elsewhere changes nothing here


def test_a_wrong_password_and_an_unknown_user_get_the_same_401(client):
    browser = Browser(client)
    assert register(browser, "bob").status_code == 201
    browser.delete("/api/session")
    wrong = login(browser, "bob", "not the password")
    unknown = login(browser, "nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "unauthorized", "message": WRONG_LOGIN, "reason": "wrong-login"}
    assert browser.me()["kind"] == "guest"


def test_a_username_is_taken_whatever_its_case(client):
    browser = Browser(client)
    assert register(browser, "Carol").status_code == 201
    for name in ("Carol", "carol", "CAROL"):
        answer = register(Browser(client), name)
        assert answer.status_code == 409 and answer.json()["error"] == "conflict"
        assert "taken" in answer.json()["message"] and answer.json()["reason"] == "username-taken"


@pytest.mark.parametrize(
    ("body", "word", "reason"),
    [
        ({"username": "ab", "password": PASSWORD}, "3 to 24", "username-length"),
        ({"username": "x" * 25, "password": PASSWORD}, "3 to 24", "username-length"),
        ({"username": "al ice", "password": PASSWORD}, "letters", "username-characters"),
        ({"username": "_alice", "password": PASSWORD}, "starts", "username-characters"),
        ({"username": "Guest1234", "password": PASSWORD}, "reserved", "username-reserved"),
        ({"username": 5, "password": PASSWORD}, "string", "username-type"),
        ({"username": "dave", "password": "short"}, "8 to 128", "password-length"),
        ({"username": "dave", "password": "x" * 129}, "8 to 128", "password-length"),
        ({"username": "dave", "password": " " * 9}, "spaces", "password-blank"),
        ({"username": "davedave", "password": "DaveDave"}, "username", "password-is-username"),
        ({"username": "dave", "password": "baseball"}, "most common", "password-common"),  # among SecLists' first ten
        ({"username": "dave", "password": "Baseball1"}, "most common", "password-common"),  # whatever its case
        ({"username": "dave", "password": 12345678}, "string", "password-type"),
        ({"username": "dave", "password": PASSWORD, "language": "fr"}, "language", "language"),
        ({"username": "dave"}, "password", None),
        ({"username": "dave", "password": PASSWORD, "email": "x"}, "email", None),
    ],
)
def test_registration_rules_get_clear_400s(client, body, word, reason):
    """Each rule broken is a 400 with an English message and, for the page's words, a reason."""
    answer = Browser(client).post("/api/users", json=body)
    assert answer.status_code == 400, answer.text
    assert word in answer.json()["message"]
    assert answer.json().get("reason") == reason
    password = body.get("password")
    if password is not None:
        assert str(password) not in answer.text


def test_an_account_keeps_the_language_it_chose_and_changes_it(client):
    """The page language chosen at sign-up comes back at every sign-in, and can be changed."""
    browser = Browser(client)
    answer = browser.post("/api/users", json={"username": "Giulia", "password": PASSWORD, "language": "it"})
    assert answer.status_code == 201 and answer.json()["language"] == "it"
    assert browser.me()["language"] == "it"
    changed = browser.patch("/api/me", json={"language": "pt"})
    assert changed.status_code == 200 and changed.json() == {"kind": "user", "name": "Giulia", "language": "pt"}
    assert browser.patch("/api/me", json={"language": "xx"}).json()["reason"] == "language"
    other = Browser(client)
    assert login(other, "giulia").json()["language"] == "pt"
    assert browser.delete("/api/session").status_code == 200
    refused = browser.patch("/api/me", json={"language": "es"})
    assert refused.status_code == 401 and "language" not in browser.me()


def test_login_needs_both_fields_as_strings(client):
    browser = Browser(client)
    assert browser.post("/api/session", json={"username": "x"}).status_code == 400
    assert browser.post("/api/session", json={"username": "x", "password": 5}).status_code == 400
    assert browser.post("/api/session", content=b"not json").status_code == 400


def test_an_argon2_hash_is_stored_never_the_password(client, db):
    assert register(Browser(client), "Erin").status_code == 201
    [(username, key, digest)] = stored_users(db)
    assert (username, key) == ("Erin", "erin")
    assert digest.startswith("$argon2id$") and PASSWORD not in digest
    assert PasswordHasher().verify(digest, PASSWORD)


def test_passwords_never_reach_the_logs(client, caplog):
    secret = "never-log-this-0451"
    with caplog.at_level(logging.DEBUG):
        browser = Browser(client)
        register(browser, "Frank", secret)
        register(Browser(client), "Frank", secret)  # taken
        register(Browser(client), "frank2", "x" + secret * 10)  # too long
        login(browser, "Frank", secret)
        login(browser, "Frank", secret + "wrong")
        login(browser, "nobody", secret)
        browser.post("/api/session", json={"username": "Frank", "password": secret, "extra": 1})
    assert caplog.records  # something was logged at DEBUG (the database, the server)...
    assert not [r for r in caplog.records if secret in r.getMessage() or secret in str(r.args)]
    assert secret not in caplog.text


def test_a_hash_made_with_older_costs_is_replaced_at_login(db):
    from tests.server.conftest import make_client

    with make_client(db, password_time_cost=1, password_memory_kib=1024) as client:
        assert register(Browser(client), "Grace").status_code == 201
    [(_, _, old)] = stored_users(db)
    with make_client(db, password_time_cost=2, password_memory_kib=2048) as client:
        assert login(Browser(client), "Grace").status_code == 200
    [(_, _, new)] = stored_users(db)
    assert new != old and "m=2048,t=2" in new
    assert PasswordHasher().verify(new, PASSWORD)


@given(st.text(max_size=40))
def test_username_rules_refuse_with_a_message_or_accept_a_clean_name(text):
    try:
        name = check_username(text)
    except BadRequest as e:
        assert e.message
    else:
        assert name == text and 3 <= len(name) <= 24 and name.isascii() and " " not in name


PASSWORD_MESSAGES = {
    "a password has 8 to 128 characters",
    "a password cannot be only spaces",
    "the password cannot be the username",
    "this password is one of the 10,000 most common ones, the first an attacker tries: choose another",
}


@given(st.text(min_size=0, max_size=200))
def test_a_refused_password_gets_one_of_a_few_fixed_messages(text):
    """The message never depends on (so never shows) the password."""
    try:
        check_password(text, "someone")
    except BadRequest as e:
        assert e.message in PASSWORD_MESSAGES
    else:
        assert 8 <= len(text) <= 128 and text.strip() and text.lower() != "someone"
        assert text.lower() not in common_passwords()


def test_signing_out_revokes_the_sign_in_wherever_its_cookie_is(client):
    """A signed cookie stayed valid for 30 days after signing out; now the sign-in is a row of
    the database that signing out deletes."""
    alice = Browser(client)
    assert register(alice, "Alice").status_code == 201
    thief = Browser(client)
    thief.cookies = httpx.Cookies(alice.cookies)  # a copy of the cookie
    assert thief.me() == {"kind": "user", "name": "Alice", "language": None}
    assert alice.delete("/api/session").json()["kind"] == "guest"
    assert thief.me()["kind"] == "guest"  # the copy is worth nothing now
    assert login(alice, "Alice").status_code == 200 and alice.me()["kind"] == "user"  # a new sign-in


def test_failed_logins_are_limited_per_account_whatever_the_address(db):
    """60 wrong passwords from 6 addresses in 2 s went through the per-address limit."""
    from starlette.testclient import TestClient

    from miai.server import ServerConfig, create_app
    from tests.server.browsers import with_address

    config = ServerConfig(
        database_url=db, start_workers=False, limit_logins="100/minute", limit_login_failures="10/minute",
        password_time_cost=1, password_memory_kib=1024, allowed_hosts=("testserver",),
    )
    with TestClient(with_address(create_app(config))) as client:
        assert register(Browser(client, "10.0.0.1"), "erin").status_code == 201
        assert register(Browser(client, "10.0.0.1"), "frank").status_code == 201
        for n in range(10):
            assert login(Browser(client, f"10.0.1.{n}"), "erin", "not the password").status_code == 401
        refused = login(Browser(client, "10.0.2.1"), "ERIN")  # the right password waits too
        assert refused.status_code == 429, refused.text
        body = refused.json()
        assert body["limit"] == "account-logins" and "failed logins for this account" in body["message"]
        assert 1 <= body["retry_after"] <= 60 and refused.headers["Retry-After"] == str(body["retry_after"])
        assert login(Browser(client, "10.0.2.1"), "frank").status_code == 200  # another account
