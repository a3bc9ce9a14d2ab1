"""Where a search's time goes, by compiled kernel function: ``perf`` samples, named by ``gdb``.

``perf`` alone cannot name numba's machine code (it is made in memory, with no symbol file),
but LLVM tells ``gdb`` about every function it compiles, so ``gdb`` attached to the same
process names any address in it. This runs searches of a record's positions in a child
process, samples it with ``perf record`` while it searches, then asks ``gdb`` (attached to
the child, which waits for it) for the function at each sampled address, and prints each
function's share of the samples. Inlined functions count as their caller. Usage::

    python tools/kernel_profile.py RECORD.sgf --moves 60 120 180 --seconds 10

Needs ``perf`` and ``gdb`` (Debian's ``linux-perf`` and ``gdb``) and the right to trace the
child (root, or ``kernel.perf_event_paranoid`` and ``ptrace_scope`` low enough). A research
tool: it changes nothing.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import sys
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.sgf import load_game

record, _ = load_game(sys.argv[1])
seconds = float(sys.argv[2])
games = [record.after(n) for n in map(int, sys.argv[3:])]
MctsPlayer(MctsConfig(max_seconds=1, seed=1)).search(games[0])  # compiled and loaded before the samples
print("ready", flush=True)
sys.stdin.readline()
for game in games:
    MctsPlayer(MctsConfig(max_seconds=seconds, seed=1, early_stop=False)).search(game)
print("done", flush=True)
sys.stdin.readline()
"""


def function_name(gdb_answer: str) -> str:
    """The function's name in one answer of gdb's ``info symbol`` (``?`` for none)."""
    if "No symbol matches" in gdb_answer:
        return "?"
    return re.split(r"\[abi| \+ | in section", gdb_answer)[0].strip()


def profile(record: str, moves: list[int], seconds: float, frequency: int) -> tuple[collections.Counter[str], int]:
    """Samples of the searches, by function, and their total."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, record, str(seconds), *map(str, moves)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdout.readline()  # ready
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "perf.data"
            perf = subprocess.Popen(["perf", "record", "-q", "-F", str(frequency), "-p", str(child.pid),
                                     "-o", str(data)], stderr=subprocess.DEVNULL)
            child.stdin.write("go\n")
            child.stdin.flush()
            child.stdout.readline()  # done: the child waits while gdb reads its symbols
            perf.send_signal(2)
            perf.wait()
            script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True,
                                    text=True, check=True).stdout
            counts = collections.Counter(line.strip() for line in script.splitlines() if line.strip())
            addresses = list(counts)
            commands = Path(tmp) / "gdb.cmd"
            commands.write_text("".join(f"echo @\\n\ninfo symbol 0x{a}\n" for a in addresses))
            out = subprocess.run(["gdb", "-p", str(child.pid), "-batch", "-x", str(commands)],
                                 capture_output=True, text=True).stdout
    finally:
        child.kill()
    answers = out.split("@\n")[1:]
    by_function: collections.Counter[str] = collections.Counter()
    for address, answer in zip(addresses, answers):
        by_function[function_name(answer.strip())] += counts[address]
    return by_function, sum(counts.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="an SGF record")
    parser.add_argument("--moves", type=int, nargs="+", default=[60, 120, 180],
                        help="search the positions after this many of its moves (60 120 180)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each search's time (10)")
    parser.add_argument("--frequency", type=int, default=1999, help="perf's samples a second (1999)")
    parser.add_argument("--top", type=int, default=30, help="how many functions to list (30)")
    args = parser.parse_args()
    by_function, total = profile(args.record, args.moves, args.seconds, args.frequency)
    print(f"{total} samples")
    for name, count in by_function.most_common(args.top):
        print(f"{100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
