"""The GTP loop: read commands from a stream, write responses, flush after each one.

The loop ends on ``quit`` (after answering it) or at the end of the input. Input bytes
that are not UTF-8 are replaced, never fatal; a broken output pipe ends the session
quietly. Tracebacks of bugs go to stderr, so stdout carries nothing but the protocol.

After the first response has been written, a background thread may warm the engine up
(load the compiled kernel, from numba's cache or by compiling it), so that the first
command that needs the board does not wait for the compiler — while the first reply
never waits for anything.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from typing import IO, Any

from miai.gtp.engine import GtpEngine
from miai.gtp.protocol import Command
from miai.gtp.state import Stream


def run(
    engine: GtpEngine,
    stdin: IO[Any] | None = None,
    stdout: IO[Any] | None = None,
    stderr: IO[str] | None = None,
    *,
    warm_up: bool = False,
) -> int:
    """Serve ``engine`` over ``stdin``/``stdout`` (binary or text streams; the process's
    own by default) until ``quit`` or end of input. Returns the exit status (0)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    errors = stderr if stderr is not None else sys.stderr

    def report(command: Command, exc: BaseException) -> None:
        print(f"miai gtp: internal error in {command}:", file=errors)
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=errors)
        errors.flush()

    def log(text: str) -> None:
        print(text, file=errors)
        errors.flush()

    engine.dispatcher.on_exception = report
    engine.log = log
    binary_out = not hasattr(stdout, "encoding")
    warmed = not warm_up
    out: IO[Any] = stdout

    def write(text: str) -> None:
        out.write(text.encode("utf-8") if binary_out else text)
        out.flush()

    pending: str | bytes | None = None
    try:
        while True:
            raw, pending = (stdin.readline(), None) if pending is None else (pending, None)
            if not raw:
                break  # end of input
            line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
            response = engine.handle(line)
            if response is None:
                continue
            stream = engine.stream
            if stream is not None:
                engine.stream = None
                if response.startswith("="):
                    # a streaming response (lz-analyze): lines follow until the next input
                    write(response[:-1])
                    pending = _stream_until_input(stream, write, stdin)
                    write("\n")
                    continue
            write(response)
            if engine.quit_requested:
                break
            if not warmed:
                warmed = True
                _start_warm_up(engine, errors)
    except BrokenPipeError:
        pass  # the controller went away
    except KeyboardInterrupt:
        pass
    return 0


def _stream_until_input(stream: Stream, write: Callable[[str], None], stdin: IO[Any]) -> str | bytes:
    """Run a streaming job in a thread until the next input line arrives; returns that line
    (empty at end of input)."""
    stop = threading.Event()
    lock = threading.Lock()

    def guarded(text: str) -> None:
        with lock:
            if not stop.is_set():
                write(text + "\n")

    thread = threading.Thread(target=stream, args=(guarded, stop.is_set), name="miai-gtp-stream", daemon=True)
    thread.start()
    try:
        raw = stdin.readline()
    finally:
        with lock:
            stop.set()
        thread.join()
    return raw


def _start_warm_up(engine: GtpEngine, errors: IO[str]) -> threading.Thread:
    def work() -> None:
        try:
            engine.warm_up()
        except Exception as exc:  # a failing warm-up must not disturb the session
            try:
                print(f"miai gtp: warm-up failed: {type(exc).__name__}: {exc}", file=errors)
                errors.flush()
            except Exception:
                pass

    thread = threading.Thread(target=work, name="miai-gtp-warm-up", daemon=True)
    thread.start()
    return thread
