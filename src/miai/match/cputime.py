"""The CPU time an engine's processes have used, so that the referee sees an engine that
thinks on its opponent's time.

A match between two engines "with one core each" compares them fairly only if each engine is
idle while the other one thinks. An engine that *ponders* (Pachi by default, Leela Zero, KataGo
when asked) goes on searching through its opponent's turns: on a machine with fewer free
cores than busy processes it takes CPU from the engine that is thinking, and it starts its own
turns with a head start. The match's move times, which are wall-clock times of ``genmove``,
do not show that; the CPU the opponent used during a ``genmove`` does. The referee reads it
before and after each move (:func:`group_cpu_seconds`) and the results table says when an
engine used a noticeable share of its opponent's thinking time.

The engine's processes are its process group: :class:`~miai.gtp.controller.GtpController`
starts every engine as the leader of a group of its own, so a wrapper (``sh -c``, ``env``)
and what it starts are counted too. Linux only (``/proc``); elsewhere the figure is None and
nothing is reported.
"""

from __future__ import annotations

import os

__all__ = ["group_cpu_seconds"]

_PROC = "/proc"


def group_cpu_seconds(pgid: int) -> float | None:
    """The user and system CPU seconds of the live processes of process group ``pgid`` (all
    their threads, not their exited children), or None where ``/proc`` cannot tell (another
    system, or no process of the group is left)."""
    try:
        entries = os.scandir(_PROC)
    except OSError:
        return None
    ticks = 0
    found = False
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(os.path.join(_PROC, entry.name, "stat"), "rb") as f:
                    data = f.read()
            except OSError:  # the process has just exited
                continue
            # the fields after the command, which is in parentheses and may hold spaces:
            # state, ppid, pgrp (index 2), ..., utime (index 11), stime (index 12)
            fields = data[data.rfind(b")") + 2 :].split()
            if len(fields) < 13 or int(fields[2]) != pgid:
                continue
            found = True
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK") if found else None
