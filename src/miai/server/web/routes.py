"""Every HTTP and WebSocket route of the server, in the one order Starlette must try them.

The order matters in one place: the lobby's ``POST /api/games/{id}/join`` and the count's
``POST /api/games/{id}/estimate`` come before the games' ``POST /api/games/{id}/{action}``, which
would otherwise take them.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from miai.server.web import (
    analysis,
    automatch,
    counts,
    diagrams,
    games,
    learn,
    lobby,
    pages,
    people,
    problems,
    profiles,
    reviews,
    texts,
    ws,
)

__all__ = ["routes", "exception_handlers"]

exception_handlers = games.exception_handlers


def routes() -> list[BaseRoute]:
    """The routes by resource: pages and their texts, the lobby, games, reviews, people, sockets."""
    return [
        *pages.routes(),
        *texts.routes(),
        *lobby.routes(),  # before the games' routes: POST /api/games/{id}/{action} would take /join
        *diagrams.routes(),
        *counts.routes(),  # before the games' routes too: POST /api/games/{id}/estimate
        *profiles.routes(),
        *games.routes(),
        *reviews.routes(),
        *analysis.routes(),
        *people.routes(),
        *automatch.routes(),
        *learn.routes(),
        *problems.routes(),
        *ws.routes(),
    ]
