"""The course's API: the lessons, an answer judged by the rules core (the refusal's reason as the
WebSocket names it), and a signed-in user's progress kept in the database (a guest's is not)."""

from __future__ import annotations

from miai.lessons.model import course


def test_the_course_lists_every_lesson_with_its_steps_positions(client):
    lessons = client.get("/api/learn").json()["lessons"]
    assert [l["id"] for l in lessons] == [l.id for l in course()]
    ko = next(l for l in lessons if l["id"] == "04-ko")
    assert ko["title"]["it"] == "Il ko" and ko["steps"][1]["to_move"] == "white" and ko["steps"][1]["ko"] == "B3"


def test_an_answer_is_judged_with_the_rules_reason(client):
    retake = client.post("/api/learn/04-ko/2", json={"answer": ["B3"]}).json()
    assert retake["outcome"] == "right" and retake["reason"] == "ko"
    elsewhere = client.post("/api/learn/04-ko/2", json={"answer": ["E1"]}).json()
    assert elsewhere["outcome"] == "wrong" and elsewhere["why"] == "legal"
    occupied = client.post("/api/learn/04-ko/1", json={"answer": ["B3"]}).json()
    assert occupied["why"] == "illegal" and occupied["reason"] == "occupied"
    captured = client.post("/api/learn/04-ko/1", json={"answer": ["C3"]}).json()
    assert captured["outcome"] == "right" and "B3" not in captured["stones"]
    assert client.post("/api/learn/04-ko/9", json={"answer": ["C3"]}).status_code == 404
    assert client.post("/api/learn/04-ko/1", json={"answer": "C3"}).status_code == 400


def test_a_signed_in_users_progress_is_kept_and_only_grows(client):
    assert client.get("/api/learn/progress").json() == {"signed_in": False, "progress": {}, "problems": []}
    assert client.put("/api/learn/progress", json={"lesson": "02-capture", "steps": 2}).status_code == 401
    assert client.post("/api/users", json={"username": "learner", "password": "a long pass phrase 42"}).status_code == 201
    assert client.put("/api/learn/progress", json={"lesson": "02-capture", "steps": 2}).json()["progress"] == {"02-capture": 2}
    client.put("/api/learn/progress", json={"lesson": "02-capture", "steps": 1})
    client.put("/api/learn/progress", json={"lesson": "01-board", "steps": 2})
    assert client.get("/api/learn/progress").json() == {"signed_in": True, "progress": {"02-capture": 2, "01-board": 2}, "problems": []}
    assert client.put("/api/learn/progress", json={"lesson": "01-board", "steps": 3}).status_code == 400
    assert client.put("/api/learn/progress", json={"lesson": "99-nothing", "steps": 1}).status_code == 400


def test_a_signed_in_users_solved_problems_are_kept_apart_from_the_lessons(client):
    first, second = [p["id"] for p in client.get("/api/problems").json()["problems"][:2]]
    assert client.put("/api/learn/progress", json={"problem": first}).status_code == 401  # a guest's: in the browser
    assert client.get("/api/learn/progress").json()["problems"] == []
    assert client.post("/api/users", json={"username": "solver", "password": "a long pass phrase 42"}).status_code == 201
    assert client.put("/api/learn/progress", json={"problem": second}).json()["problems"] == [second]
    client.put("/api/learn/progress", json={"problem": second})
    client.put("/api/learn/progress", json={"lesson": "01-board", "steps": 1})
    assert client.put("/api/learn/progress", json={"problem": first}).json() == {
        "signed_in": True, "progress": {"01-board": 1}, "problems": sorted([first, second])}
    assert client.put("/api/learn/progress", json={"problem": "no-such-problem"}).status_code == 400
    assert client.put("/api/learn/progress", json={"problem": first, "lesson": "01-board"}).status_code == 400
    assert client.put("/api/learn/progress", json={"problem": 3}).status_code == 400
    assert client.put("/api/learn/progress", json={"lesson": "01-board"}).status_code == 400
