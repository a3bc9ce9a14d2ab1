"""The course that teaches the rules of Go by playing (``/learn`` and ``miai learn``).

Lessons are data (``data/*.toml``, docs/LESSONS.md): each step is a position, a task and the
texts in every language; :mod:`~miai.lessons.judges` judges an answer with the rules core
(:class:`~miai.game.Game`, :mod:`~miai.scoring`, :mod:`~miai.life`, :mod:`~miai.handicap`),
never with a list of clicks; :mod:`~miai.lessons.check` validates every file. It imports only
the core: the server and the terminal both build on it."""
