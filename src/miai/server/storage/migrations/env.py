"""Alembic's environment: runs the migrations on the connection the server hands over.

The server calls :func:`miai.server.storage.db.migrate`, which puts a synchronous connection (from the
async engine's ``run_sync``) in ``config.attributes["connection"]``; offline mode is not used.
Imported outside a migration (by a documentation tool or doctest collection) it does nothing.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from alembic.config import Config

from miai.server.storage.schema import metadata


def run_migrations(connection: Any) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_config: Config | None
try:
    _config = context.config
except AttributeError:  # not inside a migration
    _config = None
if _config is not None:
    connection = _config.attributes.get("connection")
    if connection is None:  # pragma: no cover - only the server runs these migrations
        raise RuntimeError("miai's migrations run from miai.server.storage.db.migrate, with a connection")
    run_migrations(connection)
