#!/usr/bin/env python3
"""A tiny GTP engine that misbehaves on purpose, kept from the fuzzing of the referee.

Usage: fake_engine.py MODE [N]. It plays (or passes) until its N-th genmove (default 3),
then, by MODE: pass (always passes), crash (exit 3), kill9 (SIGKILL itself), garbage (text
that is not GTP), hang (sleeps), hugeid (an answer whose id has 5000 digits), stderrflood /
stdoutflood (one endless line on stderr / stdout for FLOOD_SECONDS, default 20), closeout
(closes stdout, keeps running), nodeadlist (final_status_list answers junk), slowquit
(ignores quit and the end of its input), child (leaves a child holding the pipes and exits);
mover plays until STONES stones are on the board, then passes. SLEEP delays each genmove.
"""
import os, signal, sys, time
mode = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 3
COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
size = 19
played = set()
genmoves = 0
if mode == "slowquit":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
def reply(text="", ok=True, cid=""):
    sys.stdout.write(("=" if ok else "?") + cid + " " + text + "\n\n"); sys.stdout.flush()
def next_point():
    for r in range(1, size + 1):
        for c in COLS[:size]:
            v = f"{c}{r}"
            if v not in played and (r % 3 != 2):  # leave a row of liberties every third row
                return v
    return "pass"
while True:
    line = sys.stdin.readline()
    if not line:
        if mode == "slowquit":
            time.sleep(3600)
        break
    words = line.split()
    if not words: continue
    cid = ""
    if words[0].isdigit(): cid, words = words[0], words[1:]
    cmd, args = words[0], words[1:]
    if cmd == "quit":
        if mode == "slowquit":
            time.sleep(3600)
        reply(cid=cid); break
    elif cmd == "name": reply("fake-" + mode, cid=cid)
    elif cmd == "version": reply("1", cid=cid)
    elif cmd == "protocol_version": reply("2", cid=cid)
    elif cmd == "known_command": reply("true" if args and args[0] in ("genmove", "play", "boardsize", "clear_board", "komi", "final_status_list") else "false", cid=cid)
    elif cmd == "boardsize": size = int(args[0]); reply(cid=cid)
    elif cmd == "clear_board": played.clear(); reply(cid=cid)
    elif cmd == "komi": reply(cid=cid)
    elif cmd == "play":
        if args[1].lower() != "pass": played.add(args[1].upper())
        reply(cid=cid)
    elif cmd == "final_status_list":
        reply("Z99 junk ☃ A1" if mode == "nodeadlist" else "", cid=cid)
    elif cmd == "genmove":
        genmoves += 1
        time.sleep(float(os.environ.get("SLEEP", "0")))
        if mode in ("pass", "mover") or genmoves < N:
            v = "pass" if mode == "pass" else next_point()
            if mode == "mover" and v != "pass" and len(played) >= int(os.environ.get("STONES", "30")): v = "pass"
            if v != "pass": played.add(v)
            reply(v, cid=cid); continue
        if mode == "crash":
            sys.stderr.write("fake engine: boom\n"); sys.stderr.flush(); sys.exit(3)
        if mode == "kill9":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "garbage":
            sys.stdout.write("Hello! I am not GTP.\nD4 maybe?\n\n"); sys.stdout.flush(); continue
        if mode == "hang":
            time.sleep(3600)
        if mode == "hugeid":
            sys.stdout.write("=" + "9" * 5000 + " D4\n\n"); sys.stdout.flush(); continue
        if mode == "stderrflood":
            chunk = "x" * (1 << 20)
            t_end = time.time() + float(os.environ.get("FLOOD_SECONDS", "20"))
            while time.time() < t_end:
                sys.stderr.write(chunk)
            sys.stderr.flush(); reply("pass", cid=cid); continue
        if mode == "stdoutflood":
            chunk = "y" * (1 << 20)
            t_end = time.time() + float(os.environ.get("FLOOD_SECONDS", "20"))
            sys.stdout.write("= ")
            while time.time() < t_end:
                sys.stdout.write(chunk)
            sys.stdout.write("\n\n"); sys.stdout.flush(); continue
        if mode == "closeout":
            os.close(1); time.sleep(3600)
        if mode == "child":
            if os.fork() == 0:
                time.sleep(3600); os._exit(0)
            os._exit(5)
        if mode == "nodeadlist":
            reply("pass", cid=cid); continue
        if mode == "slowquit":
            reply("pass", cid=cid); continue
        reply("pass", cid=cid)
    else:
        reply("unknown command", ok=False, cid=cid)
