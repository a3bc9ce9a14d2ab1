"""GTP final_status_list and final_score with the status estimate."""

from __future__ import annotations

import pytest

from miai.gtp.engine import GtpEngine
from miai.rules import Rules
from tests.ai.test_status import DEAD_INSIDE, SEKI_WITH_EYES
from tests.diagrams import parse


def engine_with(diagram: str, rules: str, tmp_path) -> GtpEngine:
    """An engine that has loaded the diagram's position (SGF setup stones)."""
    size, black, white = parse(diagram)

    def sgf_points(points):
        return "".join(f"[{chr(97 + c)}{chr(97 + size - 1 - r)}]" for r, c in points)

    path = tmp_path / "position.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[{size}]AB{sgf_points(black)}AW{sgf_points(white)})")
    engine = GtpEngine(size=size, rules=Rules.preset(rules))
    assert engine.handle(f"loadsgf {path}").startswith("=")
    engine.set_rules(Rules.preset(rules))
    return engine


def test_final_status_list_dead_alive_seki(tmp_path):
    engine = engine_with(DEAD_INSIDE, "japanese", tmp_path)
    assert engine.handle("final_status_list dead") == "= G8\nC2\n\n"  # top row first, as GNU Go
    alive = engine.handle("final_status_list alive")
    assert alive.startswith("= ") and len(alive.strip().split("\n")) == 2  # the two walls
    assert "E5" in alive and "C2" not in alive
    assert engine.handle("final_status_list seki") == "= \n\n"
    # counted with C2 and G8 dead (tests/ai/test_status.py works the numbers out)
    assert engine.handle("final_score") == "= B+2.5\n\n"


def test_final_status_list_seki_one_chain_per_line(tmp_path):
    engine = engine_with(SEKI_WITH_EYES, "japanese", tmp_path)
    lines = engine.handle("final_status_list seki")[2:].strip().split("\n")
    assert sorted(lines) == sorted(["C2 D2 C1", "F2 E1 F1", "A3 B3 C3 D3 E3 F3 G3 B2 G2 A1 B1 G1"])
    assert engine.handle("final_score") == "= W+40.5\n\n"


@pytest.mark.parametrize("bad", ["final_status_list", "final_status_list foo", "final_status_list dead alive"])
def test_final_status_list_syntax(bad):
    assert GtpEngine(size=9).handle(bad).startswith("? syntax error")


def test_final_score_counts_as_it_stands_under_tromp_taylor(tmp_path):
    engine = engine_with(DEAD_INSIDE, "tromp-taylor", tmp_path)
    # Tromp-Taylor: no dead stones; C2 and G8 spoil nothing but their own points and regions.
    assert engine.handle("final_score") == "= " + str(engine.game.score().result) + "\n\n"


def test_final_status_list_territory_and_dame(tmp_path):
    engine = engine_with(DEAD_INSIDE, "japanese", tmp_path)
    black = engine.handle("final_status_list black_territory")[2:].strip().split()
    white = engine.handle("final_status_list white_territory")[2:].strip().split()
    dame = engine.handle("final_status_list dame")[2:].strip()
    # Black's 36 points below the walls (the dead C2's point among them), White's 27 above
    # (the dead G8's); no dame; one line, top row first, as GNU Go lists them.
    assert len(black) == 36 and len(white) == 27 and dame == ""
    assert "C2" in black and "G8" in white and "E5" not in black + white
    assert white[0] == "A9" and black[-1] == "J1"


@pytest.mark.parametrize("rules, seki_eyes", [("japanese", ""), ("chinese", "A2")])
def test_final_status_list_dame_of_a_seki(tmp_path, rules, seki_eyes):
    engine = engine_with(SEKI_WITH_EYES, rules, tmp_path)
    dame = engine.handle("final_status_list dame")[2:].strip().split()
    # the shared liberty E2 is dame under both rules; the eyes A2 (White's) and D1 (Black's)
    # are dame under territory scoring and their owners' under area scoring
    assert sorted(dame) == (["E2"] if seki_eyes else ["A2", "D1", "E2"])
    assert ("A2" in engine.handle("final_status_list white_territory")) is bool(seki_eyes)
    assert ("D1" in engine.handle("final_status_list black_territory")) is bool(seki_eyes)


def test_final_status_list_dame_between_walls(tmp_path):
    from tests.ai.test_status import DAME

    engine = engine_with(DAME, "chinese", tmp_path)
    assert engine.handle("final_status_list dame") == "= " + " ".join(f"{c}5" for c in "ABCDEFGHJ") + "\n\n"
