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


class Screen:
    """A detached tmux session on a private server (its own socket), killed at the end."""

    def __init__(self, command: list[str], *, width: int = 100, height: int = 60):
        self.server = [TMUX, "-L", f"miai-test-{os.getpid()}-{time.monotonic_ns()}"]
        shell = f"{shlex.join(command)}; echo miai-exit=$?; sleep 600"
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
