"""Alembic migrations of the server's schema, run programmatically at start-up (:mod:`miai.server.storage.db`).

A new revision: ``alembic -x`` is not needed; write a file in ``versions/`` whose
``down_revision`` is the last one, using batch operations (``op.batch_alter_table``) so that
ALTERs work on SQLite too.
"""
