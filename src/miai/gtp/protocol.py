"""GTP version 2 framing: pure functions from an input line to a response.

The Go Text Protocol (GTP v2, draft 2, Gunnar Farnebäck) is line based. The engine reads a
command line, preprocesses it, and answers ``=[id] result`` or ``?[id] error message``,
each ending with two newlines. This module knows nothing of Go: a :class:`Dispatcher`
maps command names to handlers (``handler(args) -> str``), and :meth:`Dispatcher.handle`
turns one input line into one response string — or ``None`` for a line that asks for no
answer (empty, blank or only a comment) — and never raises.

Preprocessing, as §2 of the specification asks, before anything else:

1. remove every control character except HT and LF (CR, NUL, ESC, DEL ... go away);
2. remove everything from a ``#`` to the end of the line (a comment);
3. convert HT to SPACE;
4. skip a line that is now empty or only whitespace.

A command is ``[id] command_name [arguments]``: the optional id is a non-negative
integer, echoed right after ``=`` or ``?`` in the response (``=12 result``). An id of more
than :data:`MAX_ID_DIGITS` digits (beyond a 64-bit integer, which no controller sends) is
refused with ``? syntax error`` (without an id) rather than carried around.

Handlers signal an expected failure by raising :class:`GtpError`; its message becomes
the error text (``? illegal move``). Any other exception is a bug: the answer is still a
``?`` response with the exception's text, and the dispatcher calls its ``on_exception``
hook (the session prints the traceback to stderr) so that the engine never crashes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from miai.errors import MiaiError

Handler = Callable[[Sequence[str]], "str | None"]

"""A command handler: the argument words in, the response text out (``None`` = empty)."""

_S = TypeVar("_S")


def bound(state: _S, *functions: Callable[[_S, Sequence[str]], str | None]) -> list[tuple[str, Handler]]:
    """Handlers named as their functions, each called with ``state`` before the arguments:
    ``bound(state, final_score)`` answers ``final_score`` with ``final_score(state, args)``."""
    return [(f.__name__, partial(f, state)) for f in functions]

PROTOCOL_VERSION = "2"

MAX_ID_DIGITS = 18
"""The longest command id accepted (every 18-digit number fits a signed 64-bit integer)."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # every control character but HT (9) and LF (10)
_OUTPUT_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class GtpError(MiaiError, ValueError):
    """Raised by a handler to answer ``? message`` (an expected failure, not a bug): the
    controller's mistake, so a :class:`~miai.errors.MiaiError` like every user error."""


@dataclass(frozen=True, slots=True)
class Command:
    """One parsed command line."""

    id: int | None
    name: str
    args: tuple[str, ...]

    def __str__(self) -> str:
        words = ([str(self.id)] if self.id is not None else []) + [self.name, *self.args]
        return " ".join(words)


def preprocess(line: str) -> str:
    """Apply the four preprocessing steps of GTP §2 to one line; return ``""`` for a line to skip.

    Only the first line is considered if ``line`` holds a newline (the session hands over
    one line at a time, with its newline).

    >>> preprocess("\\t1 play\\tb D4 # my move\\r\\n")
    '1 play b D4'
    >>> preprocess("# only a comment")
    ''
    """
    line = line.split("\n", 1)[0]
    line = _CONTROL.sub("", line)
    line = line.split("#", 1)[0]
    line = line.replace("\t", " ")
    return line.strip()


def parse_command(line: str) -> Command | None:
    """Preprocess ``line`` and split it into id, command name and arguments.

    Returns ``None`` for a line that is skipped (empty or a comment). A line holding only
    an id gives a command with an empty name, which :meth:`Dispatcher.handle` answers
    with an error. Raises :class:`GtpError` for an id longer than :data:`MAX_ID_DIGITS`.

    >>> parse_command("7 boardsize 9")
    Command(id=7, name='boardsize', args=('9',))
    """
    text = preprocess(line)
    if not text:
        return None
    words = text.split()
    cmd_id: int | None = None
    if words[0].isascii() and words[0].isdigit():
        if len(words[0]) > MAX_ID_DIGITS:
            raise GtpError(f"syntax error: a command id has at most {MAX_ID_DIGITS} digits, not {len(words[0])}")
        cmd_id = int(words[0])
        words = words[1:]
    if not words:
        return Command(cmd_id, "", ())
    return Command(cmd_id, words[0], tuple(words[1:]))


