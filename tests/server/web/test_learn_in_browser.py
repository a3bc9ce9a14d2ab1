"""The course in a browser, in each language: every step of every lesson answered wrongly once
(the explanation shown, in that language) and then rightly, through clicks only (the count's
numbers typed), the answers being those each lesson file states; the course ends with a first
9×9 game against the computer."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from miai.coords import point_to_gtp
from miai.lessons.model import Step, Task, course
from miai.problems import Problem, Verdict, load_problems
from tests.server.web.shots import shot


@pytest.fixture(autouse=True)
def patient_expectations():
    """A loaded test machine answers slower than expect's 5 s: 15 s, like the contexts' own default."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


CHOICES = {Task.AGREE, Task.WINNER, Task.FIRST}


def answer(page, step: Step, words: str) -> None:
    """Give ``words`` (an answer as the lesson file states it) by clicking."""
    if step.task is Task.COUNT:
        black, white = words.split()
        page.locator("#learn-black").fill(black)
        page.locator("#learn-white").fill(white)
        page.locator("#learn-check").click()
        return
    if step.task in CHOICES:
        page.locator(f"#learn-{words}").click()
        return
    for word in words.split():
        if word == "pass":
            page.locator("#learn-pass").click()
        else:
            page.locator(f'#learn-board [data-vertex="{word}"]').click()
    if step.task is Task.DEAD:
        page.locator("#learn-done").click()


ENGLISH: dict[tuple[str, int], str] = {}


def right_path(problem: Problem) -> list[str]:
    """The player's moves of one right line of the problem's tree, the computer answering each."""
    moves, node = [], problem.start
    while True:
        child = node.right_replies[0]
        moves.append(point_to_gtp(child.move.point))
        if not child.replies:
            return moves
        node = child.replies[0]


def solve_first_problem(page, lang: str) -> None:
    """The first problem: a wrong first move refuted (explained), then solved by clicks."""
    problem = load_problems()[0]
    wrong = next(c for c in problem.start.replies if c.verdict is Verdict.WRONG)
    page.locator(f'#problem-board [data-vertex="{point_to_gtp(wrong.move.point)}"]').click()
    expect(page.locator("#problem-feedback.wrong .why")).not_to_be_empty()
    shot(page, f"problem-wrong-{lang}", full_page=True)
    page.locator("#problem-retry").click()
    for vertex in right_path(problem):
        page.locator(f'#problem-board [data-vertex="{vertex}"]').click()
    expect(page.locator("#problem-feedback.right")).to_be_visible()
    shot(page, f"problem-{lang}", full_page=True)


