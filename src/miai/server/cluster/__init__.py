"""Several processes over one database: game shards, the Redis bus, the router that runs an
operation on the game's owner, and the relay of a game owned by another process."""
