"""The connection limits of ``miai serve`` (connections.py, docs/SERVER.md §2.2), against a real
server process: they are uvicorn's protocol's, which no in-process test client goes through.
The server runs with short timeouts (1 s) and 4 connections per address; the soak benchmark
(tests/soak/test_hostile_connections.py) runs the same attacks at full size."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn.logging
from websockets.sync.client import connect as connect_ws

from miai.cli.serve import listed, own_names, uvicorn_config
from miai.server import ServerConfig
from miai.server.web.connections import Admission, guarded_http
from miai.server.web.redaction import TokenFilter
from miai.testing.serve import ServeProcess

SRC = Path(__file__).resolve().parents[3] / "src"
PER_ADDRESS = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    folder = tmp_path_factory.mktemp("connections")
    serve = ServeProcess(
        f"sqlite:///{folder / 'c.db'}",
        extra=["--header-timeout", "1", "--body-timeout", "1", "--max-connections-per-address", str(PER_ADDRESS),
               "--log-level", "info"],  # fmt: skip
        env={"PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
        log_path=folder / "serve.log",
        cwd=folder,
    )
    serve.start()
    yield serve
    serve.stop()


def connect(server: ServeProcess, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))
    return sock


def answer_of(sock: socket.socket, within: float = 5.0) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took."""
    start = time.monotonic()
    sock.settimeout(within)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data, time.monotonic() - start


def test_a_header_over_the_limit_is_cut_off_long_before_it_ends(server):
    sock = connect(server)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
    sent = 0
    with pytest.raises((BrokenPipeError, ConnectionResetError)):
        while sent < 100 * 1024 * 1024:  # the server stops reading after 32 KiB and closes
            sock.sendall(b"a" * 65536)
            sent += 65536
    assert sent < 32 * 1024 * 1024  # what the kernel's buffers took, not the server
    sock.close()


def test_a_header_over_the_limit_in_one_read_is_answered_431(server):
    sock = connect(server)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n")
    answer, _ = answer_of(sock)
    assert answer.startswith(b"HTTP/1.1 431 ") and b"32768 bytes" in answer
    sock.close()


HALF_SENT = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n"


@pytest.mark.parametrize("sent", [b"", HALF_SENT], ids=["nothing", "half"])
def test_headers_that_do_not_arrive_in_time_are_a_408_and_the_connection_is_closed(server, sent):
    sock = connect(server)
    sock.sendall(sent)
    answer, took = answer_of(sock)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"within 1 s" in answer
    assert 0.8 < took < 3
    sock.close()


def test_a_header_line_every_half_second_does_not_keep_the_connection_open(server):
    sock = connect(server)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    start = time.monotonic()
    with pytest.raises((BrokenPipeError, ConnectionResetError)):
        for _ in range(10):
            time.sleep(0.5)
            sock.sendall(b"X-Slow: 1\r\n")
    assert time.monotonic() - start < 4  # closed at 1 s; a send or two later the client knows
    sock.close()


def test_a_body_that_does_not_arrive_in_time_closes_the_connection(server):
    sock = connect(server)
    sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"size\"")  # fmt: skip
    answer, took = answer_of(sock)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"body" in answer
    assert 0.8 < took < 3
    sock.close()


def one_response(sock: socket.socket) -> bytes:
    """One whole response (its head and its ``content-length`` of body) from a kept connection."""
    sock.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    fields = dict(line.lower().split(b": ", 1) for line in head.split(b"\r\n")[1:])
    length = int(fields[b"content-length"])
    while len(body) < length:
        body += sock.recv(65536)
    return head


def test_a_request_on_time_is_served_and_the_connection_kept_for_the_next(server):
    sock = connect(server)
    for _ in range(2):
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert one_response(sock).startswith(b"HTTP/1.1 200 ")
        time.sleep(0.6)  # idle between requests is the keep-alive's, not the header timeout's
    sock.close()


