"""The errors of the match package (a module of their own, so that every module of the
package can raise them without importing another)."""

from __future__ import annotations

from miai.errors import MiaiError


class MatchError(MiaiError):
    """The match cannot go on: an engine cannot be started or cannot play at all, or the
    output directory belongs to another match or cannot be read."""


class MatchConfigError(MatchError, ValueError):
    """A match setting that makes no sense (an empty engine command line, a timeout that is
    not a positive number, a move cap of 0...); the message names the setting."""


class ResultLineError(MatchError, ValueError):
    """A line of ``results.jsonl`` that is not a game result (not JSON, not an object, a
    field missing or of the wrong type); readers skip such lines and keep them aside."""
