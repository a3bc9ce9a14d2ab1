"""The stdin/stdout loop, in-process and as a real ``python -m miai gtp`` subprocess."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import pytest

from miai.gtp.engine import GtpEngine
from miai.gtp.session import run


def serve(text: str | bytes, engine: GtpEngine | None = None) -> tuple[str, str]:
    engine = engine or GtpEngine(size=9)
    data = text.encode() if isinstance(text, str) else text
    out, err = io.BytesIO(), io.StringIO()
    assert run(engine, io.BytesIO(data), out, err) == 0
    return out.getvalue().decode(), err.getvalue()


def test_session_transcript() -> None:
    out, err = serve("1 name\n\n# comment\nprotocol_version\nplay b E5\nplay w E5\nfoo\n2 quit\nname\n")
    assert out == (
        "=1 miai\n\n"
        "= 2\n\n"
        "= \n\n"
        "? illegal move: occupied (E5 is occupied by a black stone)\n\n"
        "? unknown command\n\n"
        "=2 \n\n"
    )  # nothing after quit
    assert err == ""


def test_session_ends_at_end_of_input() -> None:
    out, _ = serve("name\nversion")  # no newline at the end either
    assert out.count("\n\n") == 2


def test_session_with_text_streams() -> None:
    out = io.StringIO()
    run(GtpEngine(), io.StringIO("name\r\nquit\r\n"), out, io.StringIO())
    assert out.getvalue() == "= miai\n\n= \n\n"


def test_session_survives_bad_bytes_and_reports_bugs_on_stderr() -> None:
    engine = GtpEngine(size=9)
    engine.dispatcher.register("boom", lambda args: [][1])
    out, err = serve(b"na\xffme\n\xc3\x28\nboom\nname\n", engine)
    assert out.startswith("? unknown command\n\n? unknown command\n\n? internal error: IndexError")
    assert out.endswith("= miai\n\n")
    assert "Traceback" in err and "IndexError" in err


def test_session_stops_quietly_on_a_broken_pipe() -> None:
    class Broken(io.BytesIO):
        def write(self, data: bytes) -> int:
            raise BrokenPipeError

    assert run(GtpEngine(), io.BytesIO(b"name\nname\n"), Broken(), io.StringIO()) == 0


def test_session_flushes_after_every_response() -> None:
    class Recorder(io.BytesIO):
        flushes = 0

        def flush(self) -> None:
            Recorder.flushes += 1
            super().flush()

    out = Recorder()
    run(GtpEngine(), io.BytesIO(b"name\nversion\n\nprotocol_version\n"), out, io.StringIO())
    assert Recorder.flushes == 3


# ---------------------------------------------------------------------- a real subprocess
class Engine:
    """``python -m miai gtp`` over pipes."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "miai", "gtp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )

    def send(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, f"engine closed its output; stderr: {self.proc.stderr.read().decode() if self.proc.stderr else ''}"
            if line == b"\n":
                return b"".join(lines).decode().rstrip("\n")
            lines.append(line)

    def close(self, timeout: float = 30) -> int | None:
        """Wait for the engine to exit (closing its input first); kill it if it hangs."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        finally:
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream:
                    stream.close()


@pytest.mark.timeout(120, func_only=True)
@pytest.mark.usefixtures("compiled_engine")
def test_subprocess_game_over_pipes() -> None:
    engine = Engine("--size", "9", "--rules", "japanese", "--komi", "0.5")
    try:
        assert engine.send("1 protocol_version") == "=1 2"
        assert engine.send("name") == "= miai"
        assert engine.send("kata-get-rules").startswith('= {"friendlyPassOk":false')
        assert engine.send("boardsize 9") == "= "
        assert engine.send("clear_board") == "= "
        assert engine.send("play b E5") == "= "
        assert engine.send("play w E5").startswith("? illegal move: occupied")
        assert engine.send("fixed_handicap 2") == "? board not empty"
        assert engine.send("final_score") == "= B+79.5"
        board = engine.send("showboard")
        assert board.startswith("= \n  A B C D E F G H J\n9 . . .")
        assert engine.send("undo") == "= "
        assert engine.send("undo") == "? cannot undo"
        assert engine.send("frobnicate b") == "? unknown command"
        assert engine.send("7 quit") == "=7 "
        assert engine.close() == 0
    finally:
        engine.close(timeout=5)


@pytest.mark.timeout(120)
def test_subprocess_exits_at_end_of_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "miai", "gtp", "--no-warm-up"],
        input=b"name\nplay b D4\n",
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout == b"= miai\n\n= \n\n"


@pytest.mark.timeout(120)
def test_subprocess_first_reply_is_quick_even_with_a_cold_numba_cache(tmp_path) -> None:
    """`miai gtp` answers before the kernel is compiled (GUIs give up on silent engines)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    start = time.perf_counter()
    engine = Engine(env=env)
    try:
        assert engine.send("name") == "= miai"
        first = time.perf_counter() - start
        assert engine.send("protocol_version") == "= 2"
        assert engine.send("play b D4") == "= "  # compiles (or waits for the warm-up)
        assert engine.send("quit") == "= "
        assert engine.close() == 0
    finally:
        engine.close(timeout=5)
    assert first < 5.0, f"first reply after {first:.2f}s"


def test_bad_command_line_options() -> None:
    for args in (["--rules", "klingon"], ["--size", "40"], ["--komi", "nan"]):
        proc = subprocess.run(
            [sys.executable, "-m", "miai", "gtp", *args], input=b"name\n", capture_output=True, timeout=60
        )
        assert proc.returncode == 2, args
        assert proc.stdout == b""
        assert b"miai gtp:" in proc.stderr
