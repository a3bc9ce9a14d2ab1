"""The GTP controller against GNU Go and against a scripted engine that misbehaves."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from miai.gtp.controller import (
    GtpCommandFailed,
    GtpController,
    GtpEngineDied,
    GtpEngineError,
    GtpControllerError,
    GtpProtocolError,
    GtpResponse,
    GtpTimeout,
)

FAKE = [sys.executable, str(Path(__file__).with_name("fake_engine.py"))]
GNUGO = "/usr/games/gnugo"
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")

pytestmark = pytest.mark.timeout(60)


def fake(*options: str, **kwargs: object) -> GtpController:
    kwargs.setdefault("timeout", 10.0)
    return GtpController([*FAKE, *options], **kwargs)  # type: ignore[arg-type]


def assert_gone(engine: GtpController) -> None:
    assert engine.returncode is not None
    with pytest.raises(ProcessLookupError):
        os.kill(engine.pid, 0)


# --------------------------------------------------------------------------- GNU Go
@needs_gnugo
def test_gnugo_conversation():
    with GtpController([GNUGO, "--mode", "gtp", "--quiet"], timeout=30) as gg:
        assert gg.name() == "GNU Go"
        assert gg.protocol_version() == "2"
        assert gg.known_command("all_legal")
        assert not gg.known_command("no_such_command")
        assert "genmove" in gg.list_commands()
        gg.send("boardsize 5")
        gg.send("clear_board")
        gg.send("play black C3")
        assert gg.send("list_stones black") == "C3"
        board = gg.send("showboard")
        assert board.splitlines()[0].split() == list("ABCDE")
        assert " X " in board
        with pytest.raises(GtpCommandFailed) as err:
            gg.send("play white C3")
        assert err.value.command == "play white C3"
        assert err.value.text == "illegal move"
        assert "illegal move" in str(err.value)
        # The engine is fine after a refusal.
        assert gg.send_raw("play white Z99") == GtpResponse(False, "invalid color or coordinate", None)
        assert gg.send("captures black") == "0"
    assert gg.closed
    assert gg.returncode == 0


@needs_gnugo
def test_gnugo_with_ids():
    with GtpController([GNUGO, "--mode", "gtp", "--quiet"], use_ids=True) as gg:
        assert gg.send_raw("name") == GtpResponse(True, "GNU Go", 1)
        assert gg.send_raw("boardsize 42").id == 2
        assert gg.send_raw("version").id == 3


@needs_gnugo
def test_gnugo_genmove_and_close():
    gg = GtpController([GNUGO, "--mode", "gtp", "--quiet", "--level", "0"], timeout=60)
    gg.send("boardsize 9")
    move = gg.send("genmove black")
    assert move[0] in "ABCDEFGHJ" and 1 <= int(move[1:]) <= 9
    assert gg.close() == 0
    assert gg.close() == 0  # idempotent
    assert_gone(gg)
    with pytest.raises(GtpEngineError, match="closed"):
        gg.send("name")


# ----------------------------------------------------------------- normal conversation
def test_fake_normal_answers():
    with fake() as e:
        assert e.name() == "Fake"
        assert e.send("echo hello   world") == "hello world"
        assert e.send("multiline") == "line one\nline two\nline three"
        assert e.send("crlf") == "windows"
        assert e.send("big 200") == "y" * 200 * 1024
        assert e.send("count") == "6"


def test_command_failed_is_not_an_engine_error():
    with fake() as e:
        with pytest.raises(GtpCommandFailed) as err:
            e.send("fail")
        assert not isinstance(err.value, GtpEngineError)
        assert isinstance(err.value, GtpControllerError)
        assert err.value.text == "failing on purpose"
        assert e.send_raw("fail") == GtpResponse(False, "failing on purpose")
        assert e.send("echo still alive") == "still alive"


def test_bad_commands_are_refused_before_sending():
    with fake() as e:
        with pytest.raises(ValueError):
            e.send("")
        with pytest.raises(ValueError):
            e.send("name\nquit")
        assert e.send("count") == "1"


def test_ids_round_trip_and_mismatch():
    with fake(use_ids=True) as e:
        assert e.send_raw("echo a") == GtpResponse(True, "a", 1)
        with pytest.raises(GtpProtocolError, match="id 1002"):
            e.send("wrong_id")
        assert e.send_raw("echo b") == GtpResponse(True, "b", 3)


def test_log_hook_sees_the_conversation():
    seen: list[tuple[str, str]] = []
    with fake(log=lambda kind, text: seen.append((kind, text))) as e:
        e.send("echo hi")
    assert ("send", "echo hi") in seen
    assert ("recv", "= hi") in seen


# ------------------------------------------------------------------------ misbehaviour
def test_garbage_is_a_protocol_error_and_the_stream_recovers():
    with fake() as e:
        with pytest.raises(GtpProtocolError) as err:
            e.send("garbage")
        assert err.value.command == "garbage"
        assert err.value.text == "this is not GTP"
        assert e.send("echo after") == "after"


def test_banner_before_the_first_answer_is_a_protocol_error():
    with fake("--banner") as e:
        with pytest.raises(GtpProtocolError, match="Welcome"):
            e.send("name")


def test_hang_times_out_and_close_kills():
    e = fake()
    start = time.monotonic()
    with pytest.raises(GtpTimeout) as err:
        e.send("hang", timeout=0.5)
    elapsed = time.monotonic() - start
    assert 0.45 <= elapsed < 2.0
    assert err.value.timeout == 0.5
    assert err.value.command == "hang"
    assert isinstance(err.value, TimeoutError) and isinstance(err.value, GtpEngineError)
    # The engine is stuck: the next command times out too, and close() kills it quickly.
    with pytest.raises(GtpTimeout):
        e.send("echo x", timeout=0.3)
    start = time.monotonic()
    e.close(grace=0.5)
    assert time.monotonic() - start < 3.0
    assert_gone(e)


def test_late_answer_is_discarded_not_mistaken_for_the_next():
    with fake() as e:
        with pytest.raises(GtpTimeout):
            e.send("sleep 0.6", timeout=0.1)
        # The answer to "sleep" arrives late and must be thrown away.
        assert e.send("echo next", timeout=5) == "next"
        assert e.send("count") == "3"


def test_late_answer_discarded_with_ids():
    with fake(use_ids=True) as e:
        with pytest.raises(GtpTimeout):
            e.send("sleep 0.4", timeout=0.1)
        assert e.send_raw("echo next", timeout=5) == GtpResponse(True, "next", 2)


def test_answer_interrupted_by_timeout_is_resumed():
    with fake() as e:
        assert e.send("echo ready", timeout=10) == "ready"  # started: the timeout below times "half" alone
        with pytest.raises(GtpTimeout) as err:
            e.send("half 2", timeout=0.5)
        assert err.value.text == "= first half"
        assert e.send("echo whole", timeout=5) == "whole"


def test_several_timeouts_in_a_row():
    with fake() as e:
        for _ in range(3):
            with pytest.raises(GtpTimeout):
                e.send("sleep 0.2", timeout=0.05)
        assert e.send("echo caught up", timeout=5) == "caught up"


def test_crash_is_reported_with_exit_code_and_stderr():
    e = fake()
    with pytest.raises(GtpEngineDied) as err:
        e.send("crash")
    assert err.value.returncode == 3
    assert "segmentation fault (pretend)" in err.value.stderr
    assert "segmentation fault" in str(err.value)
    assert not e.alive
    with pytest.raises(GtpEngineDied, match="not running"):
        e.send("name")
    assert e.close() == 3


def test_partial_answer_then_death():
    with fake() as e:
        with pytest.raises(GtpEngineDied) as err:
            e.send("partial")
        assert err.value.text == "= the beginning of an answer"
        assert err.value.returncode == 4


def test_engine_that_dies_at_start():
    e = fake("--die-at-start")
    with pytest.raises(GtpEngineDied) as err:
        e.send("name")
    assert err.value.returncode == 2
    assert "refusing to start" in err.value.stderr
    e.close()


def test_closed_stdout_is_death_even_if_the_process_lives():
    e = fake()
    with pytest.raises(GtpEngineDied, match="closed its output"):
        e.send("close_stdout")
    assert e.returncode is None  # still running...
    e.close(grace=0.3)  # ...until close() kills it
    assert_gone(e)


def test_missing_program():
    with pytest.raises(GtpEngineError, match="cannot start"):
        GtpController(["/nonexistent/engine", "--gtp"])
    with pytest.raises(ValueError):
        GtpController([])
    with pytest.raises(ValueError):
        GtpController("gnugo --mode gtp")  # type: ignore[arg-type]


def test_stderr_flood_does_not_block():
    # 2 MB on stderr, far beyond a pipe's buffer: the engine would block if nobody read it.
    with fake(stderr_lines=5) as e:
        assert e.send("stderr_flood 2048", timeout=20) == "flooded 2048"
        assert e.stderr_tail.count("\n") == 4
        assert e.send("echo ok") == "ok"


def test_a_line_over_the_limit_is_a_protocol_error_and_the_stream_recovers():
    # an engine writing one endless line took the referee to 3.2 GB: lines are bounded
    with fake(max_line_bytes=64 * 1024) as e:
        with pytest.raises(GtpProtocolError, match="a line over 65536 bytes") as err:
            e.send("big 200")
        assert err.value.text.startswith("= yyy") and len(err.value.text) <= 80
        assert e.send("echo after") == "after"
        assert e.send("big 63") == "y" * 63 * 1024


def test_a_response_over_the_limit_is_a_protocol_error_and_the_stream_recovers():
    with fake(max_response_bytes=10_000) as e:
        with pytest.raises(GtpProtocolError, match="a response over 10000 bytes"):
            e.send("lines 500")
        assert e.send("echo after") == "after"
        assert e.send("lines 50").count("\n") == 49


def test_stderr_lines_are_cut_so_the_tail_stays_small():
    with fake(stderr_lines=3, stderr_line_bytes=1000) as e:
        assert e.send("stderr_line 512", timeout=20) == "wrote 512"
        assert e.send("echo ok") == "ok"
        tail = e.stderr_tail
        assert tail.startswith("e" * 1000) and tail.endswith(" [cut]") and len(tail) == 1006


def test_what_the_engine_wrote_on_stderr_before_answering_is_logged_once_settled():
    # the referee reads each move's win rate from stderr; a slow log once let it arrive too late
    logged: list[str] = []

    def slow_log(kind: str, text: str) -> None:
        if kind == "stderr":
            time.sleep(0.01)
            logged.append(text)

    with fake(log=slow_log) as e:
        for i in range(30):
            assert e.send(f"stderr_say rate {i}") == "said"
            e.settle_stderr()
            assert logged[-1] == f"rate {i}"
        assert len(logged) == 30


def test_stderr_lines_split_across_writes_are_joined_and_cut_where_they_are_long():
    with fake(stderr_lines=5, stderr_line_bytes=2048) as e:
        assert e.send("stderr_line 2", timeout=20) == "wrote 2"  # 2048 bytes and the newline: whole
        assert e.send("stderr_line 3", timeout=20) == "wrote 3"
        assert e.send("stderr_say after") == "said"
        e.settle_stderr()
        first, second, third = e.stderr_tail.split("\n")
        assert first == "e" * 2048
        assert second == "e" * 2048 + " [cut]"
        assert third == "after"


def test_an_id_of_thousands_of_digits_is_a_protocol_error():
    for use_ids in (False, True):
        with fake(use_ids=use_ids) as e:
            with pytest.raises(GtpProtocolError, match="an id of 5000 digits"):
                e.send("huge_id")
            assert e.send("echo after") == "after"


def test_a_timeout_that_is_not_a_number_is_refused():
    # nan compares false with every deadline: it used to wait for ever on a hung engine
    with pytest.raises(ValueError, match="finite number of seconds"):
        fake(timeout=math.nan)
    with fake() as e:
        for bad in (math.nan, -1.0, math.inf, "5"):
            with pytest.raises(ValueError, match="finite number of seconds"):
                e.send("hang", timeout=bad)
        assert e.send("echo ok") == "ok"


def test_close_when_quit_is_ignored():
    e = fake("--ignore-quit", "--no-stdin-exit")
    start = time.monotonic()
    e.close(grace=0.3)
    assert time.monotonic() - start < 3.0
    assert_gone(e)


def test_close_when_sigterm_is_ignored():
    e = fake("--ignore-quit", "--ignore-term", "--no-stdin-exit")
    assert e.send("echo armed") == "armed"
    start = time.monotonic()
    e.close(grace=0.2)
    assert time.monotonic() - start < 4.0
    assert_gone(e)


def test_close_while_hanging():
    e = fake("--no-stdin-exit")
    with pytest.raises(GtpTimeout):
        e.send("hang", timeout=0.1)
    e.close(grace=0.2)
    assert_gone(e)


def test_kill():
    e = fake()
    e.kill()
    assert_gone(e)
    assert e.closed


def test_context_manager_closes_on_error():
    with pytest.raises(RuntimeError):
        with fake() as e:
            raise RuntimeError("boom")
    assert e.closed
    assert_gone(e)


def test_threads_share_one_controller():
    with fake() as e:
        results: list[str] = []
        errors: list[BaseException] = []

        def worker(n: int) -> None:
            try:
                for k in range(20):
                    results.append(e.send(f"echo {n}-{k}"))
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert sorted(results) == sorted(f"{n}-{k}" for n in range(4) for k in range(20))


def test_wait_forever_when_timeout_is_none():
    with fake(timeout=None) as e:
        assert e.send("sleep 0.2") == "slept 0.2"


def test_forgotten_controller_kills_its_engine():
    import gc

    e = fake("--no-stdin-exit")
    pid = e.pid
    assert e.send("echo here") == "here"
    del e
    gc.collect()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            waited, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            break  # already reaped
        if waited == pid:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the engine of a forgotten controller still runs")
