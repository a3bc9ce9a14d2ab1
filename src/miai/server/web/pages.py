"""The browser application's pages (docs/SERVER.md §4): ``/`` (the lobby), ``/g/{id}`` (a
game), ``/r/{id}`` (a game's review), ``/review`` (an upload) and ``/review/{id}`` (an uploaded
record's review), the players' pages (``/signin``, ``/signup``, ``/me``: the player's games,
``/p/{name}``: a player's), and the static files under ``/static`` (plain ES modules and CSS, no
build step).

Every page is the same small HTML shell; ``static/app.js`` reads the path and draws the page,
its texts from ``/i18n/web/{lang}.json`` (:mod:`miai.server.web.texts`). The shell sets no
language itself: the script sets ``<html lang>`` to the language it shows. Its import map names
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
from miai.server.errors import NotFound
from miai.server.play.tokens import GAME_ID
from miai.server.state import Server
from miai.server.web.headers import PAGE_POLICY

__all__ = ["routes", "STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", re.DOTALL)


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


def shell(title: str) -> HTMLResponse:
    """The page's HTML: the style, the modules' import map, the application's module, and a text
    for browsers without scripts."""
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="icon" href="data:,">'
        '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">'
        f'<link rel="stylesheet" href="{html.escape(versioned("style.css"))}">'
        f'<script type="importmap">{import_map()}</script>'
        f'<script type="module" src="{html.escape(versioned("app.js"))}"></script>'
        '</head><body><header id="top"></header><main id="app">'
        "<noscript>miai needs JavaScript to play in the browser; programs can use its JSON API "
        "(docs/SERVER.md).</noscript></main></body></html>",
        headers={"Cache-Control": "no-cache"},
    )


def page(title: str) -> HTMLResponse:
    """The shell with its ``Content-Security-Policy`` (headers.py): exactly the scripts the
    shell holds may run, the modules from /static and, by their SHA-256, its inline ones."""
    response = shell(title)
    response.headers["Content-Security-Policy"] = page_policy(bytes(response.body).decode())
    return response


async def home(request: Request) -> Response:
    return page("miai")


async def _known(request: Request) -> str:
    """The path's game id, if there is such a game (a 404 otherwise, as from the API)."""
    game_id = str(request.path_params["id"])
    server: Server = request.app.state.server
    if not GAME_ID.fullmatch(game_id) or await server.store.load_game(game_id) is None:
        raise NotFound(f"no game {game_id!r}")
    return game_id


async def game_page(request: Request) -> Response:
    return page(f"miai · {await _known(request)}")


async def review_page(request: Request) -> Response:
    if "id" in request.path_params:
        await _known(request)
    return page("miai · review")


async def upload_page(request: Request) -> Response:
    """An uploaded review's permanent page (a 404 for a review that is not kept)."""
    review_id = str(request.path_params["id"])
    server: Server = request.app.state.server
    if not GAME_ID.fullmatch(review_id) or await server.reviews.get(review_id) is None:
        raise NotFound(f"no review {review_id!r}")
    return page("miai · review")
async def player_page(request: Request) -> Response:
    """A player's page, the player's own games, signing in or up: the shell, which asks the API."""
    return page("miai")


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
