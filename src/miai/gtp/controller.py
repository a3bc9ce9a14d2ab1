"""Drive an external GTP engine (GNU Go, KataGo, Leela Zero, another miai) over pipes.

:class:`GtpController` starts the engine from a command line, sends one command at a time and
reads its response with a timeout::

    with GtpController(["/usr/games/gnugo", "--mode", "gtp", "--quiet"]) as engine:
        engine.send("boardsize 9")
        engine.send("play black E5")
        vertex = engine.send("genmove white", timeout=30)

How it stays safe with engines that misbehave:

* Two daemon threads read the engine's stdout and stderr all the time, so neither pipe can fill
  up and block the engine (stderr is kept as a bounded tail for error messages); a third writes
  the commands, so a writer blocked on an engine that has stopped reading cannot block the caller.
  :meth:`GtpController.settle_stderr` makes sure what the engine wrote on stderr before an
  answer has been logged (a referee reads the engine's win rate there).
* Memory is bounded whatever the engine writes: a stdout line over ``max_line_bytes`` or a
  response over ``max_response_bytes`` is a :class:`GtpProtocolError` (the rest of the line is
  read and thrown away), stderr lines are cut at ``stderr_line_bytes`` and only the last
  ``stderr_lines`` are kept, and at most a few thousand stdout lines wait to be read.
* Every wait has a deadline. A response that does not arrive in time raises :class:`GtpTimeout`;
  the response is still owed, and it is recognised and thrown away when it arrives later (GTP
  engines answer in order), so the next command gets its own answer.
* A process that exits, or closes its stdout, raises :class:`GtpEngineDied` with its exit code
  and the end of its stderr; a response that is not GTP raises :class:`GtpProtocolError`.
* :meth:`GtpController.close` sends ``quit``, waits a grace period, then terminates and kills
  the engine (and its process group, so a wrapper script's children go too).

Errors: :class:`GtpCommandFailed` (the engine answered ``? message``: the engine works, it
refused the command) is apart from :class:`GtpEngineError` (the engine itself failed: it is
dead, silent or speaks garbage; a referee forfeits such an engine). Both derive from
:class:`GtpControllerError`, which carries the command, the engine's text and the tail of its
stderr. (:class:`miai.gtp.protocol.GtpError` is another thing: the serving side's way to
answer ``?``.)
"""

from __future__ import annotations

import collections
import math
import os
import queue
import re
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO

from miai.errors import MiaiError

__all__ = [
    "GtpCommandFailed",
    "GtpController",
    "GtpEngineDied",
    "GtpEngineError",
    "GtpControllerError",
    "GtpProtocolError",
    "GtpResponse",
    "GtpTimeout",
]

DEFAULT_TIMEOUT = 30.0
"""Seconds :meth:`GtpController.send` waits for a response unless told otherwise."""
MAX_LINE_BYTES = 1 << 20
"""The longest stdout line an engine may write (1 MiB; KataGo's analysis lines are a few KiB)."""
MAX_RESPONSE_BYTES = 16 << 20
"""The longest response (all its lines) an engine may write."""
STDERR_LINE_BYTES = 4096
"""Where a stderr line is cut for the tail kept for error messages."""
MAX_ID_DIGITS = 18
"""A response id longer than this is not one the controller sent (ids fit in 64 bits)."""
_QUEUED_LINES = 4096
"""Stdout lines waiting to be read; beyond, the reader waits (and so does the engine)."""

_RESPONSE_START = re.compile(r"^([=?])(\d*)(?:\s(.*))?$", re.DOTALL)
_EOF = None  # the reader threads' end-of-stream marker


