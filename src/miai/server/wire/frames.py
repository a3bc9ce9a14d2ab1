"""Frames from the server to a WebSocket client: ``{"t": type, "d": data}`` as compact JSON text."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["frame"]


def frame(t: str, d: Any) -> str:
    """A server-to-client frame as JSON text: ``{"t": type, "d": data}``."""
    return json.dumps({"t": t, "d": d}, separators=(",", ":"))