@pytest.mark.parametrize("lang", ["en", "es", "it", "pt"])
def test_the_whole_course_is_taken_wrong_then_right_in_each_language(server_url, new_context, lang):
    page = new_context({"en": "en-US", "es": "es-ES", "it": "it-IT", "pt": "pt-PT"}[lang]).new_page()
    page.goto(server_url + "/")
    page.locator("#learn-link").click()
    expect(page).to_have_url(re.compile(r"/learn$"))
    for lesson in course():
        expect(page.locator("#learn-title")).to_have_text(lesson.title[lang])
        for step in lesson.steps:
            expect(page.locator("#learn-task")).to_have_text(step.text[lang])
            if (lesson.id, step.number) == ("04-ko", 2):
                shot(page, f"lesson-{lang}", full_page=True)
            answer(page, step, step.wrong[0])
            feedback = page.locator("#learn-feedback.wrong .why")
            expect(feedback).not_to_be_empty()
            said = feedback.inner_text()
            if lang == "en":
                ENGLISH[(lesson.id, step.number)] = said
            elif (lesson.id, step.number) in ENGLISH:
                assert said != ENGLISH[(lesson.id, step.number)], (lesson.id, step.number, said)
            if (lesson.id, step.number) == ("04-ko", 2):
                shot(page, f"lesson-wrong-{lang}", full_page=True)
            answer(page, step, step.right[0])
            expect(page.locator("#learn-feedback.right")).to_be_visible()
            page.locator("#learn-next").click()
    page.locator("#learn-end-problems").click()
    solve_first_problem(page, lang)
    page.goto(server_url + "/learn")  # the course done, the page opens at its end
    page.locator("#learn-first-game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator('[data-vertex="E5"]')).to_be_visible()


def solve(page, problem: Problem) -> None:
    """The problem solved by clicks along a right line; the page's PUT of the solved problem waited for
    when signed in."""
    for vertex in right_path(problem):
        page.locator(f'#problem-board [data-vertex="{vertex}"]').click()
    expect(page.locator("#problem-feedback.right")).to_be_visible()
    expect(page.locator("#problem-title .sr-only")).to_have_text(" solved")


def kept_problem(response) -> bool:
    return response.request.method == "PUT" and response.url.endswith("/api/learn/progress") and "problem" in (response.request.post_data or "")


def test_a_signed_in_learners_progress_follows_them_to_another_browser(server_url, new_context):
    problems = load_problems()
    first = new_context("en-US")
    page = first.new_page()
    page.goto(server_url + "/learn")
    page.locator('#learn-board [data-vertex="E5"]').click()  # solved as a guest: kept in the browser
    expect(page.locator("#learn-feedback.right")).to_be_visible()
    page.locator("#learn-problems").click()
    solve(page, problems[0])  # a problem too
    answer = page.request.post(server_url + "/api/users", data={"username": "pupil", "password": "a long pass phrase 42"},
                               headers={"Origin": server_url})  # fmt: skip
    assert answer.status == 201, answer.text()
    with page.expect_response(kept_problem):
        page.goto(server_url + "/learn")  # signed in now: what the browser solved joins the account
    expect(page.locator("#learn-task")).to_have_text(course()[0].steps[1].text["en"])
    page.locator('#learn-board [data-vertex="C4"]').click()
    expect(page.locator("#learn-feedback.right")).to_be_visible()
    page.locator("#learn-problems").click()
    expect(page.locator("#problem-title")).to_have_text(f"Problem 2 of {len(problems)}")  # the next one not solved
    with page.expect_response(kept_problem):
        solve(page, problems[1])
    other = new_context("en-US").new_page()
    login = other.request.post(server_url + "/api/session", data={"username": "pupil", "password": "a long pass phrase 42"},
                               headers={"Origin": server_url})  # fmt: skip
    assert login.status == 200, login.text()
    other.goto(server_url + "/learn")
    expect(other.locator("#learn-title")).to_have_text(course()[1].title["en"])
    expect(other.locator("#learn-lessons li").first).to_contain_text("✓")
    other.locator("#learn-problems").click()
    expect(other.locator("#problem-title")).to_have_text(f"Problem 3 of {len(problems)}")  # both solved ones follow the learner
    expect(other.locator("#problem-count")).to_have_text(f"Solved: 2 of {len(problems)}")
    marks = other.locator("#problem-list li button")
    expect(marks.nth(0)).to_have_text("1 ✓ solved")
    expect(marks.nth(1)).to_have_text("2 ✓ solved")
    expect(marks.nth(2)).to_have_text("3")
    expect(marks.nth(2)).to_have_attribute("aria-current", "true")
    shot(other, "problems-solved-en", full_page=True)


def click_at_once(page, board_id: str, points: list[str]) -> None:
    """Click ``points`` of the board ``board_id`` in one browser task: every click comes before any reply."""
    page.evaluate("([board, points]) => points.forEach((p) => document.querySelector(`#${board} [data-vertex='${p}']`)"
                  ".dispatchEvent(new MouseEvent('click', { bubbles: true })))", [board_id, points])  # fmt: skip


@pytest.mark.parametrize("lesson_id", ["11-handicap", "12-record"])
def test_a_multi_point_answer_clicked_faster_than_the_server_replies_keeps_every_point(
    server_url, new_context, lesson_id
):
    """All the points clicked in one browser task, so every click comes before the first reply: each
    answer sent must still build on the ones before it, and the step ends solved with every stone."""
    lesson = next(lesson for lesson in course() if lesson.id == lesson_id)
    step = lesson.steps[0]
    page = new_context("en-US").new_page()
    page.goto(server_url + "/learn")
    page.locator(f'#learn-lessons a[href="#{lesson_id}"]').click()
    expect(page.locator("#learn-task")).to_have_text(step.text["en"])
    points = step.right[0].split()
    click_at_once(page, "learn-board", points)
    expect(page.locator("#learn-feedback.right")).to_be_visible()
    for point in points:
        cell = page.locator(f'#learn-board [data-vertex="{point}"]')
        expect(cell).to_have_attribute("aria-label", re.compile(r"stone"))


def test_a_problems_moves_clicked_faster_than_the_computer_answers_are_each_read_after_its_answer(
    server_url, new_context
):
    """The player's moves of a right line clicked in one browser task, before any answer comes: each
    is still sent after the computer's answer to the one before, and the problem ends solved."""
    problem = next(problem for problem in load_problems() if len(right_path(problem)) > 1)
    page = new_context("en-US").new_page()
    page.goto(server_url + "/learn")
    page.locator("#learn-problems").click()
    index = load_problems().index(problem)
    page.locator("#problem-list li button").nth(index).click()
    expect(page.locator("#problem-title")).to_contain_text(f"Problem {index + 1} of")
    click_at_once(page, "problem-board", right_path(problem))
    expect(page.locator("#problem-feedback.right")).to_be_visible()
