"""The page's texts in other languages: ``GET /i18n/web/{lang}.json``.

The page (static/*.js) writes every text as ``_("English text")``; ``pybabel extract`` (babel.cfg,
see docs/SERVER.md §4.2) collects them into ``locale/web.pot``, and each language's translations
live in ``src/miai/locale/{lang}/LC_MESSAGES/web.po`` (gettext domain ``web``; the terminal's
texts are the domain ``miai`` of the same tree). This module reads a language's ``.po`` with
Babel once and answers ``{"lang", "messages": {english: translated}}``, leaving out the
untranslated and fuzzy entries (the page shows the English text for those). English needs no
catalogue: its answer is empty.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.errors import NotFound

__all__ = ["LANGUAGES", "routes", "messages"]

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = ("en", "es", "it", "pt")
"""The page's languages: English (the source) and those with a ``web.po``."""
DOMAIN = "web"


@lru_cache(maxsize=len(LANGUAGES))
def messages(lang: str) -> dict[str, str]:
    """The translations of ``lang``: English text to translated text (plural forms as
    ``"singular\\x00plural"`` keys to a list of forms)."""
    if lang == "en":
        return {}
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    out: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = [str(f) for f in message.string or ()] if not isinstance(message.string, str) else []
            if forms and all(forms):
                out["\x00".join(message.id)] = forms
        elif isinstance(message.string, str) and message.string:
            out[str(message.id)] = message.string
    return out


async def catalogue(request: Request) -> Response:
    lang = str(request.path_params["lang"])
    if lang not in LANGUAGES:
        raise NotFound(f"no language {lang!r}: the page speaks {', '.join(LANGUAGES)}")
    return JSONResponse(
        {"lang": lang, "messages": messages(lang)}, headers={"Cache-Control": "public, max-age=300"}
    )


def routes() -> list[Route]:
    return [Route("/i18n/web/{lang}.json", catalogue, methods=["GET"])]
