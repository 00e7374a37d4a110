"""The JSON body of every error answer of the game server.

Every answer the server gives on bad input is ``{"error": {"code", "message"[,
"details"]}}`` with the status of the :class:`~referee.errors.RequestError` (or
400 for the referee's other errors); an illegal move is a verdict, not an error
(see :mod:`referee.net.app`).
"""

from __future__ import annotations

from typing import Any


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body of an error answer."""
    err: dict[str, Any] = {"code": code, "message": message}
    if details:
        err["details"] = details
    return {"error": err}
