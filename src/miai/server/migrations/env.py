"""Alembic's environment: runs the migrations on the connection the server hands over.

The server calls :func:`miai.server.db.migrate`, which puts a synchronous connection (from the
async engine's ``run_sync``) in ``config.attributes["connection"]``; offline mode is not used.
"""

from __future__ import annotations

from alembic import context

from miai.server.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the server runs these migrations
    raise RuntimeError("miai's migrations run from miai.server.db.migrate, with a connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