def _check_timeout(timeout: object) -> float | None:
    """A timeout in seconds: None (for ever) or a finite number >= 0 (a nan would never end)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout < math.inf:
        raise ValueError(f"a timeout must be None or a finite number of seconds >= 0, not {timeout!r}")
    return float(timeout)


@dataclass(frozen=True, slots=True)
class _Overlong:
    """Put by the stdout reader in place of a line over the limit (the rest is thrown away)."""

    head: str
    limit: int


class GtpControllerError(MiaiError):
    """Something went wrong with a GTP command.

    ``command`` is the command line that was sent (None before any command, e.g. at start-up),
    ``text`` what the engine said (the failure message, the malformed response or the partial
    output), ``stderr`` the last lines the engine wrote on stderr, ``returncode`` its exit code
    once it has exited.
    """

    def __init__(
        self,
        message: str,
        *,
        command: str | None = None,
        text: str = "",
        stderr: str = "",
        returncode: int | None = None,
    ):
        self.command = command
        self.text = text
        self.stderr = stderr
        self.returncode = returncode
        details = [message]
        if command is not None:
            details.append(f"command: {command!r}")
        if text:
            details.append(f"engine said: {text!r}")
        if returncode is not None:
            details.append(f"exit code: {returncode}")
        if stderr:
            details.append("engine stderr (last lines):\n" + stderr)
        super().__init__("\n".join(details))


class GtpCommandFailed(GtpControllerError):
    """The engine answered ``? message``: it refused the command (an illegal move, an unknown
    command...). ``text`` is the message."""


class GtpEngineError(GtpControllerError):
    """The engine itself is at fault: it could not be started, died, hung or spoke garbage."""


class GtpTimeout(GtpEngineError, TimeoutError):
    """No complete response within the time allowed. ``timeout`` is that time in seconds;
    ``text`` holds any part of the response that had arrived."""

    def __init__(self, message: str, *, timeout: float, **kwargs: object):
        self.timeout = timeout
        super().__init__(message, **kwargs)  # type: ignore[arg-type]


class GtpEngineDied(GtpEngineError):
    """The engine's process exited or closed its output (``returncode`` says how, if known)."""


class GtpProtocolError(GtpEngineError):
    """The engine's output is not a GTP response (no ``=`` or ``?``, a wrong id, a line or a
    response too long to be one...)."""


@dataclass(frozen=True, slots=True)
class GtpResponse:
    """One response: success or failure, its id (None if the engine gave none) and its text."""

    ok: bool
    text: str
    id: int | None = None


