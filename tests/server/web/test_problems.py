"""The problems' API: the list, and a move judged by the solution tree and the rules core after
the attempt's moves (the page keeps the attempt)."""

from __future__ import annotations

from miai.coords import point_to_gtp
from miai.problems import Verdict, load_problems


def test_the_problems_are_listed_with_their_positions_and_goals(client):
    listed = client.get("/api/problems").json()["problems"]
    shipped = load_problems()
    assert [p["id"] for p in listed] == [p.id for p in shipped]
    first = listed[0]
    assert first["goal"] == shipped[0].goal.value and len(first["stones"]) == len(shipped[0].black | shipped[0].white)


def test_a_move_is_right_wrong_refuted_or_illegal_with_the_rules_reason(client):
    problem = load_problems()[0]
    url = f"/api/problems/{problem.id}"
    wrong = next(c for c in problem.start.replies if c.verdict is Verdict.WRONG)
    refuted = client.post(url, json={"move": point_to_gtp(wrong.move.point)}).json()
    assert refuted["outcome"] == "wrong" and refuted["reply"] == point_to_gtp(wrong.replies[0].move.point)
    right = problem.start.right_replies[0]
    answered = client.post(url, json={"move": point_to_gtp(right.move.point)}).json()
    assert answered["outcome"] in ("right", "solved")
    occupied = point_to_gtp(sorted(problem.black | problem.white)[0])
    illegal = client.post(url, json={"move": occupied}).json()
    assert illegal["outcome"] == "illegal" and illegal["reason"] == "occupied"
    assert client.post("/api/problems/no-such", json={"move": "A1"}).status_code == 404
    assert client.post(url, json={"move": "pass"}).status_code == 400
