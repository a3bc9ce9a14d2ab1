"""Security headers on every answer (headers.py), the page's CSP (pages.py) and the ``Host``
check against DNS rebinding (hosts.py): docs/SERVER.md §5."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from miai.server.web.headers import STRICT_POLICY
from miai.server.web.pages import page_policy
from tests.server.conftest import Table, make_client


def test_every_answer_has_the_security_headers_and_no_referrer(client):
    game = Table(client, size=9)
    for path in ("/", f"/g/{game.id}", "/api/games", f"/api/games/{game.id}", "/static/app.js", "/nowhere"):
        answer = client.get(path)
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert answer.headers["referrer-policy"] == "no-referrer", path
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], path


def test_the_page_may_run_only_its_own_modules_and_talk_only_to_this_server(client):
    page = client.get("/")
    policy = page.headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    inline = re.findall(r'<script type="importmap">(.*?)</script>', page.text)  # the shell's one inline script
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert directives["script-src"] == f"'self' 'sha256-{digest}'"
    assert directives["style-src"] == "'self'" and "unsafe" not in policy
    assert directives["connect-src"] == "'self'" and directives["img-src"] == "'self' data:"
    assert client.get("/api/games").headers["content-security-policy"] == STRICT_POLICY


def test_an_inline_script_of_the_shell_is_allowed_by_its_hash_only():
    script = '{"imports": {"/static/a.js": "/static/a.js?v=1"}}'
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    page = f'<script type="importmap">{script}</script><script type="module" src="/static/app.js"></script>'
    assert f"script-src 'self' 'sha256-{digest}';" in page_policy(page)
    assert "script-src 'self';" in page_policy('<script type="module" src="/static/app.js"></script>')


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.io"])
def test_a_request_for_another_host_name_is_refused(db, host):
    with make_client(db) as client:
        answer = client.get("/api/games", headers={"host": host})
        assert answer.status_code == 400 and answer.json()["error"] == "wrong-host"
        assert answer.headers["x-frame-options"] == "DENY"
        table = Table(client, size=9)
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/ws/game/{table.id}", headers={"host": host}) as ws:
                ws.receive_json()
        assert closed.value.code == 1008


SERVED = ["127.0.0.1:8000", "[::1]:80", "192.0.2.7", "localhost:80", "a.localhost", "go.example.org"]


@pytest.mark.parametrize("host", SERVED)
def test_localhost_ip_addresses_and_the_configured_names_are_served(db, host):
    with make_client(db, allowed_hosts=("testserver", "go.example.org")) as client:
        assert client.get("/api/games", headers={"host": host}).status_code == 200


def test_any_host_is_served_when_the_configuration_says_so(db):
    with make_client(db, allowed_hosts=("*",)) as client:
        assert client.get("/api/games", headers={"host": "anything.example"}).status_code == 200