class GtpController:
    """A running GTP engine, driven over its stdin and stdout.

    ``argv`` is the command line (a list; no shell). ``timeout`` is the default time in seconds
    allowed for each response (None waits for ever). With ``use_ids`` every command is sent
    with an increasing numeric id and the response must carry the same one. ``stderr_lines``
    is how many of the engine's last stderr lines are kept for error messages, each cut at
    ``stderr_line_bytes``; ``max_line_bytes`` and ``max_response_bytes`` bound what one stdout
    line and one response may hold (beyond: :class:`GtpProtocolError`). ``log``, if
    given, is called as ``log(kind, text)`` with kind ``"send"``, ``"recv"`` or ``"stderr"``
    (from the reader thread for stderr). ``cwd`` and ``env`` are passed to the process.

    Raises :class:`GtpEngineError` if the program cannot be started. One controller may be
    shared between threads: commands are serialised.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        use_ids: bool = False,
        stderr_lines: int = 100,
        stderr_line_bytes: int = STDERR_LINE_BYTES,
        max_line_bytes: int = MAX_LINE_BYTES,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        log: Callable[[str, str], None] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ):
        if isinstance(argv, (str, bytes)) or not argv:
            raise ValueError("argv must be a non-empty list of strings (the engine's command line)")
        self.argv = [os.fspath(a) for a in argv]
        self.timeout = _check_timeout(timeout)
        if min(stderr_line_bytes, max_line_bytes, max_response_bytes) < 1:
            raise ValueError("the output limits must be at least 1 byte")
        self.max_line_bytes = max_line_bytes
        self.max_response_bytes = max_response_bytes
        self.use_ids = use_ids
        self._log = log
        self._lock = threading.RLock()
        self._next_id = 1
        self._owed = 0  # responses owed by the engine (those of timed-out commands are thrown away)
        self._partial: list[str] = []  # lines of a response interrupted by a timeout
        self._closed = False
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=max(1, stderr_lines))
        self._stdout: queue.Queue[str | _Overlong | None] = queue.Queue(maxsize=_QUEUED_LINES)
        self._stop_reading = threading.Event()  # set at close: a reader waiting on a full queue gives up
        self._stdout_eof = False
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        self._write_errors: list[BaseException] = []  # filled by the writer thread
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=os.name == "posix",  # its own process group: Ctrl-C is ours, kill takes all
            )
        except OSError as exc:
            raise GtpEngineError(f"cannot start engine {self.argv!r}: {exc}") from exc
        name = os.path.basename(self.argv[0])
        proc = self._proc
        assert proc.stderr is not None
        self._stderr = _StderrReader(proc.stderr, self._stderr_tail, log, stderr_line_bytes, self._stop_reading)
        self._threads = [
            threading.Thread(
                target=_pump_stdout,
                args=(proc.stdout, self._stdout, max_line_bytes, self._stop_reading),
                name=f"gtp-stdout-{name}",
                daemon=True,
            ),
            threading.Thread(
                target=self._stderr.pump,
                name=f"gtp-stderr-{name}",
                daemon=True,
            ),
            threading.Thread(
                target=_pump_stdin, args=(proc.stdin, self._writes, self._write_errors), name=f"gtp-stdin-{name}",
                daemon=True,
            ),
        ]
        for thread in self._threads:
            thread.start()

    # ------------------------------------------------------------------ state
    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The engine's exit code, or None while it runs."""
        return self._proc.poll()

    @property
    def alive(self) -> bool:
        """True while the process runs and its output is open."""
        return self._proc.poll() is None and not self._stdout_eof

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def stderr_tail(self) -> str:
        """The last lines the engine wrote on stderr (at most ``stderr_lines`` of them)."""
        return "\n".join(self._stderr_tail)

    def settle_stderr(self) -> None:
        """Log every stderr line the engine wrote before its last answer.

        Stderr is read by its own thread, so without this a line the engine wrote just before
        answering (a win rate, say) could still be on its way to ``log`` when the answer is
        returned. An engine writes its stderr before it answers, so after this call the log
        holds it (on POSIX; elsewhere only a read in progress is waited for).
        """
        self._stderr.drain()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("running" if self.alive else f"exited {self.returncode}")
        return f"<GtpController {self.argv[0]!r} pid={self.pid} {state}>"

    # --------------------------------------------------------------- commands
    def send(self, command: str, *, timeout: float | None | object = ...) -> str:
        """Send one command and return the text of the engine's success response.

        Raises :class:`GtpCommandFailed` if the engine answered ``?``, and the
        :class:`GtpEngineError` subclasses on a timeout, a dead engine or a malformed response.
        ``timeout`` overrides the controller's default for this command (None waits for ever).
        """
        response = self.send_raw(command, timeout=timeout)
        if not response.ok:
            raise GtpCommandFailed(
                f"the engine refused the command: {response.text}",
                command=command.strip(),
                text=response.text,
                stderr=self.stderr_tail,
            )
        return response.text

    def send_raw(self, command: str, *, timeout: float | None | object = ...) -> GtpResponse:
        """Like :meth:`send`, but a ``?`` answer is returned as ``GtpResponse(ok=False)``."""
        command = command.strip()
        if not command:
            raise ValueError("empty GTP command")
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        limit = self.timeout if timeout is ... else _check_timeout(timeout)
        with self._lock:
            if self._closed:
                raise GtpEngineError("the controller is closed", command=command)
            return self._exchange(command, limit)

    def known_command(self, name: str) -> bool:
        """Whether the engine says it knows the command ``name``."""
        return self.send(f"known_command {name}").strip().lower() == "true"

    def list_commands(self) -> list[str]:
        return [c.strip() for c in self.send("list_commands").splitlines() if c.strip()]

    def name(self) -> str:
        return self.send("name").strip()

    def version(self) -> str:
        return self.send("version").strip()

    def protocol_version(self) -> str:
        return self.send("protocol_version").strip()

    # ---------------------------------------------------------------- closing
    def close(self, grace: float = 2.0) -> int | None:
        """Stop the engine: send ``quit``, wait up to ``grace`` seconds for it to exit, then
        terminate it and finally kill it. Idempotent; returns the exit code."""
        with self._lock:
            if self._closed:
                return self._proc.returncode
            self._closed = True
            deadline = time.monotonic() + grace
            if self._proc.poll() is None and not self._stdout_eof and not self._write_errors:
                try:
                    self._exchange("quit", max(0.05, grace / 2))
                except GtpControllerError:
                    pass
            self._writes.put(None)  # the writer closes stdin: end of input makes most engines exit
            try:
                self._proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGTERM)
                try:
                    self._proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
                    self._proc.wait()
            self._reap_group()
            self._stop_reading.set()
            for thread in self._threads:
                thread.join(timeout=1.0)
            return self._proc.returncode

    def kill(self) -> int | None:
        """Kill the engine at once (no ``quit``) and close the controller."""
        self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
        return self.close(grace=0.5)

    def __enter__(self) -> GtpController:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __del__(self) -> None:  # last resort: never leave an engine running behind us
        if getattr(self, "_proc", None) is not None and not self._closed:
            self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))

    # -------------------------------------------------------------- internals
    def _exchange(self, command: str, limit: float | None) -> GtpResponse:
        """Send ``command`` and read its response; the lock is held."""
        if self._stdout_eof or self._write_errors or self._proc.poll() is not None:
            raise self._died(command, "the engine is not running")
        command_id: int | None = None
        line = command
        if self.use_ids:
            command_id = self._next_id
            self._next_id += 1
            line = f"{command_id} {command}"
        deadline = None if limit is None else time.monotonic() + limit
        self._emit("send", line)
        self._writes.put((line + "\n").encode("utf-8"))
        self._owed += 1
        # GTP engines answer in order: responses still owed to commands that timed out come
        # first, and are thrown away.
        while self._owed > 1:
            self._read_block(command, deadline, limit, discard=True)
            self._owed -= 1
        lines = self._read_block(command, deadline, limit)
        self._owed -= 1
        self._emit("recv", "\n".join(lines))
        return self._parse(command, lines, command_id)

    def _read_block(
        self, command: str, deadline: float | None, limit: float | None, *, discard: bool = False
    ) -> list[str]:
        """Read one response block: everything up to the next empty line, skipping empty lines
        before it. A block interrupted by a timeout, or cut short as too long, is resumed (and
        the rest of a block too long thrown away) by the next call."""
        lines = self._partial
        size = sum(len(line) + 1 for line in lines)
        while True:
            line = self._next_line(command, deadline, limit, lines)
            if isinstance(line, _Overlong) or size + len(line) > self.max_response_bytes:
                if not discard:
                    self._partial = lines[:1] or ["(cut)"]  # the rest of this block is skipped later
                    raise self._too_long(command, line)
                line = "(cut)"
            if not line.strip():
                if lines:
                    break
                continue
            if discard and lines:
                continue  # a block thrown away: its first line is enough to know it has begun
            lines.append(line)
            size += len(line) + 1
        self._partial = []
        return lines

    def _too_long(self, command: str, line: str | _Overlong) -> GtpProtocolError:
        if isinstance(line, _Overlong):
            message, text = f"the engine wrote a line over {line.limit} bytes", line.head
        else:
            message, text = f"the engine wrote a response over {self.max_response_bytes} bytes", line[:80]
        return GtpProtocolError(message, command=command, text=text, stderr=self.stderr_tail)

    def _parse(self, command: str, lines: list[str], command_id: int | None) -> GtpResponse:
        match = _RESPONSE_START.match(lines[0])
        if match is None:
            raise GtpProtocolError(
                "the engine's response does not start with '=' or '?'",
                command=command,
                text="\n".join(lines),
                stderr=self.stderr_tail,
            )
        ok = match.group(1) == "="
        digits = match.group(2)
        if len(digits) > MAX_ID_DIGITS:
            raise GtpProtocolError(
                f"the response carries an id of {len(digits)} digits, which no command had",
                command=command,
                text=lines[0][:80],
                stderr=self.stderr_tail,
            )
        rid = int(digits) if digits else None
        body = [(match.group(3) or "").strip(), *lines[1:]]
        if not body[0] and len(body) > 1:
            body = body[1:]  # e.g. showboard: "= " then the diagram
        if command_id is not None and rid != command_id:
            raise GtpProtocolError(
                f"the response carries id {rid}, the command had id {command_id}",
                command=command,
                text="\n".join(lines),
                stderr=self.stderr_tail,
            )
        return GtpResponse(ok, "\n".join(body), rid)

    def _next_line(
        self, command: str, deadline: float | None, limit: float | None, partial: list[str]
    ) -> str | _Overlong:
        """The next stdout line; raise GtpTimeout at the deadline, GtpEngineDied at the end."""
        while True:
            wait = 0.1 if deadline is None else min(0.1, deadline - time.monotonic())
            if wait <= 0:
                raise GtpTimeout(
                    f"no response within {limit:g} s",
                    timeout=limit if limit is not None else 0.0,
                    command=command,
                    text="\n".join(partial),
                    stderr=self.stderr_tail,
                )
            try:
                line = self._stdout.get(timeout=wait)
            except queue.Empty:
                if self._proc.poll() is None:
                    continue
                # The process exited but its stdout may stay open (a child holds it): give the
                # reader a moment to deliver what is buffered, then call it dead.
                try:
                    line = self._stdout.get(timeout=0.3)
                except queue.Empty:
                    raise self._died(command, "the engine exited", "\n".join(partial)) from None
            if line is _EOF:
                self._stdout_eof = True
                self._stdout.put(_EOF)  # keep the marker for any later reader
                what = "the engine exited" if self._proc.poll() is not None else "the engine closed its output"
                raise self._died(command, what, "\n".join(partial))
            return line

    def _died(self, command: str | None, message: str, text: str = "") -> GtpEngineDied:
        code = self._proc.poll()
        if code is None:
            try:
                code = self._proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        self._threads[1].join(timeout=0.2)  # let the stderr reader collect the last words
        if self._write_errors:
            message += f" (writing to it failed: {self._write_errors[0]})"
        return GtpEngineDied(message, command=command, text=text, stderr=self.stderr_tail, returncode=code)

    def _signal(self, sig: int) -> None:
        if self._proc.poll() is not None:
            return
        try:
            if os.name == "posix":
                os.killpg(self._proc.pid, sig)  # the process group created at start
            else:
                self._proc.send_signal(sig)
        except OSError:
            pass

    def _reap_group(self) -> None:
        """Once the engine has exited, kill what is left of its process group (children of a
        wrapper script), which would otherwise keep the pipes open."""
        if os.name == "posix":
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except OSError:
                pass

    def _emit(self, kind: str, text: str) -> None:
        if self._log is not None:
            try:
                self._log(kind, text)
            except Exception:  # a logging hook must never break the protocol
                pass


