"""The course in a browser, in each language: every step of every lesson answered wrongly once
(the explanation shown, in that language) and then rightly, through clicks only (the count's
numbers typed), the answers being those each lesson file states; the course ends with a first
9×9 game against the computer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from miai.lessons.model import Step, Task, course

SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
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
                page.screenshot(path=str(SHOTS / f"lesson-{lang}.png"), full_page=True)
            answer(page, step, step.wrong[0])
            feedback = page.locator("#learn-feedback.wrong .why")
            expect(feedback).not_to_be_empty()
            said = feedback.inner_text()
            if lang == "en":
                ENGLISH[(lesson.id, step.number)] = said
            elif (lesson.id, step.number) in ENGLISH:
                assert said != ENGLISH[(lesson.id, step.number)], (lesson.id, step.number, said)
            if (lesson.id, step.number) == ("04-ko", 2):
                page.screenshot(path=str(SHOTS / f"lesson-wrong-{lang}.png"), full_page=True)
            answer(page, step, step.right[0])
            expect(page.locator("#learn-feedback.right")).to_be_visible()
            page.locator("#learn-next").click()
    page.locator("#learn-first-game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator('[data-vertex="E5"]')).to_be_visible()