def test_connections_from_one_address_beyond_the_limit_are_refused_and_others_still_served(server):
    held = [connect(server) for _ in range(PER_ADDRESS)]
    try:
        time.sleep(0.2)
        extra = connect(server)
        answer, took = answer_of(extra)
        assert answer.startswith(b"HTTP/1.1 429 ") and b"at most 4" in answer and took < 1
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=5)
        assert other.get(server.base + "/api/games").status_code == 200
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    assert httpx.get(server.base + "/api/games", timeout=5).status_code == 200


def test_no_server_header_forwarded_addresses_ignored_and_tokens_not_logged(server):
    answer = httpx.get(server.base + "/api/games?x=1", headers={"X-Forwarded-For": "203.0.113.9"}, timeout=5)
    assert "server" not in answer.headers
    httpx.get(server.base + "/g/abcdefgh?seat=SEAT-SECRET-1", timeout=5)
    try:
        with connect_ws(server.base.replace("http", "ws") + "/ws/game/abcdefgh?token=WS-SECRET-2&v=0") as ws:
            ws.recv(timeout=5)
    except Exception:  # no such game: refused or closed, either way logged
        pass
    server.proc.terminate()  # the access log is on its standard output, read to its end
    log = server.proc.stdout.read() + (server.log_path.read_text() if server.log_path else "")
    server.stop()
    assert '127.0.0.1:' in log and "GET /api/games?x=1" in log and "203.0.113.9" not in log
    assert "seat=[redacted]" in log and "token=[redacted]" in log
    assert "SECRET" not in log
    assert "Traceback" not in log and "internal error" not in log  # a late body is no crash
    server.start()


def test_uvicorn_is_told_to_believe_forwarded_addresses_from_the_trusted_proxies_only():
    args = argparse.Namespace(host="127.0.0.1", port=0, log_level="warning")
    plain = ServerConfig()
    behind = ServerConfig(trusted_proxies=("127.0.0.1", "10.0.0.0/8"))
    assert uvicorn_config(object(), guarded_http(plain), args, plain).proxy_headers is False
    config = uvicorn_config(object(), guarded_http(behind), args, behind)
    assert config.proxy_headers is True and config.forwarded_allow_ips == ["127.0.0.1", "10.0.0.0/8"]
    assert config.server_header is False and config.limit_concurrency == behind.max_connections


def test_the_machines_name_and_the_name_listened_on_are_the_servers_own():
    machine = socket.gethostname().lower()
    assert machine in own_names("127.0.0.1") and "0.0.0.0" not in own_names("0.0.0.0")
    assert "go.example.lan" in own_names("go.example.lan")
    assert listed(["127.0.0.1, 10.0.0.0/8", "::1"]) == ("127.0.0.1", "10.0.0.0/8", "::1")


def test_a_trusted_proxy_is_not_counted_per_address_and_no_limits_means_no_count():
    behind = Admission(ServerConfig(trusted_proxies=("10.0.0.0/8",), max_connections_per_address=1))
    assert behind.counted("10.1.2.3") is None and behind.counted("192.0.2.1") == "192.0.2.1"
    assert behind.refusal("192.0.2.1", 1) is None
    assert behind.refusal("192.0.2.1", 2) == (429, "too many connections from your address: at most 1 at once")
    behind.release("192.0.2.1")
    assert behind.refusal("192.0.2.1", 2) is None
    assert Admission(ServerConfig(rate_limits=False)).counted("192.0.2.1") is None
    assert Admission(ServerConfig(max_connections=2)).refusal(None, 3)[0] == 503


def test_the_access_log_filter_keeps_uvicorns_format_and_redacts_the_tokens():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/g/abc?seat=SECRET&v=2", "1.1", 200), None)  # fmt: skip
    assert TokenFilter().filter(record)
    text = uvicorn.logging.AccessFormatter("%(message)s", use_colors=False).format(record)
    assert text == '127.0.0.1:5 - "GET /g/abc?seat=[redacted]&v=2 HTTP/1.1" 200'
