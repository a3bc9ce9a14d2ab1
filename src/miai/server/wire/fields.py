"""Strict reading of JSON request bodies: only the allowed fields, each of its type and within
bounds, or a :class:`~miai.server.errors.BadRequest` that says what was wrong."""

from __future__ import annotations

from typing import Any

from miai.server.errors import BadRequest

__all__ = ["MAX_POINTS", "check_fields", "get_bool", "get_int", "get_str", "get_vertices", "json_type"]

MAX_POINTS = 25 * 25
"""The most vertices a list field may hold (every point of the largest board)."""


def check_fields(body: Any, allowed: dict[str, bool], what: str) -> dict[str, Any]:
    """``body`` as a JSON object with only the ``allowed`` fields and every required one."""
    if not isinstance(body, dict):
        raise BadRequest(f"{what}: the body must be a JSON object, not {type(body).__name__}")
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise BadRequest(f"{what}: unknown field {unknown[0]!r}; the fields are: {', '.join(allowed)}")
    missing = [k for k, required in allowed.items() if required and k not in body]
    if missing:
        raise BadRequest(f"{what}: the field {missing[0]!r} is required")
    return body


def get_int(body: dict[str, Any], name: str, *, low: int, high: int) -> int | None:
    """An integer field within bounds (``true`` is not an integer), or None when absent."""
    if name not in body:
        return None
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{name!r} must be an integer, not {json_type(value)}")
    if not low <= value <= high:
        raise BadRequest(f"{name!r} must be from {low} to {high}, not {value}")
    return value


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def get_str(body: dict[str, Any], name: str, max_len: int) -> str | None:
    if name not in body:
        return None
    value = body[name]
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be a string, not {json_type(value)}")
    if not 0 < len(value) <= max_len:
        raise BadRequest(f"{name!r} must have 1 to {max_len} characters")
    return value


def get_bool(body: dict[str, Any], name: str) -> bool | None:
    if name not in body:
        return None
    value = body[name]
    if not isinstance(value, bool):
        raise BadRequest(f"{name!r} must be true or false, not {json_type(value)}")
    return value


def get_vertices(body: dict[str, Any], name: str) -> tuple[str, ...]:
    if name not in body:
        return ()
    value = body[name]
    if not isinstance(value, list):
        raise BadRequest(f"{name!r} must be an array of vertices such as [\"C3\", \"D4\"], not {json_type(value)}")
    if len(value) > MAX_POINTS:
        raise BadRequest(f"{name!r} has more than {MAX_POINTS} vertices")
    for item in value:
        if not isinstance(item, str) or len(item) > 8:
            raise BadRequest(f"{name!r} must hold vertices such as \"C3\", not {json_type(item)}")
    return tuple(value)