def clean_text(text: str) -> str:
    """Make ``text`` safe as a response body.

    A response ends at the first empty line, so the body may not contain one: empty or
    whitespace-only lines inside the text are dropped, control characters removed (HT
    becomes a space), trailing whitespace stripped. A single leading newline is kept, so
    that a multi-line answer such as a board diagram can start on its own line, as GNU Go
    does for ``showboard``.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _OUTPUT_CONTROL.sub("", text)
    lead = "\n" if text.startswith("\n") and text.strip() else ""
    lines = [ln.rstrip() for ln in text.split("\n")]
    body = "\n".join(ln for ln in lines if ln.strip())
    return lead + body


def format_response(text: str | None, cmd_id: int | None = None, *, error: bool = False) -> str:
    """Frame a response: ``=id text\\n\\n`` or ``?id text\\n\\n``.

    As GNU Go and KataGo do, a space always follows the status character and id, so an
    empty success is ``"= \\n\\n"``.

    >>> format_response("GNU Go", 1)
    '=1 GNU Go\\n\\n'
    >>> format_response("unknown command", error=True)
    '? unknown command\\n\\n'
    """
    status = "?" if error else "="
    ident = "" if cmd_id is None else str(cmd_id)
    return f"{status}{ident} {clean_text(text or '')}\n\n"


class Dispatcher:
    """A registry of GTP command handlers and the pure ``handle(line) -> response`` function.

    The commands every engine needs and that depend on nothing but the registry itself
    are built in: ``protocol_version``, ``known_command``, ``list_commands`` and
    ``quit`` (which sets :attr:`quit_requested`; the session stops after answering it).
    """

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self.quit_requested = False
        self.on_exception: Callable[[Command, BaseException], None] | None = None
        """Called with the command and the exception when a handler fails with a bug."""
        self.register("protocol_version", self._protocol_version)
        self.register("known_command", self._known_command)
        self.register("list_commands", self._list_commands)
        self.register("quit", self._quit)

    # ------------------------------------------------------------------ registry
    def register(self, name: str, handler: Handler) -> None:
        """Register (or replace) the handler of command ``name``."""
        if not name or any(ch.isspace() or ch == "#" for ch in name) or not name.isprintable():
            raise ValueError(f"not a valid GTP command name: {name!r}")
        self._handlers[name] = handler

    def register_all(self, handlers: Iterable[tuple[str, Handler]]) -> None:
        for name, handler in handlers:
            self.register(name, handler)

    def unregister(self, name: str) -> None:
        self._handlers.pop(name, None)

    def known(self, name: str) -> bool:
        return name in self._handlers

    @property
    def commands(self) -> list[str]:
        """The registered command names, in registration order."""
        return list(self._handlers)

    # ------------------------------------------------------------------ dispatch
    def handle(self, line: str) -> str | None:
        """Answer one input line; ``None`` if the line is skipped. Never raises."""
        try:
            command = parse_command(line)
        except GtpError as exc:
            return format_response(str(exc), error=True)
        except Exception as exc:  # pragma: no cover - parse_command has no known failure
            return format_response(f"internal error: {_describe(exc)}", error=True)
        if command is None:
            return None
        return self.execute(command)

    def execute(self, command: Command) -> str:
        """Run a parsed command and frame its response. Never raises."""
        if not command.name:
            return format_response("empty command", command.id, error=True)
        handler = self._handlers.get(command.name)
        if handler is None:
            return format_response("unknown command", command.id, error=True)
        try:
            result = handler(command.args)
        except GtpError as exc:
            return format_response(str(exc) or "failed", command.id, error=True)
        except MiaiError as exc:  # a core error the handler did not translate: its text is meant for users
            return format_response(str(exc) or type(exc).__name__, command.id, error=True)
        except Exception as exc:  # a bug: answer, report, keep running
            if self.on_exception is not None:
                try:
                    self.on_exception(command, exc)
                except Exception:
                    pass
            return format_response(f"internal error: {_describe(exc)}", command.id, error=True)
        if result is not None and not isinstance(result, str):
            result = str(result)
        return format_response(result, command.id)

    # ------------------------------------------------------------------ built-in commands
    def _protocol_version(self, args: Sequence[str]) -> str:
        return PROTOCOL_VERSION

    def _known_command(self, args: Sequence[str]) -> str:
        if len(args) != 1:
            raise GtpError("syntax error: known_command takes one command name")
        return "true" if args[0] in self._handlers else "false"

    def _list_commands(self, args: Sequence[str]) -> str:
        return "\n".join(self._handlers)

    def _quit(self, args: Sequence[str]) -> str:
        self.quit_requested = True
        return ""


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
