"""A scripted GTP engine that misbehaves on request, for testing the controller.

Run as ``python fake_engine.py [options]``. It answers GTP on stdin/stdout (with ids when the
command has one); these commands make it misbehave:

    garbage            answer a block that is not GTP ("this is not GTP") then continue normally
    hang               never answer (sleep until killed)
    sleep S            answer "= slept S" after S seconds
    crash              write to stderr and exit with code 3 without answering
    partial            write the start of an answer, then exit
    half S             write "= first half", wait S seconds, then "second half" and the end
    fail               answer "? failing on purpose"
    wrong_id           answer with the id plus 1000
    multiline          answer three lines
    crlf               answer with CR LF line ends
    stderr_flood K     write K kilobytes to stderr, then answer "= flooded K"
    big K              answer with K kilobytes of text on one line
    lines N            answer with N lines of 99 characters
    stderr_line K      write one line of K kilobytes to stderr, then answer "= wrote K"
    stderr_say TEXT    write TEXT as a line on stderr, then answer "= said"
    huge_id            answer with an id of 5000 digits
    close_stdout       close stdout and keep running (sleep)
    count              answer how many commands it has received

Options: ``--ignore-quit`` (answer quit but keep running), ``--ignore-term`` (ignore SIGTERM
too), ``--banner`` (print a line of junk before reading anything), ``--die-at-start`` (exit 2
at once), ``--no-stdin-exit`` (keep running when stdin reaches its end).
"""

from __future__ import annotations

import os
import signal
import sys
import time


def main(argv: list[str]) -> int:
    opts = set(argv)
    if "--die-at-start" in opts:
        sys.stderr.write("fake engine: refusing to start\n")
        return 2
    if "--ignore-term" in opts:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    out = sys.stdout
    if "--banner" in opts:
        out.write("Welcome to the fake engine!\n")
        out.flush()
    received = 0

    def answer(ok: bool, cid: str, text: str, end: str = "\n") -> None:
        out.write(("=" if ok else "?") + cid + (" " + text if text else "") + end + end)
        out.flush()

    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        received += 1
        words = line.split()
        cid = ""
        if words[0].isdigit():
            cid = words.pop(0)
        if not words:
            continue
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            answer(True, cid, "")
            if "--ignore-quit" in opts:
                while True:
                    time.sleep(1)
            return 0
        if cmd == "name":
            answer(True, cid, "Fake")
        elif cmd == "version":
            answer(True, cid, "0.1")
        elif cmd == "protocol_version":
            answer(True, cid, "2")
        elif cmd == "known_command":
            answer(True, cid, "true" if args and args[0] in COMMANDS else "false")
        elif cmd == "list_commands":
            answer(True, cid, "\n".join(sorted(COMMANDS)))
        elif cmd == "echo":
            answer(True, cid, " ".join(args))
        elif cmd == "count":
            answer(True, cid, str(received))
        elif cmd == "garbage":
            out.write("this is not GTP\n\n")
            out.flush()
        elif cmd == "hang":
            while True:
                time.sleep(1)
        elif cmd == "sleep":
            time.sleep(float(args[0]))
            answer(True, cid, f"slept {args[0]}")
        elif cmd == "crash":
            sys.stderr.write("fake engine: segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)
        elif cmd == "partial":
            out.write(f"={cid} the beginning of an answer\n")
            out.flush()
            os._exit(4)
        elif cmd == "half":
            out.write(f"={cid} first half\n")
            out.flush()
            time.sleep(float(args[0]))
            out.write("second half\n\n")
            out.flush()
        elif cmd == "fail":
            answer(False, cid, "failing on purpose")
        elif cmd == "wrong_id":
            answer(True, str(int(cid or 0) + 1000), "whose id is this?")
        elif cmd == "multiline":
            answer(True, cid, "line one\nline two\nline three")
        elif cmd == "crlf":
            out.write(f"={cid} windows\r\n\r\n")
            out.flush()
        elif cmd == "stderr_flood":
            kb = int(args[0])
            chunk = ("x" * 99 + "\n") * 10
            for _ in range(kb):
                sys.stderr.write(chunk)
            sys.stderr.flush()
            answer(True, cid, f"flooded {kb}")
        elif cmd == "big":
            answer(True, cid, "y" * (1024 * int(args[0])))
        elif cmd == "lines":
            answer(True, cid, "\n".join("z" * 99 for _ in range(int(args[0]))))
        elif cmd == "stderr_line":
            sys.stderr.write("e" * (1024 * int(args[0])) + "\n")
            sys.stderr.flush()
            answer(True, cid, f"wrote {args[0]}")
        elif cmd == "stderr_say":
            sys.stderr.write(" ".join(args) + "\n")
            sys.stderr.flush()
            answer(True, cid, "said")
        elif cmd == "huge_id":
            out.write("=" + "9" * 5000 + " D4\n\n")
            out.flush()
        elif cmd == "close_stdout":
            out.flush()
            os.close(1)
            while True:
                time.sleep(1)
        else:
            answer(False, cid, "unknown command")
    # End of input.
    if "--no-stdin-exit" in opts:
        while True:
            time.sleep(1)
    return 0


COMMANDS = {
    "name", "version", "protocol_version", "known_command", "list_commands", "echo", "count", "quit",
    "garbage", "hang", "sleep", "crash", "partial", "half", "fail", "wrong_id", "multiline", "crlf",
    "stderr_flood", "big", "close_stdout", "lines", "stderr_line", "huge_id",
}

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
