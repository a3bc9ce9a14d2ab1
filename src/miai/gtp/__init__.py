"""The Go Text Protocol (GTP v2): the framing (:mod:`miai.gtp.protocol`), the engine that
serves a :class:`~miai.game.Game` (:mod:`miai.gtp.engine`, composed of its own commands and
those of :mod:`~miai.gtp.position`, :mod:`~miai.gtp.counting` and :mod:`~miai.gtp.genmove`,
which see it as a :class:`~miai.gtp.state.GtpState`; arguments read by :mod:`~miai.gtp.words`), the KataGo rules mapping
(:mod:`miai.gtp.katago_rules`) and the stdin/stdout loop (:mod:`miai.gtp.session`).

Importing this package is cheap: nothing here loads the compiled board kernel until a
command needs the board, so that ``miai gtp`` answers ``name`` at once.
"""

from miai.gtp.protocol import (
    Command,
    Dispatcher,
    GtpError,
    format_response,
    parse_command,
    preprocess,
)

__all__ = ["Command", "Dispatcher", "GtpError", "format_response", "parse_command", "preprocess"]
