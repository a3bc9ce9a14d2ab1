"""Game flow on the rules core: events and their replay, actions, undo, claims, clocks, seats, new games.

Nothing here knows of HTTP, SQL or processes: each module turns a request into what the rules
core (:class:`miai.Game`) does with it, and that into an event."""