# -------------------------------------------------------------------- threads
# Plain functions, not methods: the threads must not keep the controller alive, so that a
# controller nobody closed can still be collected (and its engine killed by __del__).
def _put(lines: queue.Queue[str | _Overlong | None], item: str | _Overlong | None, stop: threading.Event) -> bool:
    """Queue ``item``, waiting while the queue is full; False once the controller is closed."""
    while not stop.is_set():
        try:
            lines.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


def _bounded_lines(stream: IO[bytes], limit: int) -> Iterator[tuple[bytes, bool]]:
    """The stream's lines as (at most ``limit`` bytes of the line, whether it was longer);
    the rest of a longer line is read and thrown away, so memory stays bounded."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if raw.endswith(b"\n") or len(raw) <= limit:
            yield raw, False
            continue
        yield raw[:limit], True
        while raw and not raw.endswith(b"\n"):
            raw = stream.readline(1 << 16)


def _pump_stdout(
    stream: IO[bytes], lines: queue.Queue[str | _Overlong | None], limit: int, stop: threading.Event
) -> None:
    try:
        for raw, cut in _bounded_lines(stream, limit):
            text = raw.decode("utf-8", errors="replace").rstrip("\r\n").replace("\r", "")
            if not _put(lines, _Overlong(text[:80], limit) if cut else text, stop):
                return
    except (OSError, ValueError):
        pass
    finally:
        _put(lines, _EOF, stop)


class _StderrReader:
    """Reads the engine's stderr into the tail and the log, from its own thread, and on demand
    (:meth:`drain`) from the caller's: every read and the logging of what it read happen under
    one lock, so once :meth:`drain` returns, every line the engine wrote before it is logged.

    Where ``select.poll`` exists (POSIX; unlike ``select.select`` it takes descriptors past
    1024, which a server with many engines reaches) the pipe is non-blocking and the thread
    waits with it; elsewhere the thread reads blocking and :meth:`drain` only waits for a read
    in progress to be logged.
    """

    def __init__(
        self,
        stream: IO[bytes],
        tail: collections.deque[str],
        log: Callable[[str, str], None] | None,
        limit: int,
        stop: threading.Event,
    ):
        self._stream = stream  # kept referenced: its descriptor stays ours while the thread reads
        self._fd = stream.fileno()
        self._tail = tail
        self._log = log
        self._limit = limit
        self._stop = stop
        self._lock = threading.Lock()
        self._line = bytearray()  # the line begun and not yet ended
        self._skipping = False  # the line was cut: its rest is thrown away up to its newline
        self._eof = False
        self._poll = select.poll() if hasattr(select, "poll") else None
        if self._poll is not None:
            self._poll.register(self._fd, select.POLLIN)
            os.set_blocking(self._fd, False)

    def pump(self) -> None:
        """The thread's loop: read until the engine closes its stderr (or the controller
        closes and nothing is left to read)."""
        try:
            while not self._eof:
                if self._poll is not None:
                    ready = self._poll.poll(500)  # readable, closed by the engine, or half a second
                    if not ready and self._stop.is_set():
                        self.drain()
                        return
                    self.drain()
                else:
                    data = os.read(self._fd, 1 << 16)
                    with self._lock:
                        self._take(data)
        except (OSError, ValueError):
            pass

    def drain(self) -> None:
        """Read and log everything the pipe holds now (POSIX), or wait for a read in progress."""
        with self._lock:
            while self._poll is not None and not self._eof:
                try:
                    data = os.read(self._fd, 1 << 16)
                except BlockingIOError:
                    return
                except OSError:
                    data = b""
                self._take(data)

    def _take(self, data: bytes) -> None:
        """Split ``data`` into lines, each cut at ``limit`` bytes; empty ``data`` is the end."""
        if not data:
            self._eof = True
            if self._line:
                self._emit(bytes(self._line), False)
                self._line.clear()
            return
        for piece in data.splitlines(keepends=True):
            ended = piece.endswith(b"\n")
            if not self._skipping:
                self._line += piece
                if len(self._line) > self._limit + 1 or (len(self._line) > self._limit and not ended):
                    self._emit(bytes(self._line[: self._limit]), True)
                    self._line.clear()
                    self._skipping = not ended
                elif ended:
                    self._emit(bytes(self._line), False)
                    self._line.clear()
            elif ended:
                self._skipping = False

    def _emit(self, raw: bytes, cut: bool) -> None:
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n") + (" [cut]" if cut else "")
        self._tail.append(line)
        if self._log is not None:
            try:
                self._log("stderr", line)
            except Exception:
                pass


def _pump_stdin(stream: IO[bytes], writes: queue.Queue[bytes | None], error: list[BaseException]) -> None:
    try:
        while True:
            data = writes.get()
            if data is None:
                break
            stream.write(data)
            stream.flush()
    except (OSError, ValueError) as exc:  # BrokenPipeError when the engine is gone
        error.append(exc)
    finally:
        try:
            stream.close()
        except (OSError, ValueError):
            pass
