"""``miai serve``: the options, the printed URL, the database from the environment, a clean stop."""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from miai.cli.main import main

SRC = Path(__file__).resolve().parents[2] / "src"


def test_serve_is_a_subcommand_with_its_options(capsys):
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--database", "MIAI_DATABASE_URL", "--redis", "MIAI_REDIS_URL"):
        assert option in out


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--port", "70000"], "--port"),
        (["--database", "mysql://u@h/db"], "mysql"),
        (["--database", "sqlite:///x.db", "--redis", "redis://127.0.0.1:1/0"], "postgresql://"),
    ],
)
def test_bad_options_are_refused_before_starting(args, word, capsys):
    assert main(["serve", *args]) == 2
    assert word in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_it_prints_its_url_takes_the_database_from_the_environment_and_stops_on_sigterm(tmp_path):
    db = tmp_path / "from-env.db"
    env = {
        **os.environ,
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "MIAI_DATABASE_URL": f"sqlite:///{db}",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "miai", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("miai serve: http://127.0.0.1:"), line
        url = line.split()[2]
        created = httpx.post(f"{url}api/games", json={"size": 9}, timeout=10)
        assert created.status_code == 201
        assert httpx.get(url, timeout=10).status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert "stopped" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    ids = [r[0] for r in sqlite3.connect(db).execute("SELECT id FROM games")]
    assert ids == [created.json()["id"]]


def test_a_short_session_secret_is_refused_with_a_message(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MIAI_SECRET", "short")
    assert main(["serve", "--database", str(tmp_path / "x.db")]) == 2
    assert "session secret" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("environ", "platform", "opens"),
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({}, "linux", False),  # a server or SSH session: no browser would reach the person
        ({"DISPLAY": ":0", "CI": "true"}, "linux", False),
        ({}, "darwin", True),
        ({}, "win32", True),
    ],
)
def test_the_page_opens_in_a_browser_only_where_a_person_would_see_it(environ, platform, opens):
    from miai.cli.serve import can_open_browser

    assert can_open_browser(environ, platform) is opens


def test_no_browser_is_an_option(capsys):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    from miai.cli.serve import add_parser

    add_parser(sub)
    assert parser.parse_args(["serve", "--no-browser"]).browser is False
    assert parser.parse_args(["serve"]).browser is True


def test_the_servers_own_log_reaches_stderr_at_the_log_level(capsys):
    """``miai.server``'s lines (the computer ready, games loaded) are written at ``--log-level``
    as uvicorn writes its own, once however often the settings are made."""
    import logging

    from miai.cli.serve import log_server_messages

    logger = logging.getLogger("miai")
    before = list(logger.handlers), logger.level
    try:
        log_server_messages("info")
        log_server_messages("info")
        logging.getLogger("miai.server").info("the computer is ready: in 1.0 s")
        logging.getLogger("miai.server").debug("not at info")
        assert capsys.readouterr().err == "INFO:     the computer is ready: in 1.0 s\n"
    finally:
        logger.handlers[:] = before[0]
        logger.setLevel(before[1])
