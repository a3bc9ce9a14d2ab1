"""Where the interactive commands talk to people: a rich console out, a line reader in.

Input goes through one function, ``read_line(prompt) -> str``, which raises ``EOFError``
when there is no more; tests feed it from a list with :meth:`Terminal.scripted` and read
the whole conversation back with :meth:`Terminal.transcript`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console, RenderableType


class Terminal:
    """A console for output and a function that reads one line for input."""

    def __init__(self, console: Console | None = None, read_line: Callable[[str], str] | None = None):
        self.console = console if console is not None else Console(highlight=False)
        self._read_line = read_line if read_line is not None else self._console_input

    @classmethod
    def scripted(cls, lines: Iterable[str], *, width: int = 80) -> Terminal:
        """A terminal whose input comes from ``lines`` (then end of file) and whose output,
        inputs echoed after their prompts, is kept as plain text for :meth:`transcript`."""
        console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
        pending = iter(lines)

        def read_line(prompt: str) -> str:
            try:
                line = next(pending)
            except StopIteration:
                console.print(prompt, markup=False, end="")
                console.print("^D", markup=False)
                raise EOFError from None
            console.print(prompt + line, markup=False)
            return line

        return cls(console, read_line)

    def transcript(self) -> str:
        """Everything written so far (only for a :meth:`scripted` terminal)."""
        file = self.console.file
        if not isinstance(file, io.StringIO):
            raise TypeError("only a scripted terminal keeps a transcript")
        return file.getvalue()

    def say(self, text: str = "", *, style: str | None = None) -> None:
        """Print one message as it is (no rich markup, no highlighting, no wrapping: the
        terminal wraps long lines itself and a pipe gets them whole)."""
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def show(self, renderable: RenderableType) -> None:
        """Print a rich renderable (a board diagram)."""
        self.console.print(renderable)

    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt``; raises ``EOFError`` at the end of input."""
        return self._read_line(prompt)

    def _console_input(self, prompt: str) -> str:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:  # pragma: no cover - not on every platform
            pass
        self.console.file.flush()
        return input(prompt)
