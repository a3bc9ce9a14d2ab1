"""The browser application's pages (docs/SERVER.md §4): ``/`` (the lobby), ``/g/{id}`` (a
game), ``/r/{id}`` (a game's review), ``/review`` (an upload) and ``/review/{id}`` (an uploaded
record's review), the players' pages (``/signin``, ``/signup``, ``/me``: the player's games,
``/p/{name}``: a player's), and the static files under ``/static`` (plain ES modules and CSS, no
build step).

Every page is the same small HTML shell; ``static/app.js`` reads the path and draws the page,
its texts from ``/i18n/web/{lang}.json`` (:mod:`miai.server.web.texts`). The shell is already in
the language the page will show (:func:`request_language`: the ``miai_lang`` cookie the page sets
when a language is chosen, else the browser's ``Accept-Language``): its ``<html lang>`` and its
translated tab title, before the script runs. Its import map names
every module with the release's ``?v=`` (the modules import each other as plain ``./x.js``), so
a new release never mixes its modules with an older one's from the browser's cache.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from miai import __version__
from miai.i18n import normalize_language
from miai.server.errors import NotFound
from miai.server.play.seats import GameRecord
from miai.server.play.tokens import GAME_ID
from miai.server.state import Server
from miai.server.web.headers import PAGE_POLICY
from miai.server.web.texts import LANGUAGES, messages

__all__ = ["routes", "STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", re.DOTALL)
LANGUAGE_COOKIE = "miai_lang"
"""The cookie the page sets when a language is chosen (static/i18n.js): ``es``, ``it``..."""
HTML_LANG = {"pt": "pt-PT"}
"""The ``<html lang>`` of a language, where it is not the language's code."""


def accepted_languages(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header that the page speaks, most wanted first.

    >>> accepted_languages("fr-CH, fr;q=0.9, pt-BR;q=0.8, es;q=0.85, *;q=0.5")
    ['es', 'pt']
    """
    ranked = []
    for index, item in enumerate(header.split(",")[:20]):
        tag, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            weight = float(q)
        except ValueError:
            continue
        lang = normalize_language(tag)
        if lang is not None and weight > 0:
            ranked.append((-weight, index, lang))
    return [lang for _w, _i, lang in sorted(ranked)]


def request_language(request: Request) -> str:
    """The language the page will show this request: the chosen one (the ``miai_lang``
    cookie), else the first of ``Accept-Language`` the page speaks, else English."""
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return next(iter(accepted_languages(request.headers.get("accept-language", ""))), "en")


def page_title(request: Request, text: str, **fields: object) -> tuple[str, str]:
    """The request's language and the tab title ``miai · text`` in it (``text`` is the page's
    English text, translated by the web catalogue as the page translates it)."""
    lang = request_language(request)
    words = messages(lang).get(text, text).format(**fields)
    return lang, f"miai · {words}"


def versioned(name: str) -> str:
    """The address of static file ``name`` in this release: ``/static/{name}?v={version}``."""
    return f"/static/{name}?v={quote(__version__, safe='')}"


@cache
def import_map() -> str:
    """The shell's import map: each module's plain address (``/static/x.js``, what ``./x.js``
    means in a module) to its address in this release; as JSON safe inside ``<script>``."""
    imports = {f"/static/{path.name}": versioned(path.name) for path in sorted(STATIC_DIR.glob("*.js"))}
    return json.dumps({"imports": imports}).replace("<", "\\u003c")


def page_policy(page: str) -> str:
    """The page's ``Content-Security-Policy``: :data:`~miai.server.web.headers.PAGE_POLICY`
    with the hash of each inline script of ``page`` (none: modules from /static only)."""
    hashes = [hashlib.sha256(script.encode()).digest() for script in _INLINE_SCRIPT.findall(page)]
    return PAGE_POLICY.format(scripts="".join(f" 'sha256-{base64.b64encode(h).decode()}'" for h in hashes))


NO_SCRIPT = "miai needs JavaScript to play in the browser; programs can use its JSON API (docs/SERVER.md)."
"""What a browser without scripts shows, in the page's language (app.js holds it for the catalogue)."""


def shell(title: str, lang: str = "en") -> HTMLResponse:
    """The page's HTML in ``lang``: the style, the modules' import map, the application's
    module, and a text for browsers without scripts (:data:`NO_SCRIPT`, translated)."""
    return HTMLResponse(
        f'<!doctype html><html lang="{HTML_LANG.get(lang, lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="icon" href="data:,">'
        '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">'
        f'<link rel="stylesheet" href="{html.escape(versioned("style.css"))}">'
        f'<script type="importmap">{import_map()}</script>'
        f'<script type="module" src="{html.escape(versioned("app.js"))}"></script>'
        '</head><body><header id="top"></header><main id="app">'
        f"<noscript>{html.escape(messages(lang).get(NO_SCRIPT, NO_SCRIPT))}</noscript></main></body></html>",
        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"},
    )


def page(title: tuple[str, str]) -> HTMLResponse:
    """The shell (in ``title``'s language, with its tab title) with its
    ``Content-Security-Policy`` (headers.py): exactly the scripts the shell holds may run, the
    modules from /static and, by their SHA-256, its inline ones."""
    lang, text = title
    response = shell(text, lang)
    response.headers["Content-Security-Policy"] = page_policy(bytes(response.body).decode())
    return response


async def home(request: Request) -> Response:
    return page(page_title(request, "Play Go"))


async def _known(request: Request) -> GameRecord:
    """The path's game, if there is such a game (a 404 otherwise, as from the API)."""
    game_id = str(request.path_params["id"])
    server: Server = request.app.state.server
    record = await server.store.load_game(game_id) if GAME_ID.fullmatch(game_id) else None
    if record is None:
        raise NotFound(f"no game {game_id!r}")
    return record


async def game_page(request: Request) -> Response:
    record = await _known(request)
    return page(page_title(request, "{size}×{size} game", size=record.size))


async def review_page(request: Request) -> Response:
    if "id" in request.path_params:
        await _known(request)
    return page(page_title(request, "Review"))


async def upload_page(request: Request) -> Response:
    """An uploaded review's permanent page (a 404 for a review that is not kept)."""
    review_id = str(request.path_params["id"])
    server: Server = request.app.state.server
    if not GAME_ID.fullmatch(review_id) or await server.reviews.get(review_id) is None:
        raise NotFound(f"no review {review_id!r}")
    return page(page_title(request, "Review"))


async def player_page(request: Request) -> Response:
    """A player's page, the player's own games, signing in or up: the shell, which asks the API."""
    return page((request_language(request), "miai"))


def routes() -> list[BaseRoute]:
    return [
        Route("/", home, methods=["GET"]),
        Route("/g/{id}", game_page, methods=["GET"]),
        Route("/r/{id}", review_page, methods=["GET"]),
        Route("/review", review_page, methods=["GET"]),
        Route("/review/{id}", upload_page, methods=["GET"]),
        Route("/signin", player_page, methods=["GET"]),
        Route("/signup", player_page, methods=["GET"]),
        Route("/me", player_page, methods=["GET"]),
        Route("/p/{name}", player_page, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
