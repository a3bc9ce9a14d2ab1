"""English left on a translated page: the visible texts of a page (``innerText``, the names of
the controls, the tab title) that are one of the web catalogue's English texts whose translation
differs, numbers written the English way, and players named in English.

A visible text (a line, or a piece of one between `` · `` or ``, ``) matches a catalogue text
whose ``{placeholders}`` stand for anything; texts added to the pages are checked as soon as
they are in web.pot.
"""

from __future__ import annotations

import re
from typing import Any

from babel.messages.pofile import read_po

from miai.server.web.texts import LOCALE_DIR, messages

__all__ = ["english_left"]

VISIBLE_TEXT = """() => {
  const texts = document.body.innerText.split("\\n");
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) texts.push(node.getAttribute(name) || "");
  }
  for (const node of document.querySelectorAll("svg title, option")) texts.push(node.textContent);
  texts.push(document.title);
  return texts.map((t) => t.trim()).filter(Boolean);
}"""


def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English text of the page's catalogue that ``lang`` translates differently, as a
    pattern of a whole visible text (a placeholder matches any text)."""
    with (LOCALE_DIR / "web.pot").open("rb") as f:
        template = read_po(f)
    translated = messages(lang)
    patterns = []
    for message in template:
        if not message.id:
            continue
        ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        key = "\x00".join(ids) if len(ids) > 1 else ids[0]
        theirs = translated.get(key)
        for english in ids:
            if theirs == english or (isinstance(theirs, list) and english in theirs):
                continue  # the same word in that language (Komi, Chat, Total...)
            body = "".join(".+?" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{\w+\})", english))
            patterns.append((english, re.compile(body)))
    return patterns


def english_left(page: Any, lang: str) -> list[str]:
    """The visible texts of ``page`` that are English, and any number written with a point."""
    found = []
    patterns = english_patterns(lang)
    for text in page.evaluate(VISIBLE_TEXT):
        pieces = {text, *re.split(r" · | – |, |: ", text)}
        for piece in pieces:
            piece = piece.strip(" .")
            for english, pattern in patterns:
                if pattern.fullmatch(piece):
                    found.append(f"{text!r} is {english!r}")
        if re.search(r"(?<![\w.])\d+\.\d+(?![\w.])", text):
            found.append(f"{text!r} writes a number the English way")
        if text in ("null", "undefined", "NaN") or re.search(r"\bGuest \d|\bcomputer:\d|\bmiai level\b", text):
            found.append(f"{text!r} names a player in English")
    return found
