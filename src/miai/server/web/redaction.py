"""Seat tokens never reach the logs: uvicorn writes every request's path with its query
(``/g/ID?seat=TOKEN``, ``/ws/game/ID?token=TOKEN``) in its access and WebSocket lines at
``--log-level info``, and the WebSocket library its handshake at ``debug``.

:class:`TokenFilter` rewrites such a record with the value of every ``seat``, ``token``
and ``auth`` parameter replaced by ``[redacted]``; :func:`redact_logs` puts it on uvicorn's loggers.
"""

from __future__ import annotations

import logging
import re

__all__ = ["TokenFilter", "redact", "redact_logs", "SECRET_PARAMETERS"]

SECRET_PARAMETERS = ("seat", "token", "auth")
_SECRET = re.compile(r"([?&](?:%s)=)[^&\s\"']*" % "|".join(SECRET_PARAMETERS), re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the secret parameters' values of any URL in it replaced.

    >>> redact('127.0.0.1:5 - "GET /g/abc?seat=s3cr3t&x=1 HTTP/1.1" 200')
    '127.0.0.1:5 - "GET /g/abc?seat=[redacted]&x=1 HTTP/1.1" 200'
    """
    return _SECRET.sub(r"\1[redacted]", text)


class TokenFilter(logging.Filter):
    """A logging filter that redacts the secret parameters from a record's message and its
    arguments, keeping their shape (uvicorn's access formatter unpacks the arguments); it drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(a) if isinstance(a, str) else a for k, a in record.args.items()}
        return True


def redact_logs(names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error")) -> None:
    """Redact the records of the loggers ``names`` (once each, however often it is called)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenFilter) for f in logger.filters):
            logger.addFilter(TokenFilter())
