"""The database: the tables, their migrations, the engine, and the store (one transaction per action)."""
