"""Plain HTML pages: ``/`` says what the server is and how to use its API; ``/g/{id}`` shows a
game as text. (The browser application is a later issue; everything it needs is in the API
and the WebSocket.)"""

from __future__ import annotations

import html

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from miai import __version__
from miai.server.room import GameRoom
from miai.server.state import Server

__all__ = ["routes"]

_STYLE = "body{font-family:sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{font-size:1.1rem}"


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_STYLE}</style></head>'
        f"<body>{body}</body></html>"
    )


async def home(request: Request) -> Response:
    return _page(
        "miai",
        f"<h1>miai serve</h1><p>miai {html.escape(__version__)}: Go online. This server speaks JSON:</p>"
        "<ul><li><code>POST /api/games</code> creates a game and answers its seat tokens</li>"
        "<li><code>GET /api/games/{id}</code>, <code>GET /api/games/{id}/events?after=N</code>, "
        "<code>GET /api/games/{id}/sgf</code></li>"
        "<li><code>POST /api/games/{id}/play</code> (and <code>resign</code>, <code>dead</code>, "
        "<code>accept</code>, <code>refuse</code>) with <code>Authorization: Bearer TOKEN</code></li>"
        "<li><code>/ws/game/{id}?v=N</code>: the game's events as they happen</li></ul>"
        "<p>The page to play in the browser is coming.</p>",
    )


async def game_page(request: Request) -> Response:
    server: Server = request.app.state.server
    game_id = str(request.path_params["id"])

    async def show(room: GameRoom) -> Response:
        state = room.state()
        status = state["result"] or f"{state['phase']}, {state['to_move'] or ''} to act".replace(", ", ": ", 1)
        return _page(
            f"miai game {game_id}",
            f"<h1>Game {html.escape(game_id)}</h1>"
            f"<p>{state['size']}×{state['size']}, {html.escape(state['rules'])}; {html.escape(status)}; "
            f"move {len(state['moves'])}, version {state['v']}</p>"
            f"<pre>{html.escape(str(room.game.board))}</pre>"
            f'<p><a href="/api/games/{html.escape(game_id)}">state (JSON)</a> · '
            f'<a href="/api/games/{html.escape(game_id)}/sgf">SGF</a></p>',
        )

    return await server.registry.run(game_id, show)


def routes() -> list[Route]:
    return [Route("/", home, methods=["GET"]), Route("/g/{id}", game_page, methods=["GET"])]
