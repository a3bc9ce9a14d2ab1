"""A scripted GTP *player* for the referee's tests: it plays the moves it is told to, and
misbehaves on cue.

Run as ``python fake_player.py --script SCRIPT [options]``. The script lists the answers to
successive ``genmove`` commands, separated by spaces or commas; games are separated by ``|``
(each ``clear_board`` starts the next game's list; when a game's list runs out the player
passes). Besides vertices, ``pass`` and ``resign``, a script may say:

    !crash         exit with code 3 without answering (and a line on stderr)
    !hang          never answer
    !garbage       write a line that is not GTP
    !junk          answer ``= ???`` (a success whose text is not a move)
    !sleep:S:MOVE  wait S seconds, then answer MOVE

Options:
    --counter FILE   keep the number of games started in FILE, so that a restarted player goes
                     on with the next game's list instead of the first
    --log FILE       append every command received to FILE (one per line)
    --dead VERTICES  the answer to ``final_status_list dead`` (comma-separated; default none)
    --no-genmove     do not know ``genmove`` (like an analysis-only engine)
    --no-final-status  do not know ``final_status_list``
    --refuse-play    answer ``? illegal move`` to every ``play``
    --name NAME      what ``name`` answers (default FakePlayer)
    --pidfile FILE   append the process id to FILE at start
    --ponder S       after each move, keep a CPU busy for S seconds (as an engine that thinks
                     on its opponent's time), or until the next command
    --winrates LIST  before answering each genmove, write ``winrate R`` on stderr, R the next of
                     the comma-separated LIST (``-``: write nothing), as miai does

It keeps no board: ``play`` is always accepted (unless ``--refuse-play``).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", default="")
    ap.add_argument("--counter")
    ap.add_argument("--log")
    ap.add_argument("--dead", default="")
    ap.add_argument("--no-genmove", action="store_true")
    ap.add_argument("--no-final-status", action="store_true")
    ap.add_argument("--refuse-play", action="store_true")
    ap.add_argument("--name", default="FakePlayer")
    ap.add_argument("--pidfile")
    ap.add_argument("--ponder", type=float, default=0.0)
    ap.add_argument("--winrates", default="")
    opts = ap.parse_args(argv)
    if opts.pidfile:
        with open(opts.pidfile, "a") as f:
            f.write(f"{os.getpid()}\n")
    games = [g.replace(",", " ").split() for g in opts.script.split("|")]
    winrates = [w for w in opts.winrates.split(",") if w]
    known = {
        "name", "version", "protocol_version", "known_command", "list_commands", "quit", "boardsize",
        "clear_board", "komi", "play", "fixed_handicap", "time_settings", "time_left",
    }
    if not opts.no_genmove:
        known.add("genmove")
    if not opts.no_final_status:
        known.add("final_status_list")
    out = sys.stdout
    moves: list[str] = []
    wake = threading.Event()  # set by the next command: pondering stops

    def ponder(seconds: float, stop: threading.Event) -> None:
        end = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < end:
            sum(range(1000))  # busy: CPU time, as a search

    def answer(ok: bool, cid: str, text: str) -> None:
        out.write(("=" if ok else "?") + cid + (" " + text if text else "") + "\n\n")
        out.flush()

    def next_game() -> list[str]:
        number = 0
        if opts.counter:
            try:
                with open(opts.counter) as f:
                    number = int(f.read().strip() or 0)
            except FileNotFoundError:
                number = 0
            with open(opts.counter, "w") as f:
                f.write(str(number + 1))
        return list(games[number]) if number < len(games) else []

    for raw in sys.stdin:
        wake.set()
        line = raw.strip()
        if not line:
            continue
        if opts.log:
            with open(opts.log, "a") as f:
                f.write(line + "\n")
        words = line.split()
        cid = words.pop(0) if words[0].isdigit() else ""
        if not words:
            continue
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            answer(True, cid, "")
            return 0
        if cmd not in known:
            answer(False, cid, "unknown command")
        elif cmd == "name":
            answer(True, cid, opts.name)
        elif cmd == "version":
            answer(True, cid, "1.0")
        elif cmd == "protocol_version":
            answer(True, cid, "2")
        elif cmd == "known_command":
            answer(True, cid, "true" if args and args[0] in known else "false")
        elif cmd == "list_commands":
            answer(True, cid, "\n".join(sorted(known)))
        elif cmd == "clear_board":
            moves = next_game()
            answer(True, cid, "")
        elif cmd == "fixed_handicap":
            answer(False, cid, "fixed_handicap not supported by this fake")
        elif cmd == "play":
            if opts.refuse_play:
                answer(False, cid, "illegal move")
            else:
                answer(True, cid, "")
        elif cmd == "final_status_list":
            answer(True, cid, opts.dead.replace(",", " ") if args and args[0] == "dead" else "")
        elif cmd == "genmove":
            move = moves.pop(0) if moves else "pass"
            said = winrates.pop(0) if winrates else "-"
            if said != "-":
                sys.stderr.write(f"fake player: {move}, winrate {said}, 100 playouts\n")
                sys.stderr.flush()
            if move == "!crash":
                sys.stderr.write("fake player: crashing on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            elif move == "!hang":
                while True:
                    time.sleep(1)
            elif move == "!garbage":
                out.write("I am thinking very hard\n\n")
                out.flush()
            elif move == "!junk":
                answer(True, cid, "???")
            elif move.startswith("!sleep:"):
                _, seconds, then = move.split(":", 2)
                time.sleep(float(seconds))
                answer(True, cid, then)
            else:
                answer(True, cid, move)
            if opts.ponder > 0:
                wake = threading.Event()
                threading.Thread(target=ponder, args=(opts.ponder, wake), daemon=True).start()
        else:
            answer(True, cid, "")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
