"""``miai play`` in a real terminal: tmux runs it, the test types and reads the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

TMUX = shutil.which("tmux")

pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install -y tmux): needed to drive miai play in a real terminal"
)


LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class Screen:
    """A detached tmux session on a private server (its own socket), killed at the end."""

    def __init__(self, command: list[str], *, width: int = 100, height: int = 60, locale: dict[str, str] | None = None):
        """Run ``command`` with the language variables of ``locale`` only (none by default:
        English, whatever the locale of the machine running the tests)."""
        self.server = [TMUX, "-L", f"miai-test-{os.getpid()}-{time.monotonic_ns()}"]
        unset = [arg for variable in LANGUAGE_VARIABLES for arg in ("-u", variable)]
        settings = [f"{k}={v}" for k, v in (locale or {}).items()]
        shell = f"{shlex.join(['env', *unset, *settings, *command])}; echo miai-exit=$?; sleep 600"
        subprocess.run(
            [*self.server, "-f", os.devnull, "new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height), shell],
            check=True,
        )

    def text(self, *, escapes: bool = False) -> str:
        args = ["capture-pane", "-p", "-J", "-S", "-", "-t", "play"] + (["-e"] if escapes else [])
        return subprocess.run([*self.server, *args], check=True, capture_output=True, text=True).stdout

    def type(self, line: str) -> None:
        subprocess.run([*self.server, "send-keys", "-t", "play", "-l", line], check=True)
        subprocess.run([*self.server, "send-keys", "-t", "play", "Enter"], check=True)

    def wait_for(self, expected: str, timeout: float = 90.0) -> str:
        """The screen once ``expected`` is on it (the first start may compile the kernel)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if expected in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{expected!r} did not appear; the screen shows:\n{screen}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([*self.server, "kill-server"], capture_output=True)


def test_a_game_on_5x5_in_tmux():
    screen = Screen([sys.executable, "-m", "miai", "play", "--size", "5"])
    try:
        screen.wait_for("Black (X) move 1> ")
        screen.type("d4")
        shown = screen.wait_for("White (O) move 2> ")
        assert "4 . . .(X). 4" in shown and "Move 1: Black D4" in shown
        assert "\x1b[" in screen.text(escapes=True)  # rich drew the board in colour
        screen.type("I3")
        screen.wait_for("There is no column I")
        screen.type("D4")
        screen.wait_for("Illegal move (occupied): D4 is occupied by a black stone.")
        screen.type("pass")
        screen.wait_for("Another pass ends the game.")
        screen.type("pass")
        screen.wait_for("dead stones> ")
        screen.type("")
        screen.wait_for("Black (X) accept or mark dead stones> ")
        screen.type("yes")
        screen.wait_for("Save the game? File name (Enter to skip): ")
        screen.type("")
        final = screen.wait_for("miai-exit=0")
        assert "Result: B+17.5. Black wins by 17.5 points." in final
    finally:
        screen.close()


def test_a_game_in_spanish_with_lang_es():
    screen = Screen([sys.executable, "-m", "miai", "play", "--size", "5", "--lang", "es"])
    try:
        first = screen.wait_for("Negro (X) jugada 1> ")
        assert "miai play: 5x5, reglas chinas, komi 7,5." in first
        assert "Prisioneros de Negro (X): 0, de Blanco (O): 0" in first
        assert "Todavía no hay jugadas." in first
        screen.type("d4")
        shown = screen.wait_for("Blanco (O) jugada 2> ")
        assert "Jugada 1: Negro D4" in shown
        screen.type("D4")
        screen.wait_for("Jugada ilegal (ocupada): D4 está ocupada por una piedra negra.")
        screen.type("pass")
        screen.wait_for("Otro pase termina la partida.")
        screen.type("quit")
        final = screen.wait_for("miai-exit=0")
        assert "Partida sin terminar tras 2 jugadas." in final
        assert "Illegal" not in final and "Black" not in final
    finally:
        screen.close()


def test_the_locale_of_the_environment_chooses_the_language():
    screen = Screen([sys.executable, "-m", "miai", "play", "--size", "5"], locale={"LANG": "it_IT.UTF-8"})
    try:
        screen.wait_for("Nero (X) mossa 1> ")
        screen.type("quit")
        final = screen.wait_for("miai-exit=0")
        assert "miai play: 5x5, regole cinesi, komi 7,5." in final
        assert "Partita lasciata incompiuta dopo 0 mosse." in final
    finally:
        screen.close()
