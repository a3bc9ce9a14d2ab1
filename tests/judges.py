"""A scripted stand-in for KataGo's analysis engine, for the tests of the tools that read it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

SCRIPT = '''
import json, sys
leads = json.loads(sys.argv[1])
ownerships = json.loads(sys.argv[2])
for line in sys.stdin:
    q = json.loads(line)
    for turn in q.get("analyzeTurns", [len(q["moves"])]):
        moves = " ".join(p for _, p in q["moves"][:turn])
        lead = leads.get(moves, 0.0)
        answer = {"id": q["id"], "turnNumber": turn, "rootInfo": {"scoreLead": lead},
                  "moveInfos": [{"move": "D4", "scoreLead": lead}]}
        if moves in ownerships:
            answer["ownership"] = ownerships[moves]
        print(json.dumps(answer), flush=True)
'''


def scripted_judge(tmp: Path, leads: dict[str, float], ownerships: dict[str, list[float]] | None = None) -> str:
    """The command line of a judge that answers Black's lead ``leads[moves]`` for the position
    after ``moves`` (GTP points joined by spaces; 0 for any other position), and its ownership
    ``ownerships[moves]`` (Black's side, rows from the top) where one is given."""
    script = tmp / "judge.py"
    script.write_text(SCRIPT)
    return f"{sys.executable} {script} '{json.dumps(leads)}' '{json.dumps(ownerships or {})}'"
